import Foundation
import PlacesAPI
import PlacesModel
import Testing

@Suite("Fast JSON for hot responses")
struct FastJSONTests {
    @Test("the hand-written favorites JSON is byte-identical to JSONEncoder's")
    func matchesEncoder() throws {
        let names = ["Belém \"Tower\"", "back\\slash", "tab\tnew\nline", "ctrl\u{01}", "emoji 🗺️", "/slash/"]
        let coords: [Double] = [38.6916, -9.216, 45, -0.0001, 89.999999, 1e-7]
        let list = FavoriteList(
            favorites: names.enumerated().map { i, n in
                Favorite(
                    id: String(repeating: "a", count: 32), placeId: "p\(i)", name: n, latitude: coords[i],
                    longitude: coords[(i + 1) % coords.count], position: i + 1, addedAt: "2026-11-22T13:48:44.745Z")
            }, count: names.count)
        let expected = Array(try ControlJSON.encoder.encode(list))
        #expect(String(decoding: list.jsonBytes(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}

@Suite("Hand-written itinerary JSON")
struct ItineraryJSONTests {
    @Test("the hand-written itinerary JSON is byte-identical to JSONEncoder's, with and without optional fields")
    func matchesEncoder() throws {
        let stops = [
            Stop(
                id: "s1", placeId: "p1", name: "Belém \"Tower\"", latitude: 38.6916, longitude: -9.216,
                address: "Av. Brasília/1\n", position: 1),
            Stop(id: "s2", name: "emoji 🗺️ \\", latitude: 45, longitude: 1e-7, position: 2),
        ]
        let full = Itinerary(
            id: "i1", name: "Lisbon\t", startDate: "2027-05-01", endDate: "2027-05-05", transportation: "train",
            lodging: Lodging(name: "Casa", address: nil, checkIn: "2027-05-01", checkOut: "2027-05-05"),
            travelPrice: Money(amountMinor: 12_050, currency: "EUR"),
            lodgingPrice: Money(amountMinor: 40_000, currency: "USD"), notes: "ctrl\u{01}", places: stops,
            totalCost: [Money(amountMinor: 12_050, currency: "EUR"), Money(amountMinor: 40_000, currency: "USD")],
            owner: "OWNER", role: "viewer", createdAt: "2026-11-22T13:48:44.745Z", updatedAt: "2026-11-23T13:48:44.745Z"
        )
        let bare = Itinerary(
            id: "i2", name: "Empty", places: [], totalCost: [], owner: "OWNER", role: "owner",
            createdAt: "2026-11-22T13:48:44.745Z")
        var lodgingOnly = bare
        lodgingOnly.lodging = Lodging(address: "Rua 1")
        lodgingOnly.places = [stops[1]]
        lodgingOnly.itemCount = 7
        for itinerary in [full, bare, lodgingOnly] {
            let expected = String(decoding: try ControlJSON.encoder.encode(itinerary), as: UTF8.self)
            #expect(String(decoding: itinerary.jsonBytes(), as: UTF8.self) == expected)
        }
    }
}

@Suite("Hand-written peer list JSON")
struct PeerListJSONTests {
    @Test("the hand-written GET /v1/peers JSON is byte-identical to JSONEncoder's, with and without optional fields")
    func matchesEncoder() throws {
        var direct = Peer(
            id: "PEER1", name: "Ana \"A\"", addresses: ["[::1]:7400", "10.0.0.2:7400"], connected: true, lastSeen: nil,
            documents: [
                PeerDocument(id: "d1", name: "Lisbon\t/", state: "in-sync", theyLack: 0, weLack: 0),
                PeerDocument(id: "d2", name: "", state: "unknown", theyLack: nil, weLack: nil),
                PeerDocument(id: "d3", name: "emoji 🗺️ \u{01}", state: "syncing", theyLack: 12, weLack: nil),
            ])
        direct.via = "direct"
        direct.opsSent = 1_204
        direct.opsSentAgain = 0
        var relay = Peer(
            id: "RELAY", name: "", addresses: [], connected: false, lastSeen: "2026-11-22T13:48:44.745Z", documents: [])
        relay.relay = true
        var notRelay = relay
        notRelay.relay = false
        for list in [
            PeerList(peers: [direct, relay], count: 2, staticPeers: ["127.0.0.1:7400"]),
            PeerList(peers: [], count: 0, staticPeers: []), PeerList(peers: [notRelay], count: 1, staticPeers: []),
        ] {
            let expected = String(decoding: try ControlJSON.encoder.encode(list), as: UTF8.self)
            #expect(String(decoding: list.jsonBytes(), as: UTF8.self) == expected)
        }
    }
}

@Suite("JSONValue written by hand")
struct JSONValueWrittenTests {
    /// A value as the views build them: whole numbers `.int` (`JSONValue.number`), others
    /// `.double` with up to four decimals (percentages, rates), ASCII keys.
    static func value(_ seed: inout UInt64, depth: Int = 0) -> JSONValue {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pick = Int(seed >> 33)
        let texts = ["Belém \"Tower\"", "back\\slash", "tab\tnew\nline", "ctrl\u{01}", "emoji 🗺️", "/slash/", ""]
        switch depth < 3 ? pick % 8 : pick % 5 {
        case 0: return .null
        case 1: return .bool(pick % 2 == 0)
        case 2: return .int(Int64(pick % 2_000_001) - 1_000_000)
        case 3: return .number(Double(pick % 2_000_001 - 1_000_000) / [1, 4, 100, 10_000][pick % 4])
        case 4: return .string(texts[pick % texts.count])
        case 5, 6:
            return .array((0..<(pick % 4)).map { _ in value(&seed, depth: depth + 1) })
        default:
            var object = [String: JSONValue]()
            for k in 0..<(pick % 5) { object["key\(k)\(pick % 3)"] = value(&seed, depth: depth + 1) }
            return .object(object)
        }
    }

    @Test("JSONValue.write gives JSONEncoder's bytes for the values the views build")
    func matchesEncoder() throws {
        var seed: UInt64 = 34
        for _ in 0..<500 {
            let value = Self.value(&seed)
            var written = [UInt8]()
            value.write(to: &written)
            let expected = String(decoding: try ControlJSON.encoder.encode(value), as: UTF8.self)
            #expect(String(decoding: written, as: UTF8.self) == expected)
        }
    }
}

@Suite("Hand-written event lines")
struct EventJSONTests {
    @Test("an event line is byte-identical to JSONEncoder's, with and without optional fields")
    func matchesEncoder() throws {
        let events = [
            Event(
                type: "changed", time: "2026-11-30T13:48:44.745Z", doc: String(repeating: "ab", count: 16),
                docKind: "itinerary", author: "P4ZOJGL-HAIL2XO", summary: "Ana renamed \"Lisbon\"/Porto\ttrip 🗺️"),
            Event(type: "hello", time: "2026-11-30T13:48:44.745Z", summary: "placesd 1.0"),
            Event(type: "message", time: "t", doc: "d", author: "a", summary: "line\nbreak \\ ctrl\u{01}"),
            Event(type: "login", time: "t", docKind: "library", summary: ""),
        ]
        for event in events {
            let expected = String(decoding: try ControlJSON.encoder.encode(event), as: UTF8.self)
            #expect(String(decoding: event.jsonBytes(), as: UTF8.self) == expected)
        }
    }
}
