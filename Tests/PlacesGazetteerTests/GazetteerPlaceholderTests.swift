import Testing

@testable import PlacesGazetteer

@Test("the gazetteer module builds") func gazetteerBuilds() {
    #expect(GazetteerKind.allCases.count == 4)
}
