import Foundation
import PlacesAccess
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// A relay's store: no document key, documents registered as relayed.
struct RelayFixture {
    let dir: URL
    let store: Store
    let user: SigningKeyPair

    init(keeping docs: [DocumentID], quotaBytes: Int64 = 1 << 30) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-relay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        store = try Store(path: dir.appendingPathComponent("places.sqlite").path)
        user = try SigningKeyPair()
        // The documents' user is a user of the relay, with its quota.
        let link = SecureRandom.bytes(16)
        try store.addRelayInvitation(id: link, expiresMs: 10)
        _ = try store.redeemRelayInvitation(id: link, by: user.publicKey, nowMs: 1, quotaBytes: quotaBytes)
        for doc in docs { try store.keepRelayed(doc, for: user.publicKey, timeMs: 1) }
    }
}

// The relay's path (`Protocol/relay.md` §4, op-format §9 steps 1–6): ops verified and stored
// without a key, never opened nor materialized, served back in log order.
@Suite("Store: a relay stores ops unopened")
struct UnopenedIngestTests {
    /// Three ops by the owner and one by an editor, as a member's store holds them.
    static func history(_ f: Fixture) throws -> (ops: [SignedOp], editor: SigningKeyPair) {
        let editor = try SigningKeyPair()
        var ops = [try ownerWrite(f, Edits.itinerary(f), timeMs: 1)]
        ops.append(try ownerWrite(f, Edits.add(editor.publicKey.hex, as: "editor"), timeMs: 2))
        ops.append(try ownerWrite(f, Edits.addStop(sid("a"), name: "A"), timeMs: 3))
        let own = try forge(
            f, by: editor, seq: 1, lamport: 4, deps: [opID(ops[2])], body: body(Edits.addStop(sid("b"), name: "B")))
        #expect(try f.store.ingest([own.encoded], doc: f.doc, keyring: f.keyring).stored.count == 1)
        ops.append(own)
        return (ops, editor)
    }

    @Test("a member's log is stored unopened, nothing materialized, and served back byte for byte in log order")
    func storesAndServes() throws {
        let f = try Fixture()
        let (ops, _) = try Self.history(f)
        let relay = try RelayFixture(keeping: [f.doc])
        let result = try relay.store.ingestUnopened(ops.map(\.encoded), doc: f.doc)
        #expect(result.stored.count == 4 && result.rejected == nil && result.bodies.isEmpty)
        // Replays are skipped, not errors.
        let again = try relay.store.ingestUnopened(ops.map(\.encoded), doc: f.doc)
        #expect(again.stored.isEmpty && again.duplicates == 4 && again.rejected == nil)
        let out = try relay.store.ops(of: f.doc, missingFrom: VersionVector())
        #expect(out.ops == ops.map(\.encoded))
        #expect(try relay.store.versionVector(of: f.doc) == (try f.store.versionVector(of: f.doc)))
        let materialized = try relay.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entity") }
        #expect(materialized == 0)
        // A member that lacks the ops takes them from the relay as from any peer.
        let member = try RelayFixture(keeping: [])
        try member.store.registerDocument(f.doc, kind: .itinerary, owner: f.identity.publicKey.bytes, timeMs: 1)
        let taken = try member.store.ingest(out.ops, doc: f.doc, keyring: f.keyring)
        #expect(taken.stored.count == 4 && taken.rejected == nil)
        #expect(try relay.store.relayTotals().documents == 1)
        #expect(try relay.store.relayTotals().bytes == Int64(ops.map(\.encoded.count).reduce(0, +)))
    }

    @Test("bad signature, wrong or unknown document, gaps, missing dependencies and wrong Lamport times are refused")
    func hostile() throws {
        let f = try Fixture()
        let (ops, editor) = try Self.history(f)
        let relay = try RelayFixture(keeping: [f.doc])
        let stranger = try SigningKeyPair()
        // Not a relayed document: nothing is stored at all.
        let other = DocumentID(bytes: SecureRandom.bytes(16))!
        #expect(try relay.store.ingestUnopened([ops[0].encoded], doc: other).rejected?.reason == .unknownDocument)
        // Another document's batch.
        #expect(try relay.store.ingestUnopened([ops[0].encoded], doc: other).stored.isEmpty)
        try relay.store.keepRelayed(other, for: relay.user.publicKey, timeMs: 1)
        #expect(try relay.store.ingestUnopened([ops[0].encoded], doc: other).rejected?.reason == .wrongDocument)
        // Malformed bytes.
        #expect(
            try relay.store.ingestUnopened([Array(ops[0].encoded.dropLast())], doc: f.doc).rejected.map {
                if case .malformed = $0.reason { true } else { false }
            } == true)
        // A flipped byte in the ciphertext: the signature fails.
        var flipped = ops[0].encoded
        flipped[flipped.count - 70] ^= 1
        #expect(try relay.store.ingestUnopened([flipped], doc: f.doc).rejected?.reason == .badSignature)
        // The editor's op before the owner's it depends on.
        #expect(try relay.store.ingestUnopened([ops[3].encoded], doc: f.doc).rejected?.reason == .missingDependency)
        // A seq gap: the owner's second op first.
        #expect(
            try relay.store.ingestUnopened([ops[1].encoded], doc: f.doc).rejected?.reason
                == .sequenceGap(expected: 1, got: 2))
        let first = try relay.store.ingestUnopened([ops[0].encoded], doc: f.doc)
        #expect(first.stored.count == 1)
        // A Lamport time that is not one above the deps'.
        let lying = try forge(f, by: stranger, seq: 1, lamport: 7, deps: [opID(ops[0])], body: body([]))
        #expect(
            try relay.store.ingestUnopened([lying.encoded], doc: f.doc).rejected?.reason
                == .wrongLamport(expected: 2, got: 7))
        // Refusals stored nothing; the rest of the log still goes in, in order.
        #expect(try relay.store.opCount() == 1)
        let rest = try relay.store.ingestUnopened(ops[1...].map(\.encoded), doc: f.doc)
        #expect(rest.stored.count == 3 && rest.rejected == nil)
        _ = editor
    }

    @Test("an equivocation is kept and marked (both branches served), up to the cap")
    func equivocation() throws {
        let f = try Fixture()
        let (ops, editor) = try Self.history(f)
        let relay = try RelayFixture(keeping: [f.doc])
        #expect(try relay.store.ingestUnopened(ops.map(\.encoded), doc: f.doc).stored.count == 4)
        var stored = 0
        for i in 0..<(Store.maxConflictingOps + 2) {
            let branch = try forge(
                f, by: editor, seq: 1, lamport: 4, deps: [opID(ops[2])],
                body: body(Edits.addStop(sid("x\(i)"), name: "X\(i)")))
            let result = try relay.store.ingestUnopened([branch.encoded], doc: f.doc)
            stored += result.stored.count
            if i >= Store.maxConflictingOps {
                #expect(result.rejected?.reason == .equivocation(author: editor.publicKey.hex, seq: 1))
            }
        }
        #expect(stored == Store.maxConflictingOps)
        let all = try relay.store.ops(of: f.doc, missingFrom: VersionVector())
        #expect(all.ops.count == 4 + Store.maxConflictingOps)
    }

    @Test("grants are kept as opaque records when their signature holds")
    func opaqueGrants() throws {
        let f = try Fixture()
        let relay = try RelayFixture(keeping: [f.doc])
        let member = try SigningKeyPair()
        let grant = try KeyGrant.issue(
            key: f.keyring.key(f.doc, epoch: 0)!, doc: f.doc, epoch: 0, to: member.publicKey, by: f.identity)
        #expect(try relay.store.keepOpaque(grant, timeMs: 5))
        #expect(try !relay.store.keepOpaque(grant, timeMs: 6))
        var forged = grant
        forged.epoch = 1
        #expect(try !relay.store.keepOpaque(forged, timeMs: 7))
        #expect(try relay.store.opaqueRecords(of: f.doc).count == 1)
    }

    @Test("grants count against the quota of the document's user: past it, none is kept")
    func opaqueGrantsWithinQuota() throws {
        let f = try Fixture()
        let relay = try RelayFixture(keeping: [f.doc], quotaBytes: 600)
        var kept = 0
        for _ in 0..<4 {
            let grant = try KeyGrant.issue(
                key: f.keyring.key(f.doc, epoch: 0)!, doc: f.doc, epoch: 0, to: try SigningKeyPair().publicKey,
                by: f.identity)
            if try relay.store.keepOpaque(grant, timeMs: 5) { kept += 1 }
        }
        let records = try relay.store.opaqueRecords(of: f.doc)
        let used = try relay.store.relayUsage(of: relay.user.publicKey).bytes
        #expect(kept >= 1 && kept < 4 && records.count == kept, "\(kept) kept")
        #expect(used == Int64(records.reduce(0) { $0 + $1.bytes.count }) && used <= 600, "\(used)")
    }
}
