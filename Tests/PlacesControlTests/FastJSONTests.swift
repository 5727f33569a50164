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
