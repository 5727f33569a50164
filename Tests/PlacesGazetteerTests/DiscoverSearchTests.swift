import PlacesGazetteer
import Testing

/// The search's rules over a small fixture (DiscoverFixture): what a user typing a name
/// would notice in the first results.
@Suite struct DiscoverSearchTests {
    let fixture = DiscoverFixture()
    let index = GazetteerIndex(DiscoverFixture())

    func ids(_ text: String, _ configure: (inout DiscoverQuery) -> Void = { _ in }) -> [String] {
        var q = DiscoverQuery(text: text)
        configure(&q)
        return index.search(q, candidates: [], popular: [:]).compactMap { $0.gazetteerIndex.map(fixture.id) }
    }

    @Test func accentsAndCaseAreIgnored() {
        #expect(ids("sao paulo").first == "city:3448439")
        #expect(ids("SÃO PAULO").first == "city:3448439")
        #expect(ids("ile de france").first == "region:FR.11")
    }

    @Test func aCityComesBeforeTheRegionOfTheSameNameThatContainsIt() {
        // The state has 46 M people, the city 12 M: size alone would put the state first.
        #expect(Array(ids("sao paulo").prefix(2)) == ["city:3448439", "region:BR.27"])
        #expect(Array(ids("new york").prefix(2)) == ["city:5128581", "region:US.NY"])
        // With near, distance decides (the state's centre is nearer to Albany).
        #expect(ids("new york") { $0.near = (42.65, -73.75) }.first == "region:US.NY")
    }

    @Test func alternateNamesAreExactMatches() {
        let hits = index.search(DiscoverQuery(text: "Lisboa"), candidates: [], popular: [:])
        #expect(hits.first.map { fixture.id($0.gazetteerIndex ?? -1) } == "city:2267057")
        #expect(hits.first?.quality == .exact)
        #expect(ids("München").first == "city:2867714")
        #expect(ids("munchen").first == "city:2867714")
    }

    @Test func aPrefixFindsTheBiggestPlaceWeightedByKind() {
        // Paris (2.1 M) before Paraná (11 M region) and Paraguay (6.9 M country).
        #expect(Array(ids("par").prefix(4)) == ["city:2988507", "region:BR.18", "country:PY", "city:3383330"])
        #expect(ids("afr").first == "continent:AF")
        #expect(ids("eur").first == "continent:EU")
        #expect(ids("p").first == "country:PT")  // 10.3 M / 4 is more than Paris's 2.1 M
    }

    @Test func exactBeforePrefixBeforeFuzzy() {
        let hits = index.search(DiscoverQuery(text: "york"), candidates: [], popular: [:])
        // York (153 k, exact) before New York City (8 M, a later word).
        #expect(hits.map { fixture.id($0.gazetteerIndex ?? -1) }.prefix(2) == ["city:2633352", "city:5128581"])
        #expect(hits.map(\.quality).prefix(2) == [.exact, .prefix])
    }

    @Test func typosInLongerWordsAreForgiven() {
        let hits = index.search(DiscoverQuery(text: "amsterdm"), candidates: [], popular: [:])
        #expect(hits.first.map { fixture.id($0.gazetteerIndex ?? -1) } == "city:2759794")
        #expect(hits.first?.quality == .fuzzy)
        #expect(ids("lisbn").first == "city:2267057")
        #expect(ids("sprngfeld").first == "city:4409896")  // two edits at 9+ letters: the biggest
        #expect(ids("prais").first == "city:2988507")  // a transposition is one edit
        #expect(ids("pris").isEmpty)  // 4 letters: no typos forgiven
        #expect(ids("amstrdm").isEmpty)  // two edits for a 7-letter query: too many
    }

    @Test func nearBreaksTiesByDistance() {
        #expect(ids("springfield").first == "city:4409896")  // by population: Missouri
        #expect(ids("springfield") { $0.near = (39.8, -89.6) }.first == "city:4250542")  // Illinois
        #expect(ids("springfield") { $0.near = (42.1, -72.6) }.first == "city:4951788")
    }

    @Test func kindFiltersKeepOnlyThoseKinds() {
        #expect(ids("sao paulo") { $0.kinds = [.region] } == ["region:BR.27"])
        #expect(ids("par") { $0.kinds = [.country] } == ["country:PY"])
        #expect(ids("par") { $0.kinds = [.place] }.isEmpty)
    }

    @Test func popularitySortsOverAllMatchesBeforeTheLimit() {
        let popular = ["city:3383330": 2, "country:PY": 1]
        func sorted(_ sort: PopularitySort) -> [String] {
            let q = DiscoverQuery(text: "par", limit: 2, sort: sort)
            return index.search(q, candidates: [], popular: popular).compactMap { $0.gazetteerIndex.map(fixture.id) }
        }
        #expect(sorted(.descending) == ["city:3383330", "country:PY"])
        #expect(sorted(.ascending) == ["city:2988507", "region:BR.18"])
        #expect(sorted(.off) == ["city:2988507", "region:BR.18"])
        let hits = index.search(DiscoverQuery(text: "paramaribo"), candidates: [], popular: popular)
        #expect(hits.first?.popularity == 2)
    }

    @Test func candidatesFollowGazetteerResultsOfTheSameQuality() {
        let candidates = [
            DiscoverCandidate(id: "place:0001", names: ["Belém Tower"], latitude: 38.69, longitude: -9.22),
            DiscoverCandidate(id: "place:0002", names: ["Paris Café"], latitude: 38.7, longitude: -9.1),
        ]
        let hits = index.search(DiscoverQuery(text: "belem tower"), candidates: candidates, popular: [:])
        #expect(hits.first?.candidateIndex == 0)
        #expect(hits.first?.quality == .exact)
        let paris = index.search(DiscoverQuery(text: "paris"), candidates: candidates, popular: [:])
        #expect(paris.first?.gazetteerIndex == fixture.index(ofID: "city:2988507"))
        #expect(paris.dropFirst().first?.candidateIndex == 1)
        let near = index.search(
            DiscoverQuery(text: "paris c", near: (38.7, -9.1)), candidates: candidates, popular: ["place:0002": 3])
        #expect(near.first?.candidateIndex == 1)
        #expect(near.first?.popularity == 3)
        let onlyPlaces = index.search(DiscoverQuery(text: "be", kinds: [.place]), candidates: candidates, popular: [:])
        #expect(onlyPlaces.map(\.candidateIndex) == [0])
    }

    @Test func limitCutsAndEachEntryAppearsOnce() {
        #expect(ids("p") { $0.limit = 3 }.count == 3)
        // Lisbon matches "lis" by its name and two alternates: listed once.
        #expect(ids("lis") == ["city:2267057"])
        #expect(ids("spring").count == 3)
    }

    @Test func hostileQueriesFindNothingAndNeverTrap() {
        #expect(ids("!!!").isEmpty)
        #expect(ids("   ").isEmpty)
        #expect(ids(String(repeating: "ß", count: 10_000)).isEmpty)
        #expect(ids("paris") { $0.limit = 10_000 }.count == 1)
        #expect(ids("paris") { $0.limit = -5 }.count == 1)
        #expect(ids("paris") { $0.near = (.nan, .infinity) }.first == "city:2988507")
        #expect(ids("\u{0}\u{FFFF}\u{10FFFF}").isEmpty)
    }

    @Test func entriesNamedWithinADistance() {
        let springfield = fixture.index(ofID: "city:4250542")
        #expect(index.entries(named: "SPRINGFIELD", within: 100, ofLatitude: 39.80, longitude: -89.64) == [springfield])
        #expect(index.entries(named: "Springfield", within: 100, ofLatitude: 39.81, longitude: -89.64).isEmpty)
        #expect(index.entries(named: "lisboa", within: 1000, ofLatitude: 38.72, longitude: -9.13).count == 1)
        #expect(index.entries(named: "", within: 100, ofLatitude: 0, longitude: 0).isEmpty)
    }
}
