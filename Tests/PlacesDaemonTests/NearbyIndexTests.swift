import Foundation
import PlacesAPI
import PlacesModel
import PlacesRoutes
import Testing

@testable import PlacesDaemon

/// Nearby's incremental index: after any sequence of edits of the user's places and of
/// friends' cards, it holds exactly what merging everything again from scratch gives (the
/// merge as it was written before the index kept names apart), and a box query finds what a
/// scan of every place finds.
@Suite("Nearby index, updated in place")
struct NearbyIndexTests {
    /// A deterministic generator (SplitMix64), so that a failure replays.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
        /// Within about 400 m of Lisbon's castle: close enough that names meet within 150 m.
        mutating func point() -> (Double, Double) {
            (38.7139 + Double(int(700)) / 100_000, -9.1335 + Double(int(900)) / 100_000)
        }
    }

    static let names = ["Café Central", "cafe central", "CAFÉ CENTRAL!", "Tasca", "MUDE", "Miradouro", "Castelo"]
    static let me = (id: "me-id", name: "Ana")

    static func ownPlace(_ id: String, _ random: inout Random) -> NearbyIndex.Own {
        let (lat, lon) = random.point()
        let place = Engine.SavedPlace(
            id: id, name: random.pick(Self.names), point: GeoPoint(latitude: lat, longitude: lon),
            categories: [random.pick(["Food", "view"])], hours: random.pick([nil, "24/7", "Mo-Fr 09:00-17:00"]),
            notes: nil, rating: nil, address: nil, savedBy: [Self.me])
        return NearbyIndex.Own(place, position: random.pick([nil, "a", "b", "a0"]))
    }

    static func card(_ person: String, doc: DocumentID, count: Int, _ random: inout Random) -> NearbyIndex.Card {
        let places = (0..<count).map { i -> SharedFavorite in
            let (lat, lon) = random.point()
            return SharedFavorite(
                id: "place:\(person).\(i).\(random.int(1_000))", name: random.pick(Self.names), latitude: lat,
                longitude: lon, address: nil, categories: ["food"], gazetteerId: nil)
        }
        return NearbyIndex.Card(doc: doc, person: (person, random.pick(["Bruno", "Carla", "B."])), places: places)
    }

    /// The merge as `readSavedPlaces` wrote it over the whole of both lists.
    static func reference(own: [NearbyIndex.Own], cards: [NearbyIndex.Card]) -> [String] {
        let ordered = own.sorted { a, b in
            switch (a.position, b.position) {
            case (nil, .some): return true
            case (.some, nil): return false
            case (let x?, let y?) where x != y: return x.utf8.lexicographicallyPrecedes(y.utf8)
            default: return a.place.id.utf8.lexicographicallyPrecedes(b.place.id.utf8)
            }
        }
        var out = ordered.map(\.place)
        var byName = [String: [Int]]()
        for (i, p) in out.enumerated() { byName[NameFolding.fold(p.name), default: []].append(i) }
        for card in cards.sorted(by: { $0.person.id < $1.person.id }) {
            for favorite in card.places {
                let folded = NameFolding.fold(favorite.name)
                let point = GeoPoint(latitude: favorite.latitude, longitude: favorite.longitude)
                if let i = (byName[folded] ?? []).first(where: {
                    out[$0].point.greatCircleDistanceMeters(to: point) <= Engine.samePlaceMeters
                }) {
                    if !out[i].savedBy.contains(where: { $0.id == card.person.id }) {
                        out[i].savedBy.append(card.person)
                    }
                    continue
                }
                byName[folded, default: []].append(out.count)
                out.append(
                    Engine.SavedPlace(
                        id: favorite.id, name: favorite.name, point: point, categories: favorite.categories,
                        savedBy: [card.person]))
            }
        }
        return out.map(describe).sorted()
    }

    static func describe(_ p: Engine.SavedPlace) -> String {
        "\(p.id)|\(p.name)|\(p.point.latitude),\(p.point.longitude)|\(p.categories)|\(p.hours ?? "-")|"
            + p.savedBy.map { "\($0.id)=\($0.name)" }.joined(separator: ",")
    }

    static func held(_ index: NearbyIndex) -> [String] { index.entries.compactMap { $0?.place }.map(describe).sorted() }

    @Test("300 random edits of own places and cards: the index equals a merge from scratch after each")
    func incrementalEqualsFresh() throws {
        var random = Random(state: 42)
        let people = ["p-b", "p-c", "p-a", "p-d"]
        let docs = try (0..<4).map { i in try #require(DocumentID(bytes: [UInt8](repeating: UInt8(i + 1), count: 16))) }
        var own = [String: NearbyIndex.Own]()
        for i in 0..<40 { own["own\(i)"] = Self.ownPlace("own\(i)", &random) }
        var cards = [String: NearbyIndex.Card]()
        for (i, person) in ["p-b", "p-c", "p-a"].enumerated() {
            cards[person] = Self.card(person, doc: docs[i], count: 30, &random)
        }
        var index = NearbyIndex(me: Self.me, own: Array(own.values), cards: Array(cards.values))
        #expect(Self.held(index) == Self.reference(own: Array(own.values), cards: Array(cards.values)))
        #expect(Self.held(index).contains { $0.contains("me-id=Ana,p-") }, "some own place is saved by a friend too")

        for step in 0..<300 {
            switch random.int(6) {
            case 0, 1:  // edit or add an own place (a new name, position, point)
                let id = "own\(random.int(50))"
                let place = Self.ownPlace(id, &random)
                own[id] = place
                index.setOwn(id, place)
            case 2:  // remove one
                let id = "own\(random.int(50))"
                own[id] = nil
                index.setOwn(id, nil)
            case 3, 4:  // a friend's card changes (places moved, renamed, added, removed; their name)
                let person = random.pick(people)
                let doc = docs[people.firstIndex(of: person) ?? 0]
                let changed = Self.card(person, doc: doc, count: 5 + random.int(30), &random)
                cards[person] = changed
                index.setCard(person, changed)
            default:  // a card goes (no longer a friend)
                let person = random.pick(people)
                cards[person] = nil
                index.setCard(person, nil)
            }
            let expected = Self.reference(own: Array(own.values), cards: Array(cards.values))
            try #require(Self.held(index) == expected, "step \(step)")
            #expect(index.count == expected.count)
        }
        for (person, card) in cards { #expect(index.cardOwner(card.doc) == person) }
    }

    @Test("a box query visits exactly the places a scan of all finds, a pole and the antimeridian included")
    func boxQuery() throws {
        var random = Random(state: 7)
        var own = [NearbyIndex.Own]()
        for i in 0..<400 {
            var place = Self.ownPlace("own\(i)", &random)
            // Spread over the world, many near Lisbon, some at the poles and on the date line.
            switch i % 4 {
            case 0:
                place.place.point = GeoPoint(
                    latitude: Double(random.int(18_000)) / 100 - 90, longitude: Double(random.int(36_000)) / 100 - 180)
            case 1:
                place.place.point = GeoPoint(
                    latitude: 89.99 - Double(random.int(100)) / 1_000,
                    longitude: 179.95 + Double(random.int(50)) / 1_000)
            default: break
            }
            own.append(place)
        }
        let index = NearbyIndex(me: Self.me, own: own, cards: [])
        let all = index.entries.compactMap { $0?.place }
        for centre in [(38.716, -9.13), (89.99, 179.97), (0, 0), (-45, 179.999)] {
            for (latSpan, lonSpan) in [(0.001, 0.001), (0.01, 0.02), (1.0, 3.0), (30.0, 90.0)] {
                let lats = (centre.0 - latSpan)...(centre.0 + latSpan)
                let lons = (centre.1 - lonSpan)...(centre.1 + lonSpan)
                var found = [String]()
                index.forEach(latitudes: lats, longitudes: lons) { slot in
                    found.append(index.entries[slot]?.place.id ?? "")
                }
                let scanned = all.filter { lats.contains($0.point.latitude) && lons.contains($0.point.longitude) }
                #expect(found.sorted() == scanned.map(\.id).sorted(), "\(centre) \(latSpan)")
            }
        }
    }

    @Test("the nearest rows: a heap of the limit best equals sorting all")
    func nearest() {
        var random = Random(state: 9)
        let rows = (0..<2_000).map { i in
            NearbyRow(distance: Double(random.int(500)), slot: i, open: nil)
        }
        for limit in [1, 7, 100, 1_999, 2_000, 5_000] {
            let expected = Array(rows.sorted(by: NearbyRow.precedes).prefix(limit)).map(\.slot)
            #expect(NearbyRow.nearest(limit, of: rows).map(\.slot) == expected, "\(limit)")
        }
    }
}
