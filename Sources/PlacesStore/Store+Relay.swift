import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// The blind relay's log (`Protocol/relay.md` §4): documents it keeps without their keys, ops
/// stored **unopened** (verified without a key, never materialized), and the signed records
/// that travel with them kept opaque. Served to peers in log order like any other ops
/// (`ops(of:missingFrom:after:maxBytes:)`).
extension Store {
    /// Registers a document the relay keeps for `user` (a relay user's key); nothing when it
    /// is kept already.
    public func keepRelayed(_ doc: DocumentID, for user: PublicKey, timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO relayed_doc(id, user, added_ms) VALUES (?, ?, ?)",
                arguments: [Data(doc.bytes), Data(user.bytes), timeMs])
        }
    }

    /// Whether the relay keeps `doc`.
    public func isRelayed(_ doc: DocumentID) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM relayed_doc WHERE id = ?", arguments: [Data(doc.bytes)]) ?? false
        }
    }

    /// What the relay holds: documents kept and the bytes of their ops, records and photos.
    public func relayTotals() throws(StoreError) -> (documents: Int, bytes: Int64) {
        try read { db in
            let documents = try Int.fetchOne(db, sql: "SELECT count(*) FROM relayed_doc") ?? 0
            let ops =
                try Int64.fetchOne(
                    db, sql: "SELECT coalesce(sum(length(bytes)), 0) FROM op WHERE doc IN (SELECT id FROM relayed_doc)")
                ?? 0
            let records = try Int64.fetchOne(db, sql: "SELECT coalesce(sum(length(bytes)), 0) FROM relay_record") ?? 0
            let photos =
                try Int64.fetchOne(db, sql: "SELECT coalesce(sum(bytes), 0) FROM relay_blob WHERE complete = 1") ?? 0
            return (documents, ops + records + photos)
        }
    }

    /// Verifies and stores ops of a relayed document **without opening them** (no key is
    /// held): every check of `Protocol/op-format.md` §9 that needs no key, in its order —
    /// format and bounds (1), the batch's document and that it is relayed here (2), the id and
    /// replays (3), the signature (4), the seq chain and equivocation cap (5), dependencies
    /// present, the author's chain and the Lamport time (6). Steps 7 and 8 (the body and
    /// authorization) are the members' to check. Nothing is materialized. Stops at the first
    /// op refused; the ops before it stay stored. `bodies` of the result stays empty.
    ///
    /// A separate path from `ingest`, which keeps the member's path (parallel verification and
    /// opening, materialization in the same write) as it is.
    public func ingestUnopened(_ encodedOps: [[UInt8]], doc: DocumentID) throws(StoreError) -> IngestResult {
        try write { db in
            var result = IngestResult()
            guard
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM relayed_doc WHERE id = ?"), arguments: [Data(doc.bytes)])
                    == true
            else {
                if let first = encodedOps.first { result.rejected = (Array(first.prefix(64)), .unknownDocument) }
                return result
            }
            let batch = OpBatch()
            for bytes in encodedOps {
                do {
                    switch try ingestUnopenedOne(db, bytes, doc: doc, batch: batch) {
                    case .stored(let op, let equivocating):
                        result.stored.append(op)
                        if equivocating { result.equivocations += 1 }
                    case .duplicate: result.duplicates += 1
                    }
                } catch let rejection as Rejection {
                    result.rejected = (Array(bytes.prefix(64)), rejection)
                    break
                }
            }
            try batch.writeHeads(db)
            // What the relay keeps of this document, for its user's quota (relay.md §5).
            let added = result.stored.reduce(Int64(0)) { $0 &+ Int64($1.encoded.count) }
            if added > 0 {
                try db.execute(
                    sql: "UPDATE relayed_doc SET bytes = bytes + ? WHERE id = ?", arguments: [added, Data(doc.bytes)])
            }
            return result
        }
    }

    private enum UnopenedOutcome {
        case stored(SignedOp, equivocating: Bool)
        case duplicate
    }

    private func ingestUnopenedOne(_ db: Database, _ bytes: [UInt8], doc: DocumentID, batch: OpBatch) throws
        -> UnopenedOutcome
    {
        let op: SignedOp
        do throws(OpFormatError) { op = try SignedOp(decoding: bytes) } catch {
            throw Rejection.malformed(error.message)
        }
        let header = op.header
        guard header.doc == doc else { throw Rejection.wrongDocument }
        let id = Blake2b.hash256(op.signedBytes)
        if batch.stored(id) != nil { return .duplicate }
        let held = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM op WHERE id = ?"), arguments: [Data(id)])
        if held == true { return .duplicate }
        // Verified ahead by the sync transport (`VerifiedOps`), or here.
        if !VerifiedOps.shared.take(id: id, signature: op.signature) {
            guard let author = try? PublicKey(bytes: header.author),
                let signature = try? Signature(bytes: op.signature),
                SignatureVerifier.shared.verify(signature, by: author, for: op.signedBytes)
            else { throw Rejection.badSignature }
        }
        let (vector, equivocating) = try checkChain(db, header, batch: batch)
        try insertOp(db, op, id: id, vector: vector, batch: batch)
        if equivocating {
            // Every op at an equivocated seq is marked, as on a member: a round from the start
            // carries them all, so a peer holding one branch receives the other.
            try db.execute(
                sql: "UPDATE op SET conflict = 1 WHERE doc = ? AND author = ? AND seq = ?",
                arguments: [Data(doc.bytes), Data(header.author), Int64(header.seq)])
            batch.noteEquivocation(doc, author: header.author)
        }
        return .stored(op, equivocating: equivocating)
    }

    // MARK: Opaque signed records

    /// The kinds of signed records a relay keeps with a document without reading them.
    public enum RelayRecordKind: String, Sendable {
        case grant, certificate, revocation
    }

    /// Keeps a key grant of a relayed document as an opaque record when its signature holds
    /// (the sealed key is never opened: the relay holds no key it is sealed to). Returns
    /// whether it was new.
    @discardableResult
    public func keepOpaque(_ grant: KeyGrant, timeMs: Int64) throws(StoreError) -> Bool {
        guard grant.isValid, grant.member.count == 32, grant.sealedKey.count <= 256 else { return false }
        var bytes = KeyGrant.signedBytes(
            doc: grant.doc, epoch: grant.epoch, member: grant.member, sealedKey: grant.sealedKey)
        bytes += grant.issuer + grant.signature
        return try keepRecord(.grant, doc: grant.doc, signature: grant.signature, bytes: bytes, timeMs: timeMs)
    }

    /// Keeps a device certificate or revocation (already decoded, so its signature held) that
    /// travels with a relayed document.
    @discardableResult
    public func keepOpaque(
        _ kind: RelayRecordKind, doc: DocumentID, encoded: [UInt8], signature: [UInt8], timeMs: Int64
    )
        throws(StoreError) -> Bool
    {
        try keepRecord(kind, doc: doc, signature: signature, bytes: encoded, timeMs: timeMs)
    }

    private func keepRecord(_ kind: RelayRecordKind, doc: DocumentID, signature: [UInt8], bytes: [UInt8], timeMs: Int64)
        throws(StoreError) -> Bool
    {
        try write { db in
            guard
                let user = try Data.fetchOne(
                    db, sql: "SELECT user FROM relayed_doc WHERE id = ?", arguments: [Data(doc.bytes)])
            else { return false }
            // A record counts against the quota of the document's user like its ops (relay.md
            // §5): past it, it is not kept. (A document's owner could sign grants without end.)
            let used =
                try Int64.fetchOne(
                    db, sql: "SELECT coalesce(sum(bytes), 0) FROM relayed_doc WHERE user = ?", arguments: [user]) ?? 0
            let quota =
                try Int64.fetchOne(db, sql: "SELECT quota_bytes FROM relay_user WHERE key = ?", arguments: [user]) ?? 0
            guard used <= quota, Int64(bytes.count) <= quota - used else { return false }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO relay_record(signature, doc, kind, bytes, received_ms) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [Data(signature), Data(doc.bytes), kind.rawValue, Data(bytes), timeMs])
            guard db.changesCount > 0 else { return false }
            try db.execute(
                sql: "UPDATE relayed_doc SET bytes = bytes + ? WHERE id = ?",
                arguments: [Int64(bytes.count), Data(doc.bytes)])
            return true
        }
    }

    /// The opaque records kept with `doc`, oldest first.
    public func opaqueRecords(of doc: DocumentID) throws(StoreError) -> [(kind: RelayRecordKind, bytes: [UInt8])] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT kind, bytes FROM relay_record WHERE doc = ? ORDER BY received_ms, signature",
                arguments: [Data(doc.bytes)]
            ).compactMap { row in
                guard let kind = RelayRecordKind(rawValue: row["kind"]) else { return nil }
                return (kind, [UInt8](row["bytes"] as Data))
            }
        }
    }
}
