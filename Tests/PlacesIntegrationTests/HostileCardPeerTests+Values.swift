import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Cards too big, and cards whose values lie.
extension HostileCardPeerTests {
    // MARK: Size and values

    /// A card of `m` with `count` shared places in ops of 1,000 (an op is at most 1 MiB),
    /// named by `name`, all made from Lisbon.
    static func bigCard(_ m: AdversarialPeer, count: Int, name: (Int) -> String) throws -> CardDraft {
        var card = try CardDraft(author: m)
        try card.append(Wire.cardRoot(card.doc, name: "Mallory", username: "mallory"))
        let positions = FractionalIndex.spread(count)
        for start in stride(from: 0, to: count, by: 1_000) {
            var changes = [String]()
            for i in start..<min(count, start + 1_000) {
                changes += Wire.sharedPlace(
                    name: name(i), gazetteerID: Wire.string(Self.lisbon), position: positions[i])
            }
            try card.append(changes)
        }
        return card
    }

    /// How long one GET takes, and its status: the daemon's answer read in full, without the
    /// test's own check of the answer against the spec (which, for 10,000 favorites in this
    /// debug test process, took 8 s where the daemon took well under one).
    static func timed(_ v: SyncNode, _ path: String) -> (status: Int?, elapsed: Duration) {
        let started = ContinuousClock.now
        let status = try? v.d.client.send("GET", path).status
        return (status, ContinuousClock.now - started)
    }

    @Test("10,001 shared places: the card shows at most 10,000, counted once, and the daemon keeps answering")
    func tenThousandAndOne() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        // The gazetteer is loaded before, so that the times below are the card's.
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 0)
        // The 10,001st place comes last in the owner's order.
        let card = try Self.bigCard(m, count: 10_001) { $0 == 10_000 ? Self.planted("10001") : "Zyxqor \($0)" }
        _ = try t.deliver(card)
        try await eventually("the 10,000 places are shown", timeout: .seconds(90)) {
            (v.contactEntry(m.humanID)?["sharedFavorites"] as? Int ?? 0) >= 10_000
        }
        guard v.serving("10,001 shared places") else { return }
        let profile = Self.timed(v, "/v1/contacts/\(m.humanID)")
        #expect(profile.status == 200 && profile.elapsed < .seconds(5), "GET /v1/contacts/{id}: \(profile)")
        let names = v.sharedFavoriteNames(m.humanID)
        #expect(names.count == 10_000, "the card shows \(names.count) places")
        #expect(!names.contains(Self.planted("10001")), "the 10,001st place is shown")
        #expect((v.contactEntry(m.humanID)?["sharedFavorites"] as? Int ?? 0) == 10_000)
        // 10,000 places from one person are one person, and counting them is not slow.
        let first = Self.timed(v, "/v1/discover?q=lisbon")
        #expect(first.status == 200 && first.elapsed < .seconds(5), "the first search after the card: \(first)")
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
        // Other places match "Zyxqor 10001" by prefix or one typo ("Zyxqor 1000"); the
        // 10,001st itself is not among the results.
        #expect(!v.discover(Self.planted("10001")).contains { $0["name"] as? String == Self.planted("10001") })
        #expect(try v.d.send("GET", "/v1/discover?q=zyxqor&limit=100").status == 200)
    }

    @Test("two contacts sharing 10,000 places of one name and one id each: counted as two, and discover stays quick")
    func manyIdenticalFavorites() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        let eve = try AdversarialPeer()
        try v.accept(eve.humanID)
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 0)
        // Every place is "Lisbon", made from Lisbon: the same place 20,000 times.
        _ = try t.deliver(try Self.bigCard(m, count: 10_000) { _ in "Lisbon" })
        let eveSession = try eve.connectForCards(to: v.address, name: "Eve")
        _ = try t.deliver(try Self.bigCard(eve, count: 10_000) { _ in "Lisbon" }, from: eveSession)
        try await eventually("both cards are shown", timeout: .seconds(120)) {
            v.contactEntry(m.humanID)?["sharedFavorites"] as? Int == 10_000
                && v.contactEntry(eve.humanID)?["sharedFavorites"] as? Int == 10_000
        }
        guard v.serving("20,000 identical shared places") else { return }
        let first = Self.timed(v, "/v1/discover?q=lisbon&limit=100")
        #expect(first.status == 200 && first.elapsed < .seconds(5), "the first search after the cards: \(first)")
        let again = Self.timed(v, "/v1/discover?q=lis&limit=100")
        #expect(again.status == 200 && again.elapsed < .seconds(1), "the next search: \(again)")
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 2, "two people saved Lisbon")
    }

    @Test("lies in a card's values (gazetteer ids, coordinates, names, foreign entities) are refused one by one")
    func lyingValues() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        var card = try Self.honestCard(m)
        _ = try t.deliver(card)
        try await eventually("the card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
        let root = card.doc.hex
        let lies: [(what: String, changes: [String])] = [
            ("gazetteerId city:abc", Wire.sharedPlace(name: Self.planted("g1"), gazetteerID: #""city:abc""#)),
            ("gazetteerId town:1", Wire.sharedPlace(name: Self.planted("g2"), gazetteerID: #""town:1""#)),
            ("gazetteerId city:02267057", Wire.sharedPlace(name: Self.planted("g3"), gazetteerID: #""city:02267057""#)),
            (
                "gazetteerId city:12345678901",
                Wire.sharedPlace(name: Self.planted("g4"), gazetteerID: #""city:12345678901""#)
            ),
            ("gazetteerId country:pt", Wire.sharedPlace(name: Self.planted("g5"), gazetteerID: #""country:pt""#)),
            ("gazetteerId region:PT", Wire.sharedPlace(name: Self.planted("g6"), gazetteerID: #""region:PT""#)),
            ("gazetteerId continent:XX", Wire.sharedPlace(name: Self.planted("g7"), gazetteerID: #""continent:XX""#)),
            ("gazetteerId 2267057", Wire.sharedPlace(name: Self.planted("g8"), gazetteerID: "2267057")),
            (
                "a gazetteerId of 10,000 characters",
                Wire.sharedPlace(
                    name: Self.planted("g9"), gazetteerID: Wire.string("city:" + String(repeating: "1", count: 9_995)))
            ),
            ("latitude 91", Wire.sharedPlace(name: Self.planted("c1"), latitude: "91")),
            ("latitude -90.0001", Wire.sharedPlace(name: Self.planted("c2"), latitude: "-90.0001")),
            ("longitude 180.5", Wire.sharedPlace(name: Self.planted("c3"), longitude: "180.5")),
            ("longitude -181", Wire.sharedPlace(name: Self.planted("c4"), longitude: "-181")),
            ("latitude 1e999", Wire.sharedPlace(name: Self.planted("c5"), latitude: "1e999")),
            ("latitude as a string", Wire.sharedPlace(name: Self.planted("c6"), latitude: #""38.7""#)),
            ("an empty name", Wire.sharedPlace(name: "  ")),
            ("a name of 300 characters", Wire.sharedPlace(name: String(repeating: "Z", count: 300))),
            ("a position that is not one", Wire.sharedPlace(name: Self.planted("p1"), position: "UP")),
            ("a username with spaces", [Wire.set(root, kind: "card", field: "username", value: #""not a username""#)]),
            (
                "a bio of 10,001 characters",
                [Wire.set(root, kind: "card", field: "bio", value: Wire.string(String(repeating: "b", count: 10_001)))]
            ),
            (
                "a second card root",
                Wire.cardRoot(try DocumentID(bytes: SecureRandom.bytes(16)).orThrow("id"), name: "Two")
            ),
            (
                "a member entity granting a role",
                [
                    Wire.create(m.identity.publicKey.hex, kind: "member"),
                    Wire.set(m.identity.publicKey.hex, kind: "member", field: "role", value: #""editor""#),
                ]
            ),
            (
                "a library place",
                {
                    let id = HexCoding.encode(SecureRandom.bytes(16))
                    return [
                        Wire.create(id, kind: "place"),
                        Wire.set(id, kind: "place", field: "name", value: Wire.string(Self.planted("lib"))),
                        Wire.set(id, kind: "place", field: "latitude", value: "1"),
                        Wire.set(id, kind: "place", field: "longitude", value: "1"),
                    ]
                }()
            ),
            (
                "a stop",
                {
                    let id = HexCoding.encode(SecureRandom.bytes(16))
                    return [
                        Wire.create(id, kind: "stop"),
                        Wire.set(id, kind: "stop", field: "name", value: Wire.string(Self.planted("stop"))),
                        Wire.set(id, kind: "stop", field: "position", value: #""n""#),
                    ]
                }()
            ),
            ("a sharedPlace whose id is not an entity id", Wire.sharedPlace("NOT-HEX", name: Self.planted("id"))),
        ]
        for lie in lies {
            let ops = v.opCount
            var attempt = card
            let op = try attempt.append(lie.changes)
            try t.session.send(ops: [op], doc: card.doc)
            _ = try t.session.settle()
            guard v.serving("a card op with \(lie.what)") else { return }
            #expect(v.opCount == ops, "a card op with \(lie.what) was stored")
            #expect(v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"], "\(lie.what) changed the card")
        }
        let plantedNames = ["g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "c1", "c2", "c3", "c4", "c5", "c6"]
            .map(Self.planted)
        Self.expectNothingPlanted(v, person: m.humanID, names: plantedNames, lisbonPopularity: 1, "lying values")
        let person = v.person(m.humanID)
        #expect(person?["username"] as? String == "mallory" && person?["bio"] as? String == "Coffee first")
        #expect(try v.itineraryIDs().isEmpty, "a card op made an itinerary")
        // The refusals did not stop the card: an honest edit arrives.
        let honest = try card.append(Wire.sharedPlace(name: "Miradouro Zyxqor", position: "t"))
        try t.session.send(ops: [honest], doc: card.doc)
        try await eventually("an honest edit after the lies is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID).count == 2
        }
    }
}
