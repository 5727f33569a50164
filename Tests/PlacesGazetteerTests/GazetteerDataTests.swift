import Foundation
import Testing

@testable import PlacesGazetteer

/// The committed gazetteer, loaded once for the suite, or why it did not load.
private let shipped: Result<Gazetteer, Error> = Result { try Gazetteer.bundled() }

@Suite("The committed gazetteer")
struct GazetteerDataTests {
    func gazetteer() throws -> Gazetteer {
        try shipped.get()
    }

    @Test("it loads, with every continent and nearly every country, region and city ≥ 5,000")
    func counts() throws {
        let g = try gazetteer()
        let kinds = Dictionary(grouping: 0..<g.count, by: g.kind).mapValues(\.count)
        #expect(kinds[.continent] == 7)
        #expect(kinds[.country, default: 0] >= 240)
        #expect(kinds[.region, default: 0] >= 3_000)
        #expect(kinds[.city, default: 0] >= 60_000)
        let size = try FileManager.default.attributesOfItem(atPath: Gazetteer.bundledURL().path)[.size] as? Int
        #expect((size ?? .max) <= 6_000_000)
    }

    @Test("Lisbon: its other names, region, country and continent")
    func lisbon() throws {
        let g = try gazetteer()
        let lisbon = try #require(g.index(ofID: "city:2267057"))
        #expect(g.kind(lisbon) == .city)
        #expect(g.name(lisbon) == "Lisbon")
        #expect(g.id(lisbon) == "city:2267057")
        #expect(g.alternateNames(lisbon).contains("Lisboa"))
        #expect(abs(g.latitude(lisbon) - 38.7251) < 0.00001 && abs(g.longitude(lisbon) + 9.1498) < 0.00001)
        #expect(g.population(lisbon) > 400_000)
        #expect(g.countryCode(lisbon) == "PT")
        let region = try #require(g.region(lisbon))
        #expect(g.id(region) == "region:PT.14" && g.kind(region) == .region)
        let country = try #require(g.country(lisbon))
        #expect(g.id(country) == "country:PT" && g.name(country) == "Portugal")
        #expect(g.country(region) == country && g.country(country) == country)
        let continent = try #require(g.continent(lisbon))
        #expect(g.id(continent) == "continent:EU" && g.name(continent) == "Europe")
        #expect(g.continent(continent) == continent && g.country(continent) == nil && g.countryCode(continent) == nil)
        #expect(g.region(country) == nil)
    }

    @Test(
        "the regions the issue names are there, with their usual names",
        arguments: [
            ("region:DE.02", "Bavaria"), ("region:US.CA", "California"), ("region:FR.11", "Île-de-France"),
            ("region:BR.27", "São Paulo"), ("region:JP.22", "Kyoto"), ("region:US.NY", "New York"),
            ("region:AR.05", "Córdoba"), ("country:PT", "Portugal"), ("continent:SA", "South America"),
        ])
    func namedEntries(id: String, name: String) throws {
        let g = try gazetteer()
        let i = try #require(g.index(ofID: id), "\(id) is missing")
        #expect(g.name(i) == name)
        #expect(g.population(i) > 0)
    }

    @Test(
        "big cities, some regions and countries know their names in other languages",
        arguments: [
            ("city:2267057", "Lisboa"), ("city:2867714", "München"), ("city:2761369", "Wien"),
            ("city:1816670", "Peking"), ("city:3067696", "Praha"), ("city:3169070", "Roma"),
            ("city:524901", "Moskva"), ("city:756135", "Warszawa"), ("city:2886242", "Cologne"),
            ("country:DE", "Deutschland"), ("region:DE.02", "Bayern"),
        ])
    func exonyms(id: String, alternate: String) throws {
        let g = try gazetteer()
        let i = try #require(g.index(ofID: id))
        #expect(g.alternateNames(i).contains(alternate), "\(g.name(i)): \(g.alternateNames(i))")
    }

    @Test("ids that are not there, or not ids at all, find nothing")
    func unknownIDs() throws {
        let g = try gazetteer()
        let bad = [
            "city:0", "city:1", "city:99999999999", "city:", "city:-5", "city:2267057 ", "region:PT.99", "country:XX",
            "continent:ZZ", "", "2267057", "City:2267057", "city:+2267057", "city:02267057",
        ]
        for id in bad {
            #expect(g.index(ofID: id) == nil, "\(id)")
        }
        #expect(g.index(ofID: "city:524901").map(g.name) == "Moscow")
        #expect(g.index(ofID: "country:ZW").map(g.name) == "Zimbabwe")
    }

    @Test("every entry's links point at entries of the right kind")
    func links() throws {
        let g = try gazetteer()
        var orphans: [String] = []
        for i in 0..<g.count {
            let ok: Bool
            switch g.kind(i) {
            case .city:
                ok = (g.region(i).map { g.kind($0) == .region } ?? true) && g.country(i).map(g.kind) == .country
            case .region: ok = g.country(i).map(g.kind) == .country && g.region(i) == nil
            case .country: ok = g.country(i) == i
            case .continent: ok = g.continent(i) == i
            }
            if !ok || g.continent(i).map(g.kind) != .continent || g.index(ofID: g.id(i)) != i {
                orphans.append(g.id(i))
            }
        }
        #expect(orphans.isEmpty, "\(orphans.prefix(10))")
    }
}
