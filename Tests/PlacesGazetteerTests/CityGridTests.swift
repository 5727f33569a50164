import Testing

@testable import PlacesGazetteer

/// The city a published trip's point belongs to: the largest city near it, not a district.
@Suite struct CityGridTests {
    @Test func aPointInADistrictBelongsToItsCity() throws {
        let gazetteer = try Gazetteer.bundled()
        let grid = CityGrid(gazetteer)
        // Bairro Alto, in Lisbon.
        let lisbon = try #require(grid.largest(latitude: 38.7110, longitude: -9.1450, within: 15))
        #expect(gazetteer.name(lisbon) == "Lisbon" && gazetteer.countryCode(lisbon) == "PT")
        let kyoto = try #require(grid.largest(latitude: 35.0116, longitude: 135.7681, within: 15))
        #expect(gazetteer.countryCode(kyoto) == "JP")
        // The middle of the Atlantic belongs to no city; nor does a coordinate out of range.
        #expect(grid.nearest(latitude: 30, longitude: -40, within: 30) == nil)
        #expect(grid.largest(latitude: 95, longitude: 0, within: 15) == nil)
        #expect(grid.nearest(latitude: .nan, longitude: 0, within: 30) == nil)
        // At the antimeridian and the poles the neighbouring cells are searched without trapping.
        _ = grid.nearest(latitude: 89.9, longitude: 179.9, within: 30)
        _ = grid.largest(latitude: -90, longitude: -180, within: 15)
    }
}
