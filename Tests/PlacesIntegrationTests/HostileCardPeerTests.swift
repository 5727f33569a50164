import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 15's contact cards against the issue #11 adversary (`AdversarialPeer`, written from
/// `Protocol/`), on real daemons over loopback with discovery off. The contract
/// (`Protocol/sync.md` §7 "Document kinds"): a card travels only from its owner to the owner's
/// audience, directly, never relayed; a receiver accepts one only from its owner, when the
/// owner is its contact or co-member, one card per owner, with at most 10,000 shared places,
/// and every value obeys the card's field rules. After each attack the daemon keeps serving,
/// and neither `GET /v1/contacts/{id}` nor discover's popularity shows anything planted.
///
/// Every test also delivers an honest card and checks that it is shown: a daemon that ignores
/// cards altogether does not pass.
@Suite("Hostile card peers (issue 15)", .serialized)
struct HostileCardPeerTests {
    /// Lisbon's gazetteer id: the honest cards share a favorite made from it, so Lisbon's
    /// popularity says how many people's cards the daemon counts.
    static let lisbon = "city:2267057"

    /// A name no gazetteer entry matches, to find planted places in discover.
    static func planted(_ label: String) -> String { "Zyxqor \(label)" }

    /// A victim daemon and the adversary connected to it with `card/1`.
    struct Target {
        let victim: SyncNode
        let mallory: AdversarialPeer
        var session: PeerSession
        let victimKey: PublicKey

        enum Relation { case stranger, contact, coMember }

        init(_ relation: Relation, mallory: AdversarialPeer? = nil) throws {
            victim = try SyncNode("Vera")
            self.mallory = try mallory ?? AdversarialPeer()
            victimKey = try HumanID.decode(victim.id)
            switch relation {
            case .stranger: break
            case .contact: try victim.accept(self.mallory.humanID)
            case .coMember:
                let trip = try victim.d.call(
                    Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto weekend"}"#)
                try victim.share(trip.id, with: self.mallory.humanID, role: "viewer")
            }
            session = try self.mallory.connectForCards(to: victim.address)
        }

        /// Offers `card` and sends its ops; answers what the victim sent back until it had
        /// handled them all (a Ping's Pong, `PeerSession.settle`), then for `seconds` more.
        func deliver(
            _ card: CardDraft, kind: String = "card", owner: [UInt8]? = nil, grantor: AdversarialPeer? = nil,
            from session: PeerSession? = nil, seconds: Double = 0
        ) throws -> [WireMessage] {
            let session = session ?? self.session
            try session.send(try card.offer(to: [victimKey], owner: owner, kind: kind, grantor: grantor))
            // The ops follow the receiver's answer to the offer, as an honest owner's do, or
            // its having handled the offer without one.
            let seen = try session.settle().filter {
                if case .offer(let o)? = $0.kind { !(o.doc == Data(card.doc.bytes) && o.reply) } else { true }
            }
            for op in card.ops { try session.send(ops: [op], doc: card.doc) }
            // A card of 10,000 places takes a debug daemon a while on a busy machine.
            return try seen + session.settle(timeout: 120) + (seconds > 0 ? session.drain(for: seconds) : [])
        }

        /// Reconnects the adversary (after the victim's view of her changed).
        mutating func reconnect() throws {
            session.close()
            session = try mallory.connectForCards(to: victim.address)
        }
    }

    /// Mallory's honest card: her profile and one favorite made from Lisbon.
    static func honestCard(_ mallory: AdversarialPeer, favorite: String = "Pastelaria Zyxqor") throws -> CardDraft {
        var card = try CardDraft(author: mallory)
        try card.append(
            Wire.cardRoot(card.doc, name: "Mallory", username: "mallory", bio: "Coffee first")
                + Wire.sharedPlace(name: favorite, gazetteerID: Wire.string(lisbon)))
        return card
    }

    /// What the victim shows of `person`: nothing of `names`, and Lisbon's popularity `lisbon`.
    static func expectNothingPlanted(
        _ v: SyncNode, person: String, names: [String], lisbonPopularity: Int = 0, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let shown = v.sharedFavoriteNames(person)
        for name in names where shown.contains(name) {
            Issue.record(
                "\(context): \(person.prefix(12))… shows the planted '\(name)'", sourceLocation: sourceLocation)
        }
        let popularity = v.popularity(of: lisbon, query: "lisbon")
        #expect(
            popularity == lisbonPopularity, "\(context): Lisbon's popularity is \(popularity.map(String.init) ?? "?")",
            sourceLocation: sourceLocation)
        for name in names {
            let planted = v.discoverIDs(name).filter { $0.hasPrefix("place:") && $0.contains(".") }
            #expect(planted.isEmpty, "\(context): discover finds \(planted)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Who may send a card

    @Test("a stranger's card is not stored, not an invitation, and counts for nothing; once a contact, it is shown")
    func strangerCard() async throws {
        var t = try Target(.stranger)
        let v = t.victim, m = t.mallory
        let card = try Self.honestCard(m, favorite: Self.planted("stranger"))
        let ops = v.opCount
        let answer = try t.deliver(card, seconds: 1)
        guard v.serving("a stranger's card") else { return }
        #expect(v.opCount == ops, "the victim stored a stranger's card ops")
        #expect(
            !answer.contains { if case .offer? = $0.kind { true } else { false } },
            "the victim offered a document to a stranger")
        let person = v.person(m.humanID)
        #expect(person == nil || v.sharedFavoriteNames(m.humanID).isEmpty, "a stranger has a profile: \(person ?? [:])")
        #expect((v.invitations() ?? []).filter { $0["from"] as? String == m.humanID }.isEmpty)
        Self.expectNothingPlanted(v, person: m.humanID, names: [Self.planted("stranger")], "a stranger's card")

        // The same card once the victim accepts her as a contact.
        try v.accept(m.humanID)
        try t.reconnect()
        _ = try t.deliver(card)
        try await eventually("the contact's card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == [Self.planted("stranger")]
        }
        #expect(v.person(m.humanID)?["username"] as? String == "mallory")
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
        #expect(v.contactEntry(m.humanID)?["sharedFavorites"] as? Int == 1)
    }

    @Test("a co-member's card is shown, and counted once")
    func coMemberCard() async throws {
        let t = try Target(.coMember)
        let v = t.victim, m = t.mallory
        _ = try t.deliver(try Self.honestCard(m))
        try await eventually("the co-member's card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
    }

    @Test("a contact's card offered by someone else than its owner is refused, relayed or forged")
    func nonOwnerCard() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        let ana = try AdversarialPeer()
        try v.accept(ana.humanID)
        let anaCard = try Self.honestCard(ana, favorite: "Cervejaria Zyxqor")
        let ops = v.opCount

        // Ana's genuine card (her ops, her grant) relayed by Mallory.
        _ = try t.deliver(anaCard, grantor: ana)
        // A card Mallory wrote naming Ana as its owner.
        var forged = try CardDraft(author: m)
        try forged.append(
            Wire.cardRoot(forged.doc, name: "Ana", username: "ana", bio: "Send money to Mallory")
                + Wire.sharedPlace(name: Self.planted("forged"), gazetteerID: Wire.string(Self.lisbon)))
        _ = try t.deliver(forged, owner: ana.key)
        guard v.serving("cards offered by a non-owner") else { return }
        #expect(v.opCount == ops, "the victim stored a card from someone else than its owner")
        #expect(v.person(ana.humanID)?["bio"] as? String != "Send money to Mallory")
        Self.expectNothingPlanted(
            v, person: ana.humanID, names: ["Cervejaria Zyxqor", Self.planted("forged")], "a relayed or forged card")
        Self.expectNothingPlanted(v, person: m.humanID, names: [Self.planted("forged")], "a forged card")

        // Ana's own delivery of the same card is shown.
        let anaSession = try ana.connectForCards(to: v.address, name: "Ana")
        _ = try t.deliver(anaCard, from: anaSession)
        try await eventually("Ana's own card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(ana.humanID) == ["Cervejaria Zyxqor"]
        }
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
        // Cards are never relayed: Mallory, a contact taking part in cards, gets no offer and
        // no op of Ana's card.
        let mallorySession = try m.connectForCards(to: v.address)
        let seen = try mallorySession.drain(for: 1.5)
        for message in seen {
            switch message.kind {
            case .offer(let o) where o.doc == Data(anaCard.doc.bytes):
                Issue.record("the victim relayed Ana's card offer to Mallory")
            case .ops(let b) where b.doc == Data(anaCard.doc.bytes):
                Issue.record("the victim relayed Ana's card ops to Mallory")
            default: break
            }
        }
    }

    @Test("a second card from one owner is refused, and the first keeps syncing")
    func secondCard() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        var first = try Self.honestCard(m)
        _ = try t.deliver(first)
        try await eventually("the first card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
        let ops = v.opCount
        // Another document id than the owner's card id (sync.md §7.2).
        var second = try CardDraft(author: m, doc: DocumentID(bytes: SecureRandom.bytes(16)).orThrow("id"))
        try second.append(
            Wire.cardRoot(second.doc, name: "Mallory II", username: "mallory2", bio: "The real one")
                + Wire.sharedPlace(name: Self.planted("second"), gazetteerID: Wire.string("city:2988507")))
        _ = try t.deliver(second)
        guard v.serving("a second card") else { return }
        #expect(v.opCount == ops, "the victim stored a second card of one owner")
        #expect(v.person(m.humanID)?["username"] as? String == "mallory")
        Self.expectNothingPlanted(
            v, person: m.humanID, names: [Self.planted("second")], lisbonPopularity: 1, "a second card")
        #expect(v.popularity(of: "city:2988507", query: "paris") == 0, "the second card's Paris counts")
        #expect(v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"])

        // The first card's next op still arrives.
        let next = try first.append(Wire.sharedPlace(name: "Miradouro Zyxqor", position: "t"))
        try t.session.send(ops: [next], doc: first.doc)
        try await eventually("the first card's edit is shown", timeout: .seconds(10)) {
            Set(v.sharedFavoriteNames(m.humanID)) == ["Pastelaria Zyxqor", "Miradouro Zyxqor"]
        }
    }

    @Test("a card op by someone else than its owner is refused, sent by them or by the owner")
    func nonOwnerOp() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        let card = try Self.honestCard(m)
        _ = try t.deliver(card)
        try await eventually("the card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(m.humanID) == ["Pastelaria Zyxqor"]
        }
        // Eve, a contact of the victim too, knows the card's key (Mallory gave it to her).
        let eve = try AdversarialPeer()
        try v.accept(eve.humanID)
        let eveSession = try eve.connectForCards(to: v.address, name: "Eve")
        let ops = v.opCount
        var copy = card
        let eveOp = try copy.append(
            Wire.sharedPlace(name: Self.planted("eve"), gazetteerID: Wire.string(Self.lisbon), position: "u")
                + [Wire.set(card.doc.hex, kind: "card", field: "bio", value: Wire.string("Eve was here"))],
            signer: eve)
        try eveSession.send(card.offer(to: [t.victimKey], owner: m.key, grantor: eve))
        try eveSession.send(ops: [eveOp], doc: card.doc)
        _ = try eveSession.settle()
        try t.session.send(ops: [eveOp], doc: card.doc)
        _ = try t.session.settle()
        guard v.serving("a card op by a non-owner") else { return }
        #expect(v.opCount == ops, "the victim stored Eve's op in Mallory's card")
        #expect(v.person(m.humanID)?["bio"] as? String == "Coffee first")
        Self.expectNothingPlanted(v, person: m.humanID, names: [Self.planted("eve")], lisbonPopularity: 1, "Eve's op")
        #expect(v.sharedFavoriteNames(eve.humanID).isEmpty)
    }

    // MARK: Kinds

    @Test("a card offered as an itinerary, an itinerary offered as a card, and an unknown kind plant nothing")
    func kindLies() async throws {
        let t = try Target(.contact)
        let v = t.victim, m = t.mallory
        let itineraries = try v.itineraryIDs()
        let ops = v.opCount

        // Card ops under kind "itinerary" (a contact's itinerary share is taken directly).
        let disguised = try Self.honestCard(m, favorite: Self.planted("disguised"))
        _ = try t.deliver(disguised, kind: "itinerary")
        // Itinerary ops under kind "card".
        var trip = try CardDraft(author: m)
        let tripID = trip.doc.hex
        try trip.append([
            Wire.create(tripID, kind: "itinerary"),
            Wire.set(tripID, kind: "itinerary", field: "name", value: Wire.string(Self.planted("trip"))),
        ])
        _ = try t.deliver(trip, kind: "card")
        // A kind this version does not know.
        let future = try Self.honestCard(m, favorite: Self.planted("future"))
        _ = try t.deliver(future, kind: "card/2")
        guard v.serving("offers whose kind lies") else { return }
        #expect(v.opCount == ops, "ops under a lying or unknown kind were stored")
        #expect(try v.itineraryIDs() == itineraries, "the victim lists an itinerary that a lying kind planted")
        for doc in [disguised.doc, trip.doc, future.doc] {
            #expect(try v.d.send("GET", "/v1/itineraries/\(doc.hex)").status == 404)
        }
        #expect((v.invitations() ?? []).filter { $0["from"] as? String == m.humanID }.isEmpty)
        Self.expectNothingPlanted(
            v, person: m.humanID,
            names: [Self.planted("disguised"), Self.planted("trip"), Self.planted("future")], "lying kinds")
        #expect(v.person(m.humanID)?["name"] as? String != Self.planted("trip"))

        // Mallory poisoned her own card (a person has one card id, sync.md §7.2, and her chain
        // now starts with a refused op): that costs only her. Eve, another contact, is served.
        let eve = try AdversarialPeer()
        try v.accept(eve.humanID)
        let eveSession = try eve.connectForCards(to: v.address, name: "Eve")
        _ = try t.deliver(try Self.honestCard(eve), from: eveSession)
        try await eventually("an honest card is shown", timeout: .seconds(10)) {
            v.sharedFavoriteNames(eve.humanID) == ["Pastelaria Zyxqor"]
        }
        #expect(v.popularity(of: Self.lisbon, query: "lisbon") == 1)
    }
}
