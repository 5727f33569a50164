import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// The victim's own card seen from outside (who gets it, with what), the `Hello` features'
/// bounds, grants that lie, and an itinerary's id reused for a card (`Protocol/sync.md`
/// §7.2).
extension HostileCardPeerTests {
    /// The decrypted bodies of a card's ops, joined.
    static func plaintext(_ card: DocumentMirror) -> String {
        card.ops.compactMap { card.body(of: $0) }.joined(separator: "\n")
    }

    @Test("the victim's card reaches only contacts taking part in cards, with only what is shared")
    func cardReachesOnlyItsAudience() async throws {
        let v = try SyncNode("Vera")
        func place(_ name: String, favorite: Bool) throws -> String {
            let p = try v.d.call(
                Place.self, "POST", "/v1/places", json: #"{"name":"\#(name)","latitude":38.7,"longitude":-9.1}"#)
            if favorite {
                let r = try v.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(p.id)"}"#)
                guard (200..<300).contains(r.status) else { throw HarnessError("favorite: \(r.status) \(r.text)") }
            }
            return p.id
        }
        let shared = try place("Zyxqor Shared", favorite: true)
        _ = try place("Zyxqor Unshared", favorite: true)
        _ = try place("Zyxqor Not Favorite", favorite: false)
        let sharing = try v.d.send(
            "PUT", "/v1/favorites/sharing", json: #"{"sharing":"selected","placeIds":["\#(shared)"]}"#)
        try #require(sharing.status == 200, "PUT /v1/favorites/sharing: \(sharing.status) \(sharing.text)")

        let mallory = try AdversarialPeer(), ana = try AdversarialPeer(), sam = try AdversarialPeer()
        try v.accept(mallory.humanID)
        try v.accept(ana.humanID)
        let vKey = try HumanID.decode(v.id).bytes
        let ms = try mallory.connectForCards(to: v.address)
        #expect(ms.remoteHello?.features.contains("card/1") == true, "the daemon does not say it takes part in cards")
        let fetched = try #require(try ms.fetchCard(), "a contact taking part in cards got no card")
        #expect([UInt8](fetched.offer.owner) == vKey)
        #expect(
            fetched.offer.grants.map { [UInt8]($0.member) } == [mallory.key],
            "the card's offer carries grants to others than its receiver: \(fetched.offer.grants.count)")
        let text = Self.plaintext(fetched.card)
        #expect(text.contains("Zyxqor Shared"), "the shared favorite is not on the card")
        #expect(!text.contains("Zyxqor Unshared"), "a favorite not selected for sharing is on the card")
        #expect(!text.contains("Zyxqor Not Favorite"), "a library place that is no favorite is on the card")

        // A contact whose daemon does not take part in cards, and a stranger who does, get
        // nothing of it.
        let anaSession = try ana.connect(to: v.address)
        let samSession = try sam.connectForCards(to: v.address, name: "Sam")
        let toAna = try anaSession.drain(for: 1.5), toSam = try samSession.drain(for: 0.5)
        #expect(PeerSession.about(fetched.card.doc, in: toAna).isEmpty, "a contact without card/1 got the card")
        #expect(PeerSession.about(fetched.card.doc, in: toSam).isEmpty, "a stranger got the card")

        // Sharing off: later favorites never reach the card.
        var card = fetched.card
        let off = try v.d.send("PUT", "/v1/favorites/sharing", json: #"{"sharing":"off"}"#)
        #expect(off.status == 200)
        _ = try place("Zyxqor Later", favorite: true)
        try ms.absorb(for: 1.5, into: &card)
        #expect(!Self.plaintext(card).contains("Zyxqor Later"), "a favorite added with sharing off reached a contact")

        // No longer a contact: no new offer or op of the card, even with everything shared.
        let removed = try v.d.send("DELETE", "/v1/contacts/\(mallory.humanID)")
        #expect(removed.status == 200)
        ms.close()
        _ = try v.d.send("PUT", "/v1/favorites/sharing", json: #"{"sharing":"all"}"#)
        let again = try mallory.connectForCards(to: v.address)
        #expect(
            PeerSession.about(card.doc, in: try again.drain(for: 1.5)).isEmpty,
            "a removed contact still gets the card")
    }

    @Test("a card of someone no longer a contact is neither shown nor counted, and is back when they are again")
    func removedContactNotShown() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        _ = try t.deliver(try Self.honestCard(m))
        try await eventually("the card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
        #expect(try v.d.send("DELETE", "/v1/contacts/\(m.humanID)").status == 200)
        try await eventually("the card is hidden", timeout: .seconds(5)) {
            v.sharedFavoriteNames(m.humanID).isEmpty && v.popularity(of: Self.lisbon, query: "lisbon") == 0
        }
        #expect(v.discoverIDs("Pastelaria Zyxqor").filter { $0.hasPrefix("place:") }.isEmpty)
        try v.accept(m.humanID)
        try await eventually("the stored card is shown again", timeout: .seconds(5)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
    }

    @Test("Hello features: 17 of them or one of 33 bytes close the session; 16 unknown ones of 32 bytes do not")
    func helloFeatures() async throws {
        let v = try SyncNode("Vera")
        let m = try AdversarialPeer()
        let cases: [(what: String, features: [String], closes: Bool)] = [
            ("17 features", (0..<17).map { "x\($0)" }, true),
            ("a feature of 33 bytes", [String(repeating: "f", count: 33)], true),
            ("a feature of 33 bytes in 17 characters", [String(repeating: "é", count: 16) + "f"], true),
            ("16 unknown features of 32 bytes", (0..<16).map { String(format: "%032d", $0) }, false),
            ("card/1 twice and an empty feature", ["card/1", "card/1", ""], false),
        ]
        for c in cases {
            let session = try m.connect(to: v.address, hello: AdversarialPeer.cardHello(features: c.features))
            let closed = session.waitUntilClosed(timeout: c.closes ? 3 : 1.5)
            #expect(closed == c.closes, "\(c.what): the session \(closed ? "was closed" : "stayed open")")
            session.close()
            guard v.serving("a Hello with \(c.what)") else { return }
        }
    }

    @Test("a card offer without a valid grant from its owner to the receiver is not taken")
    func grantLies() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        let eve = try AdversarialPeer()
        let ops = v.opCount
        func card(_ label: String) throws -> CardDraft { try Self.honestCard(m, favorite: Self.planted(label)) }
        func send(_ card: CardDraft, grants: [Places_Sync_V1_KeyGrant]) throws {
            try t.session.send(
                Wire.offer(doc: card.doc, owner: m.key, kind: "card", vector: card.mirror.vector, grants: grants))
            for op in card.ops { try t.session.send(ops: [op], doc: card.doc) }
            _ = try t.session.settle()
        }
        let none = try card("no grant")
        try send(none, grants: [])
        let byEve = try card("grant by eve")
        try send(byEve, grants: [try eve.grant(byEve.key, doc: byEve.doc, to: t.victimKey)])
        let toEve = try card("grant to eve")
        try send(toEve, grants: [try m.grant(toEve.key, doc: toEve.doc, to: eve.identity.publicKey)])
        let otherDoc = try card("grant for another doc")
        let elsewhere = try DocumentID(bytes: SecureRandom.bytes(16)).orThrow("id")
        try send(otherDoc, grants: [try m.grant(otherDoc.key, doc: elsewhere, to: t.victimKey)])
        guard v.serving("card offers with lying grants") else { return }
        #expect(v.opCount == ops, "a card offered without a valid grant was stored")
        let labels = ["no grant", "grant by eve", "grant to eve", "grant for another doc"]
        Self.expectNothingPlanted(v, person: m.humanID, names: labels.map(Self.planted), "lying grants")

        _ = try t.deliver(try Self.honestCard(m))
        try await eventually("the card with a good grant is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
    }

    @Test("a co-member offering the victim's itinerary as their card changes nothing")
    func itineraryOfferedAsCard() async throws {
        let s = try SharedWithAdversary(role: "editor")
        let v = s.owner, m = s.mallory
        let before = try v.itineraryJSON(s.itinerary.id)
        let ops = v.opCount
        var hijack = try CardDraft(author: m, doc: s.doc)
        try hijack.append(
            Wire.cardRoot(s.doc, name: "Mallory", username: "mallory")
                + Wire.sharedPlace(name: Self.planted("hijack"), gazetteerID: Wire.string(Self.lisbon)))
        let victimKey = try HumanID.decode(v.id)
        try s.session.send(try hijack.offer(to: [victimKey]))
        for op in hijack.ops { try s.session.send(ops: [op], doc: s.doc) }
        _ = try s.session.settle()
        guard v.serving("an itinerary offered as a card") else { return }
        #expect(v.opCount == ops, "card ops in an itinerary were stored")
        #expect(try v.itineraryJSON(s.itinerary.id) == before, "the itinerary changed")
        Self.expectNothingPlanted(v, person: m.humanID, names: [Self.planted("hijack")], "an itinerary as a card")
        // The itinerary still syncs with her.
        #expect(
            try v.d.send("PATCH", "/v1/itineraries/\(s.itinerary.id)", json: #"{"notes":"still here"}"#).status == 200)
    }

    @Test("two cards of one owner offered at once on two connections: one is kept")
    func twoCardsAtOnce() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        let other = try m.connectForCards(to: v.address)
        let a = try Self.honestCard(m, favorite: Self.planted("race a"))
        let b = try Self.honestCard(m, favorite: Self.planted("race b"))
        let ops = v.opCount
        try t.session.send(try a.offer(to: [t.victimKey]))
        try other.send(try b.offer(to: [t.victimKey]))
        try t.session.send(ops: a.ops, doc: a.doc)
        try other.send(ops: b.ops, doc: b.doc)
        _ = try t.session.settle()
        _ = try other.settle()
        try await eventually("one of the cards is shown", timeout: .seconds(10)) {
            !v.sharedFavoriteNames(m.humanID).isEmpty
        }
        let shown = v.sharedFavoriteNames(m.humanID)
        #expect(shown == [Self.planted("race a")] || shown == [Self.planted("race b")], "\(shown)")
        #expect(v.opCount == ops + 1, "\(v.opCount - ops) card ops stored for one owner")
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
    }

    @Test("a card from a contact whose Hello does not say card/1 is not taken")
    func cardWithoutFeature() async throws {
        var t = try Target(.contact)
        let v = t.victim, m = t.mallory
        t.session.close()
        t.session = try m.connect(to: v.address)
        let card = try Self.honestCard(m)
        let ops = v.opCount
        _ = try t.deliver(card)
        guard v.serving("a card from a peer without card/1") else { return }
        #expect(v.opCount == ops, "a card from a peer that does not take part in cards was stored")
        Self.expectNothingPlanted(v, person: m.humanID, names: ["Pastelaria Zyxqor"], "no card/1")
        try t.reconnect()
        _ = try t.deliver(card)
        try await eventually("the card is shown once she says card/1", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
    }

    @Test("sharing 2,000 favorites at once answers 200 and a contact receives every one of them")
    func sharingManyFavorites() async throws {
        let v = try SyncNode("Vera")
        // 2,000 places with their own names and addresses of 200 characters, a hundred metres
        // apart, each hearted: more than one op of 1 MiB holds as shared places.
        let count = 2_000
        let features = (0..<count).map { i in
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(-9 + Double(i) / 1_000),38.7]},"#
                + #""properties":{"name":"Zyxqor Favorite \#(i)","address":"\#(String(repeating: "Rua ", count: 50))"}}"#
        }
        let file = #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
        let imported = try v.d.client.send(
            "POST", "/v1/places/import", body: Array(file.utf8), headers: ["Content-Type": "application/geo+json"])
        try #require((200..<300).contains(imported.status), "import: \(imported.status) \(imported.text.prefix(300))")
        let places = try v.d.call(PlaceList.self, "GET", "/v1/places").places
        try #require(places.count == count)
        for place in places {
            let r = try v.d.client.send("POST", "/v1/favorites", body: Array(#"{"placeId":"\#(place.id)"}"#.utf8))
            try #require(r.status == 201 || r.status == 200, "favorite: \(r.status) \(r.text)")
        }
        let sharing = try v.d.send("PUT", "/v1/favorites/sharing", json: #"{"sharing":"all"}"#)
        #expect(sharing.status == 200, "sharing \(count) favorites: \(sharing.status) \(sharing.text.prefix(300))")
        guard v.serving("sharing \(count) favorites"), sharing.status == 200 else { return }

        let mallory = try AdversarialPeer()
        try v.accept(mallory.humanID)
        let session = try mallory.connectForCards(to: v.address)
        let fetched = try #require(try session.fetchCard(timeout: 30), "no card was offered")
        let text = Self.plaintext(fetched.card)
        let shared = Set(
            text.components(separatedBy: "Zyxqor Favorite ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) })
        #expect(shared.count == count, "the contact received \(shared.count) of \(count) shared favorites")
    }
}
