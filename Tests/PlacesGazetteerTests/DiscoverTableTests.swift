import PlacesGazetteer
import Testing

/// The committed gazetteer and its index, built once for the table (nil while the resource
/// is still a placeholder of a few lines).
private let real: (gazetteer: Gazetteer, index: GazetteerIndex)? = {
    guard let g = try? Gazetteer.bundled(), g.count > 10_000 else { return nil }
    return (g, GazetteerIndex(g))
}()

/// One row: what a user types, and what they should see first (then second, when the
/// order of the first two is the point).
struct DiscoverRow: CustomTestStringConvertible, Sendable {
    var text: String
    var kinds: Set<DiscoverKind>? = nil
    var near: (latitude: Double, longitude: Double)? = nil
    var first: String
    var second: String? = nil

    var testDescription: String {
        "\"\(text)\"" + (kinds.map { " kinds \($0.map(\.rawValue).sorted())" } ?? "")
            + (near.map { " near \($0.latitude),\($0.longitude)" } ?? "") + " → \(first)"
    }
}

/// The table: at least 40 queries over the real gazetteer with their expected first
/// result (cities, regions, countries, continents, accents, other names, prefixes, typos,
/// ties broken by population and by `near`, kind filters). The ranking's weights were tuned
/// on it (docs/discover.md, "Search and ranking").
@Suite(.enabled(if: real != nil, "the committed gazetteer is a placeholder"))
struct DiscoverTableTests {
    static let rows: [DiscoverRow] = [
        // The examples.
        .init(text: "sao paulo", first: "city:3448439", second: "region:BR.27"),  // city before its state
        .init(text: "São Paulo", first: "city:3448439", second: "region:BR.27"),
        .init(text: "zurich", first: "city:2657896"),
        .init(text: "Lisboa", first: "city:2267057"),
        .init(text: "München", first: "city:2867714"),
        .init(text: "Wien", first: "city:2761369"),
        .init(text: "Peking", first: "city:1816670"),  // Beijing
        .init(text: "par", first: "city:2988507"),  // Paris, France: not Par (Cornwall), Paraguay
        .init(text: "amsterdm", first: "city:2759794"),
        .init(text: "new york", first: "city:5128581", second: "region:US.NY"),
        .init(text: "kyoto", first: "city:1857910", second: "region:JP.22"),
        .init(text: "Córdoba", first: "city:3860259", second: "city:2519240"),  // then Córdoba, Spain
        .init(text: "springfield", near: (39.8, -89.6), first: "city:4250542"),  // Illinois
        .init(text: "bavaria", first: "region:DE.02"),
        .init(text: "california", first: "region:US.CA"),  // the state, 39 M, before the town
        .init(text: "Île-de-France", first: "region:FR.11"),
        .init(text: "europe", first: "continent:EU"),
        .init(text: "afr", first: "continent:AF"),
        // Countries and continents.
        .init(text: "portugal", first: "country:PT"),
        .init(text: "france", first: "country:FR"),
        .init(text: "germany", first: "country:DE"),
        .init(text: "united states", first: "country:US"),
        .init(text: "japan", first: "country:JP"),
        .init(text: "mexico", first: "country:MX", second: "city:3530597"),
        .init(text: "ivory coast", first: "country:CI"),
        .init(text: "deutschland", first: "country:DE"),
        .init(text: "España", first: "country:ES"),
        .init(text: "usa", first: "country:US"),  // an exact alternate of 3 letters, before Uşak
        .init(text: "uk", first: "country:GB"),
        .init(text: "asia", first: "continent:AS"),
        .init(text: "north am", first: "continent:NA"),
        // Regions and their other names.
        .init(text: "bayern", first: "region:DE.02"),
        .init(text: "new south wales", first: "region:AU.02"),
        .init(text: "ontario", first: "region:CA.08"),
        // Accents, other names.
        .init(text: "munchen", first: "city:2867714"),
        .init(text: "moskau", first: "city:524901"),
        .init(text: "roma", first: "city:3169070"),
        .init(text: "napoli", first: "city:3172394"),
        .init(text: "kobenhavn", first: "city:2618425"),
        // Prefixes.
        .init(text: "los ang", first: "city:5368361"),
        .init(text: "ber", first: "city:2950159"),
        .init(text: "bue", first: "city:3435910"),
        .init(text: "stockh", first: "city:2673730"),
        .init(text: "mad", first: "city:3117735"),  // Madrid: own names before alternates (Madras)
        .init(text: "s", first: "city:1796236"),  // Shanghai, not North America by a foreign name
        // Typos.
        .init(text: "lisbn", first: "city:2267057"),
        .init(text: "sprngfield", first: "city:4409896"),  // two edits at 9+ letters
        .init(text: "barcelna", first: "city:3128760"),
        .init(text: "san francsico", first: "city:5391959"),
        // Ties of the same name: population, then near.
        .init(text: "springfield", first: "city:4409896"),  // Missouri, the biggest
        .init(text: "springfield", near: (42.1, -72.6), first: "city:4951788"),  // Massachusetts
        .init(text: "paris", first: "city:2988507"),
        .init(text: "paris", near: (33.66, -95.55), first: "city:4717560"),  // Paris, Texas
        .init(text: "london", first: "city:2643743"),
        .init(text: "london", near: (42.98, -81.25), first: "city:6058560"),  // London, Ontario
        .init(text: "washington", first: "city:4140963"),  // the capital (690 k) before the state (÷15)
        .init(text: "georgia", first: "country:GE"),
        .init(text: "georgia", near: (33.7, -84.4), first: "region:US.GA"),
        // Kind filters.
        .init(text: "sao paulo", kinds: [.region], first: "region:BR.27"),
        .init(text: "new york", kinds: [.region], first: "region:US.NY"),
        .init(text: "georgia", kinds: [.region], first: "region:US.GA"),
        .init(text: "mexico", kinds: [.city], first: "city:3530597"),
        .init(text: "luxembourg", kinds: [.country], first: "country:LU"),
        .init(text: "asia", kinds: [.city], first: "city:1730097"),  // a town, not the continent
        .init(text: "córdoba", kinds: [.region], first: "region:AR.05"),
    ]

    @Test func theTableHasAtLeastFortyRows() {
        #expect(Self.rows.count >= 40)
    }

    @Test(arguments: rows)
    func firstResult(_ row: DiscoverRow) throws {
        let (g, index) = try #require(real)
        let q = DiscoverQuery(text: row.text, kinds: row.kinds, near: row.near, limit: 5)
        let ids = index.search(q, candidates: [], popular: [:]).compactMap { $0.gazetteerIndex.map(g.id) }
        #expect(ids.first == row.first, "got \(ids)")
        if let second = row.second {
            #expect(ids.dropFirst().first == second, "got \(ids)")
        }
        if let kinds = row.kinds {
            let kindsSeen = Set(
                index.search(q, candidates: [], popular: [:]).compactMap { $0.gazetteerIndex.map(g.kind) })
            #expect(kindsSeen.allSatisfy { kinds.contains(DiscoverKind(rawValue: $0.rawValue) ?? .place) })
        }
    }
}
