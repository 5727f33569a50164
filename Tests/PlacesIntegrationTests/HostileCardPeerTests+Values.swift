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

    @Test("10,001 shared places: the card holds at most 10,000, counted once, and the daemon keeps answering")
    func tenThousandAndOne() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        var card = try CardDraft(author: m)
        try card.append(Wire.cardRoot(card.doc, name: "Mallory", username: "mallory"))
        // 10 ops of 1,000 places (an op is at most 1 MiB), every one of them Lisbon.
        let positions = FractionalIndex.spread(10_001)
        for n in 0..<10 {
            var changes = [String]()
            for i in 0..<1_000 {
                changes += Wire.sharedPlace(
                    name: "Zyxqor \(n * 1_000 + i)", gazetteerID: Wire.string(Self.lisbon),
                    position: positions[n * 1_000 + i])
            }
            try card.append(changes)
        }
        try card.append(
            Wire.sharedPlace(
                name: Self.planted("10001"), gazetteerID: Wire.string(Self.lisbon), position: positions[10_000]))
        _ = try t.deliver(card, seconds: 2)
        try await eventually("the 10,000 places are shown", timeout: .seconds(60)) {
            v.sharedFavoriteNames(m.humanID).count >= 10_000
        }
        guard v.serving("10,001 shared places") else { return }
        let started = ContinuousClock.now
        let names = v.sharedFavoriteNames(m.humanID)
        let elapsed = ContinuousClock.now - started
        #expect(names.count == 10_000, "the card shows \(names.count) places")
        #expect(!names.contains(Self.planted("10001")), "the 10,001st place is shown")
        #expect(elapsed < .seconds(5), "GET /v1/contacts/{id} took \(elapsed)")
        #expect((v.contactEntry(m.humanID)?["sharedFavorites"] as? Int ?? 0) <= 10_000)
        // 10,000 places from one person are one person.
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
        #expect(v.discoverIDs(Self.planted("10001")).filter { $0.hasPrefix("place:") }.isEmpty)
        #expect(try v.d.send("GET", "/v1/discover?q=zyxqor&limit=100").status == 200)
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
            _ = try t.session.drain(for: 0.3)
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
