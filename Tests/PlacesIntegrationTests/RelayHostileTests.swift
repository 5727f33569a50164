import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess
@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 30, "Bad input": hostile peers speaking the protocol to a relay — a user of the relay
/// pushing what no member would accept, forged, oversized and replayed access lists, a replayed
/// link, strangers opening many sessions, and relay messages only a relay sends. Each is refused
/// with a logged reason, nothing of it is stored, and the relay keeps carrying a good member's
/// edits (Ana's, to Bruno, who reach each other only through it) meanwhile.
@Suite("Relay: hostile peers against the relay", .serialized)
struct RelayHostileTests {
    /// An edit of Ana's reaches Bruno through the relay alone.
    static func flows(_ t: RelayTrip, _ label: String) async throws {
        let note = "\(label)-\(t.tag)"
        try t.edit(t.ana, notes: note)
        try await eventually("Ana's edit (\(label)) reaches Bruno through the relay", timeout: .seconds(30)) {
            try t.notes(t.bruno) == note
        }
    }

    static func opCount(_ relay: RelayNode) throws -> Int {
        try relay.d.call(Status.self, "GET", "/v1/status").opCount ?? -1
    }

    /// Lines of the relay's log that contain every one of `parts`.
    static func logged(_ relay: RelayNode, _ parts: String...) -> Bool {
        relay.log.split(separator: "\n").contains { line in parts.allSatisfy { line.contains($0) } }
    }

    /// Redeems `token` on `session`; the relay's answer.
    static func redeem(_ token: [UInt8], on session: PeerSession) throws -> WireMessage? {
        var message = WireMessage()
        message.relayRedeem.link = Data(token)
        try session.send(message)
        return try session.wait(timeout: 10) {
            switch $0.kind {
            case .relayRedeemed, .relayRefused: true
            default: false
            }
        }
    }

    /// An offer of `doc` (an itinerary) carrying `access`.
    static func offer(_ doc: DocumentID, owner: [UInt8], access: [UInt8]) -> WireMessage {
        var offer = Wire.offer(doc: doc, owner: owner)
        offer.offer.relayAccess = Data(access)
        return offer
    }

    /// A list signed by `owner` whose count says `count` and which carries `count` keys, in
    /// bounds or not (`RelayAccess.issue` refuses more than 512).
    static func rawList(_ doc: DocumentID, owner: SigningKeyPair, count: Int, issuedMs: Int64) throws -> [UInt8] {
        var keys = [[UInt8]]()
        for _ in 0..<count { keys.append(try SigningKeyPair().publicKey.bytes) }
        keys.sort { $0.lexicographicallyPrecedes($1) }
        var body: [UInt8] = [1] + doc.bytes + [0, 0, 0, 0]
        for shift in stride(from: 56, through: 0, by: -8) { body.append(UInt8(truncatingIfNeeded: issuedMs >> shift)) }
        body += owner.publicKey.bytes + [UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        for key in keys { body += key }
        return body + owner.sign(RelayAccess.context + body).bytes
    }

    @Test(
        "a user pushing ops with bad signatures or missing dependencies, forged, oversized or malformed lists, a replayed link and messages only a relay sends"
    )
    func hostileUser() async throws {
        let t = try await RelayTrip()
        let trip = try #require(DocumentID(hex: t.trip))
        try await Self.flows(t, "first")

        // Mallory becomes a user of the relay with a link of her own.
        let mallory = try AdversarialPeer()
        let session = try mallory.connect(to: t.relay.address)
        let link = try RelayLink(parsing: try t.relay.invite())
        #expect(try Self.redeem(link.token, on: session)?.relayRedeemed.role == "user")
        // The same link again, from her or from another key: used.
        #expect(try Self.redeem(link.token, on: session)?.relayRefused.code == "used")
        let other = try AdversarialPeer().connect(to: t.relay.address)
        #expect(try Self.redeem(link.token, on: other)?.relayRefused.code == "used")
        #expect(Self.logged(t.relay, "refused a relay link", "code=used"))

        // Her own document, kept under her list.
        let doc = try #require(DocumentID(bytes: SecureRandom.bytes(16)))
        let list = try RelayAccess.issue(
            doc: doc, epoch: 0, issuedMs: 1_000, keys: [mallory.identity.publicKey], by: mallory.identity)
        try session.send(Self.offer(doc, owner: mallory.key, access: list.encoded))
        try await eventually("the relay keeps Mallory's document") { try t.relay.summary.documents == 2 }
        let key = SecureRandom.bytes(32)
        let first = try mallory.op(doc: doc, seq: 1, lamport: 1, deps: [], key: key, body: Wire.body([]))
        try session.send(ops: [first])
        try await eventually("the relay stores Mallory's first op") {
            Self.logged(t.relay, "relayed ops stored", "doc.id=\(doc)")
        }
        let stored = try Self.opCount(t.relay)

        // A bad signature, then a dependency the relay does not hold: refused, logged, not stored.
        let good = try mallory.op(
            doc: doc, seq: 2, lamport: 2, deps: [DocumentMirror.id(first)], key: key, body: Wire.body([]))
        var signature = good.signature
        signature[5] ^= 1
        let forged = SignedOp(
            header: good.header, ciphertext: good.ciphertext, signature: signature, signedBytes: good.signedBytes)
        try session.send(ops: [forged])
        let orphan = try mallory.op(
            doc: doc, seq: 2, lamport: 2, deps: [SecureRandom.bytes(32)], key: key, body: Wire.body([]))
        try session.send(ops: [orphan])
        try await eventually("the relay logs both refusals") {
            Self.logged(t.relay, "rejected an op from a peer", "bad signature")
                && Self.logged(t.relay, "rejected an op from a peer", "a dependency is missing")
        }
        #expect(try Self.opCount(t.relay) == stored)

        // A list for Ana's trip signed by Mallory, not its owner: refused.
        let claim = try RelayAccess.issue(
            doc: trip, epoch: 99, issuedMs: Int64.max, keys: [mallory.identity.publicKey], by: mallory.identity)
        try session.send(Self.offer(trip, owner: mallory.key, access: claim.encoded))
        // Lists at and past the bound of 512 keys, and one whose count belies its length.
        var keys = Set([mallory.identity.publicKey])
        while keys.count < RelayAccess.maxKeys { keys.insert(try SigningKeyPair().publicKey) }
        let full = try RelayAccess.issue(doc: doc, epoch: 0, issuedMs: 2_000, keys: keys, by: mallory.identity)
        try session.send(Self.offer(doc, owner: mallory.key, access: full.encoded))
        let over = try Self.rawList(doc, owner: mallory.identity, count: 513, issuedMs: 3_000)
        #expect(over.count > RelayAccess.maxSize)
        try session.send(Self.offer(doc, owner: mallory.key, access: over))
        var belied = try Self.rawList(doc, owner: mallory.identity, count: 2, issuedMs: 4_000)
        belied[62] = 3
        try session.send(Self.offer(doc, owner: mallory.key, access: belied))
        // Messages only a relay sends, sent to the relay, and one past its bounds.
        var usage = WireMessage()
        usage.relayUsage.bytes = 1
        var redeemed = WireMessage()
        redeemed.relayRedeemed.role = "owner"
        var refusedTooLong = WireMessage()
        refusedTooLong.relayRefused.code = "used"
        refusedTooLong.relayRefused.reason = String(repeating: "x", count: 501)
        for message in [usage, redeemed, refusedTooLong] { try session.send(message) }
        try await eventually("the relay logs every refusal") {
            Self.logged(t.relay, "refused an access list not signed by the document's owner", "doc.id=\(trip)")
                && Self.logged(t.relay, "access list kept", "doc.id=\(doc)", "keys=512")
                && Self.logged(t.relay, "ignored an access list out of bounds", "doc.id=\(doc)")
                && Self.logged(t.relay, "refused an access list", "key count does not match")
                && Self.logged(t.relay, "ignored a relay message only a relay sends")
                && Self.logged(t.relay, "ignored a relay message out of bounds")
        }
        // Mallory's list for Ana's trip gave her nothing: her ops there are refused.
        let intrusion = try mallory.op(
            doc: trip, seq: 1, lamport: 1, deps: [], key: key, body: Wire.body([]))
        try session.send(ops: [intrusion])
        try await eventually("the relay refuses Mallory's ops in Ana's trip") {
            Self.logged(t.relay, "ignored ops from a peer that is not a member", "doc.id=\(trip)")
        }
        #expect(try Self.opCount(t.relay) == stored)
        #expect(try t.relay.summary.users == 3)
        try await Self.flows(t, "after")
    }

    @Test("an older list replayed after a newer one gives a removed key nothing back")
    func olderListReplayed() async throws {
        let t = try await RelayTrip()
        let owner = try AdversarialPeer(), removed = try AdversarialPeer()
        let ownerSession = try owner.connect(to: t.relay.address)
        #expect(try Self.redeem(try RelayLink(parsing: try t.relay.invite()).token, on: ownerSession) != nil)
        let doc = try #require(DocumentID(bytes: SecureRandom.bytes(16)))
        let both = try RelayAccess.issue(
            doc: doc, epoch: 1, issuedMs: 1_000, keys: [owner.identity.publicKey, removed.identity.publicKey],
            by: owner.identity)
        let newer = try RelayAccess.issue(
            doc: doc, epoch: 2, issuedMs: 1_000, keys: [owner.identity.publicKey], by: owner.identity)
        try ownerSession.send(Self.offer(doc, owner: owner.key, access: both.encoded))
        try ownerSession.send(Self.offer(doc, owner: owner.key, access: newer.encoded))
        try await eventually("the relay keeps the newer list") {
            Self.logged(t.relay, "access list kept", "doc.id=\(doc)", "epoch=2")
        }
        let key = SecureRandom.bytes(32)
        try ownerSession.send(ops: [try owner.op(doc: doc, seq: 1, lamport: 1, deps: [], key: key, body: Wire.body([]))]
        )
        try await eventually("the relay stores the owner's op") {
            Self.logged(t.relay, "relayed ops stored", "doc.id=\(doc)")
        }
        let stored = try Self.opCount(t.relay)
        // The removed key replays the older list it held, asks for the document and pushes.
        let session = try removed.connect(to: t.relay.address)
        try session.send(Self.offer(doc, owner: owner.key, access: both.encoded))
        try session.send(ops: [try removed.op(doc: doc, seq: 1, lamport: 1, deps: [], key: key, body: Wire.body([]))])
        let answers = try session.drain(for: 2)
        #expect(
            !answers.contains {
                switch $0.kind {
                case .ops, .offer: true
                default: false
                }
            }, "\(answers.map(\.kind))")
        #expect(try Self.opCount(t.relay) == stored)
        try await eventually("the relay logs the stale list and the refused ops") {
            Self.logged(t.relay, "ignored an access list older than the one held", "doc.id=\(doc)")
                && Self.logged(t.relay, "ignored ops from a peer that is not a member", "doc.id=\(doc)")
        }
        try await Self.flows(t, "after")
    }

    @Test("strangers opening many sessions and sending offers get nothing; members are served meanwhile")
    func strangers() async throws {
        let t = try await RelayTrip()
        let trip = try #require(DocumentID(hex: t.trip))
        let opsBefore = try Self.opCount(t.relay)
        var sessions = [PeerSession]()
        var refused = 0
        // From another loopback address, as another host: its own connection budget.
        for _ in 0..<24 {
            do {
                let stranger = try AdversarialPeer()
                let session = try stranger.connect(to: t.relay.address, sourceAddress: "127.0.0.2")
                try session.send(Wire.offer(doc: trip, owner: stranger.key))
                try session.send(Wire.offer(doc: DocumentID(bytes: SecureRandom.bytes(16))!, owner: stranger.key))
                try session.send(ops: [
                    try stranger.op(doc: trip, seq: 1, lamport: 1, deps: [], key: SecureRandom.bytes(32), body: [])
                ])
                sessions.append(session)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0 && sessions.count <= 16, "\(sessions.count) sessions, \(refused) refused")
        #expect(Self.logged(t.relay, "refused a peer connection: no connection slot free"))
        try await Self.flows(t, "during")
        for session in sessions {
            let answers = try session.drain(for: 0.1)
            #expect(
                !answers.contains {
                    switch $0.kind {
                    case .ops, .offer: true
                    default: false
                    }
                })
        }
        // Strangers are closed after the grace (10 s); the relay says why.
        try await eventually("the relay closed the strangers' sessions", timeout: .seconds(30)) {
            sessions.allSatisfy { $0.waitUntilClosed(timeout: 0.05) }
        }
        #expect(Self.logged(t.relay, "peer session closed", "stranger"))
        #expect(Self.logged(t.relay, "ignored ops from a peer that is not a member", "doc.id=\(trip)"))
        // Nothing but Ana's edit was stored meanwhile.
        #expect(try Self.opCount(t.relay) > opsBefore)
        #expect(try t.relay.summary.users == 2 && t.relay.summary.documents == 1)
    }
}
