import PlacesModel
import PlacesTrips
import Testing

@Suite struct TripCostsTests {
    typealias F = Fixture

    private func eur(_ cents: Int64) -> Money { Money(amountMinor: cents, currency: "EUR") }
    private func jpy(_ yen: Int64) -> Money { Money(amountMinor: yen, currency: "JPY") }

    @Test func sumsPerSectionAndCurrencyWithoutConverting() {
        let trip = F.trip(
            nil, nil,
            [
                F.item("h1", .lodging, "Hotel", price: eur(48_000)),
                F.item("h2", .lodging, "Ryokan", price: jpy(36_000)),
                F.item("f", .transport, "Flight", price: eur(95_000)),
                F.item("d1", .food, "Dinner", price: eur(4_550)),
                F.item("d2", .food, "Ramen", price: jpy(1_200)),
                F.item("d3", .food, "Free tasting"),
                F.item("r", .activity, "Refunded tour", price: eur(-1_000)),
            ])
        let costs = TripCosts.of(trip)
        #expect(costs.sections.map(\.type) == [.lodging, .transport, .food, .activity, .place])
        #expect(
            costs.sections.map(\.amounts) == [
                [eur(48_000), jpy(36_000)], [eur(95_000)], [eur(4_550), jpy(1_200)], [eur(-1_000)], [],
            ])
        #expect(costs.total == [eur(146_550), jpy(37_200)])
        #expect(costs.cappedCurrencies.isEmpty)
    }

    @Test func anOverflowingSumIsCappedAndFlaggedNotATrap() {
        let trip = F.trip(
            nil, nil,
            [
                F.item("a", .lodging, "A", price: eur(Int64.max)),
                F.item("b", .food, "B", price: eur(Int64.max)),
                F.item("c", .food, "C", price: eur(Int64.max)),
                F.item("d", .food, "D", price: eur(-5)),
                F.item("e", .activity, "E", price: jpy(Int64.min)),
                F.item("f", .activity, "F", price: jpy(-1)),
            ])
        let costs = TripCosts.of(trip)
        #expect(costs.total == [eur(Int64.max), jpy(Int64.min)])
        #expect(costs.sections[2].amounts == [eur(Int64.max)])
        #expect(costs.cappedCurrencies == ["EUR", "JPY"])
    }

    @Test func aDuplicateIDCountsOnce() {
        let trip = F.trip(
            nil, nil,
            [F.item("x", .food, "Lunch", price: eur(1_000)), F.item("x", .food, "Lunch again", price: eur(1_000))])
        #expect(TripCosts.of(trip).total == [eur(1_000)])
    }

    @Test func theBenchFixtureIsAThirtyDayTripOfFiveHundredItems() {
        let trip = TripBenchFixture.thirtyDays500Items()
        #expect(trip.items.count == 500)
        #expect(Set(trip.items.map(\.id)).count == 500)
        let schedule = TripDays.plan(trip)
        #expect(schedule.days.count == 30)
        #expect(schedule.unscheduled.isEmpty)
        #expect(schedule.days.dropLast().allSatisfy { $0.lodging != nil || $0.number == 19 })
        #expect(TripWarnings.check(trip).count < 200)
    }
}
