import PlacesInterchange
import Testing

@Suite struct ImportPlanTests {
    private func p(_ name: String, _ lat: Double, _ lon: Double) -> ImportedPlace {
        ImportedPlace(name: name, latitude: lat, longitude: lon)
    }

    @Test func sameNameNearbyIsADuplicateWhateverTheCaseAccentsAndSpaces() {
        let existing = [p("Pastéis de Belém", 38.6975341, -9.2032546)]
        // ~50 m away, written differently.
        let plan = ImportPlan.plan(importing: [p("  PASTEIS  de belem", 38.6979, -9.2033)], existing: existing)
        #expect(plan.add.isEmpty && plan.skipped == 1)
        #expect(ImportPlan.plan(importing: [p("Pastéis de Belém!", 38.6975, -9.2032)], existing: existing).skipped == 1)
    }

    @Test func sameNameFarAwayIsAnotherPlace() {
        // Two branches of a chain ~300 m apart.
        let plan = ImportPlan.plan(
            importing: [p("Starbucks", 38.7100, -9.1400)], existing: [p("Starbucks", 38.7127, -9.1400)])
        #expect(plan.add.count == 1 && plan.skipped == 0)
    }

    @Test func sameSpotIsADuplicateWhateverTheName() {
        // Renamed in the library since the last import: still the same pin.
        let existing = [p("Best custard tarts", 38.6975341, -9.2032546)]
        let plan = ImportPlan.plan(importing: [p("Pastéis de Belém", 38.697534, -9.203254)], existing: existing)
        #expect(plan.skipped == 1)
        // A different place 20 m away with another name is kept.
        #expect(ImportPlan.plan(importing: [p("Other", 38.6977, -9.2032546)], existing: existing).skipped == 0)
    }

    @Test func unnamedPlacesAreComparedOnlyBySpot() {
        let plan = ImportPlan.plan(
            importing: [p("Unnamed place", 10, 10), p("Unnamed place", 10.0003, 10), p("Unnamed place", 10, 10)],
            existing: [])
        #expect(plan.add.count == 2 && plan.skipped == 1)
    }

    @Test func duplicatesWithinTheFileAndAcrossTheAntimeridianAndAtThePole() {
        let plan = ImportPlan.plan(
            importing: [
                p("Fiji spot", -17.0, 179.99995), p("fiji spot", -17.0, -179.99995),  // ~10 m apart
                p("Pole", 90, 0), p("pole", 89.9995, 120),  // ~55 m apart
                p("Oslo", 59.91, 10.75), p("Oslo", 59.91, 10.75),
            ], existing: [])
        #expect(plan.add.map(\.name) == ["Fiji spot", "Pole", "Oslo"])
        #expect(plan.skipped == 3)
    }

    @Test func orderIsKeptAndNothingIsLost() {
        let importing = (0..<500).map { p("Place \($0 % 250)", Double($0 % 250) * 0.01, 5) }
        let plan = ImportPlan.plan(importing: importing, existing: [])
        #expect(plan.add.map(\.name) == (0..<250).map { "Place \($0)" })
        #expect(plan.skipped == 250)
    }

    @Test func aFileOfPlacesCrowdedOnOneStreetIsNotQuadratic() {
        // 20,000 differently named places 1.1 m apart on a 142 m square: every one is within
        // 100 m of thousands of others, yet each is compared with a handful.
        let side = 142
        let step = 1.1 / 111_195
        let crowd = (0..<20_000).map {
            p("Stall \($0)", 41.0 + Double($0 / side) * step, 2.0 + Double($0 % side) * step * 1.33)
        }
        let start = ContinuousClock.now
        let plan = ImportPlan.plan(importing: crowd, existing: [])
        #expect(plan.add.count == 20_000)
        #expect(ContinuousClock.now - start < .seconds(10))
        // Punctuation-only names are not "equal names".
        #expect(ImportPlan.plan(importing: [p("!!!", 1, 1), p("???", 1, 1.0001)], existing: []).add.count == 2)
    }

    @Test func invalidCoordinatesFromACallerDoNotTrap() {
        let plan = ImportPlan.plan(importing: [p("x", .nan, 0), p("y", 100, 500)], existing: [p("z", .infinity, 0)])
        #expect(plan.add.count == 2)
    }
}
