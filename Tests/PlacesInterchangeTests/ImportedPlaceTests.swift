import PlacesInterchange
import Testing

@Suite struct ImportedPlaceTests {
    @Test func holdsItsFields() {
        #expect(ImportedPlace(name: "Belém Tower", latitude: 38.69, longitude: -9.21).categories.isEmpty)
    }
}
