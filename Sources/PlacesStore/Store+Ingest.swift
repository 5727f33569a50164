import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

extension Store {
    /// Why a received op was not stored. Nothing is stored for a rejected op, and the ops
    /// before it in the same batch stay stored.
    public enum Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not an op.
        case malformed(String)
        /// This daemon holds no such document.
        case unknownDocument
        /// The op names another document than the batch it came in.
        case wrongDocument
        /// The signature does not verify against the author key in the header.
        case badSignature
        /// The author's previous op (seq − 1) is missing, or not in the op's causal past: ops
        /// must arrive in order, and each author's ops form a chain.
        case sequenceGap(expected: UInt64, got: UInt64)
        /// A different op with the same author and seq is already stored and the author has
        /// already `maxConflictingOps` conflicting ops in the document: refused.
        case equivocation(author: String, seq: UInt64)
        /// A dependency is not stored yet: ops must arrive in causal order.
        case missingDependency
        /// The Lamport time is not 1 + the largest of the dependencies' (1 without deps).
        case wrongLamport(expected: UInt64, got: UInt64)
        /// A change breaks the rules of its entity kind or field (op-format §4, §5): wrong kind
        /// for the document or for the id's shape, unknown field, value out of range.
        case invalidChange(String)
        /// No key is held for the op's epoch, or the body does not open with it.
        case undecryptable
        /// The author may not write to this document at this point.
        case unauthorized(String)

        public var description: String {
            switch self {
            case .malformed(let why): "malformed op: \(why)"
            case .unknownDocument: "unknown document"
            case .wrongDocument: "the op names another document than its batch"
            case .badSignature: "bad signature"
            case .sequenceGap(let expected, let got): "sequence gap: expected seq \(expected), got \(got)"
            case .equivocation(let author, let seq): "equivocation by \(author.prefix(16)) at seq \(seq)"
            case .missingDependency: "a dependency is missing"
            case .wrongLamport(let expected, let got):
                "lamport \(got) is not 1 + the largest dependency's (\(expected))"
            case .invalidChange(let why): "invalid change: \(why)"
            case .undecryptable: "the body cannot be decrypted"
            case .unauthorized(let why): "unauthorized: \(why)"
            }
        }
    }

    /// The outcome of ingesting a batch.
    public struct IngestResult: Sendable, Equatable {
        /// Ops stored, in order (materialized unless excluded: concurrent with their
        /// author's removal).
        public var stored: [SignedOp] = []
        /// The decrypted bodies of `stored`, in the same order.
        public var bodies: [OpBody] = []
        /// Ops already held (replays), skipped.
        public var duplicates = 0
        /// How many of `stored` are excluded (concurrent with their author's removal, or not
        /// the canonical op of an equivocation).
        public var excluded = 0
        /// How many of `stored` are a second op at an author's seq (an equivocation, recorded
        /// in the document's activity as `equivocated`).
        public var equivocations = 0
        /// The first op refused and why; ingestion stops there.
        public var rejected: (op: [UInt8], reason: Rejection)? = nil

        public static func == (a: IngestResult, b: IngestResult) -> Bool {
            a.stored == b.stored && a.duplicates == b.duplicates && a.rejected?.op == b.rejected?.op
                && a.rejected?.reason == b.rejected?.reason
        }
    }

    /// Verifies and stores ops of `doc` received from another daemon, in the order given (which
    /// must be causal), each in the same transaction as its materialization. Every check of
    /// `Protocol/op-format.md` ("Receiving ops") runs before anything is written:
    /// format, signature, seq continuity and equivocation, dependencies present, Lamport
    /// monotonicity, decryption, and the caller's `authorize` rule.
    ///
    /// The checks that need only the op's bytes and the keyring (format, id, signature,
    /// decryption and body parsing) run first for the whole batch, spread over the cores;
    /// their outcomes are then consulted op by op in the order above, so an op is refused
    /// for the same reason as if each check ran in turn.
    public func ingest(
        _ encodedOps: [[UInt8]], doc: DocumentID, keyring: Keyring,
        authorize: (OpHeader, OpBody) -> String? = { _, _ in nil }
    ) throws(StoreError) -> IngestResult {
        try write { db in
            if encodedOps.count >= Store.bulkOps { try growCacheForBulk(db) }
            var result = IngestResult()
            let batch = OpBatch()
            let checked = precheck(encodedOps, doc: doc, documentKind: try batch.kind(db, doc), keyring: keyring)
            defer {
                checked.cancel()
                // Its results (every op decoded, opened and planned) are freed on another
                // core, not by the writer at the end of its transaction.
                DispatchQueue.global(qos: .utility).async { withExtendedLifetime(checked) {} }
            }
            for (i, bytes) in encodedOps.enumerated() {
                let op = checked.result(i)
                do {
                    if let (op, body, excluded, equivocating) = try ingestOne(
                        db, op, bytes: bytes, doc: doc, keyring: keyring, batch: batch, authorize: authorize)
                    {
                        result.stored.append(op)
                        result.bodies.append(body)
                        if excluded { result.excluded += 1 }
                        if equivocating { result.equivocations += 1 }
                    } else {
                        result.duplicates += 1
                    }
                } catch let rejection as Rejection {
                    result.rejected = (Array(bytes.prefix(64)), rejection)
                    break
                }
            }
            try batch.writeHeads(db)
            return result
        }
    }

    private func ingestOne(
        _ db: Database, _ checked: CheckedOp, bytes: [UInt8], doc batchDoc: DocumentID, keyring: Keyring,
        batch: OpBatch, authorize: (OpHeader, OpBody) -> String?
    ) throws -> (SignedOp, OpBody, excluded: Bool, equivocating: Bool)? {
        let op: SignedOp
        switch checked.op {
        case .success(let decoded): op = decoded
        case .failure(let error): throw Rejection.malformed(error.message)
        }
        let header = op.header
        // Each op is judged by the document it names, so it must be the batch's.
        guard header.doc == batchDoc else { throw Rejection.wrongDocument }
        guard let ownerKey = try batch.owner(db, header.doc), let documentKind = try batch.kind(db, header.doc) else {
            throw Rejection.unknownDocument
        }
        let id = checked.id
        // Held: before the batch (looked up by `precheck`, or here when it could not) or
        // stored earlier in it.
        if checked.held || batch.stored(id) != nil { return nil }
        if !checked.heldKnown {
            var held = try RawStatement(db, "SELECT 1 FROM op WHERE id = ?")
            held.bind(id)
            var found = false
            try held.forEachRow(db) { _ in found = true }
            if found { return nil }
        }
        guard checked.signatureValid else { throw Rejection.badSignature }

        let (vector, equivocating) = try checkChain(db, header, batch: batch)
        guard let body = checked.body else {
            throw checked.bodyError.map(Rejection.invalidChange) ?? Rejection.undecryptable
        }
        // Judged by the precheck on another core when it could (`CheckedOp.rulesChecked`).
        if let refusal =
            checked.rulesChecked
            ? checked.ruleRefusal : OpRules.refusal(of: body, in: header.doc, documentKind: documentKind)
        {
            throw Rejection.invalidChange(refusal)
        }
        // Who the author acts for: a device's certificate in its first op, or itself
        // (Protocol/devices.md §4.2).
        let person: String
        switch try Store.actingPerson(db, header: header, body: body, batch: batch) {
        case .success(let acting): person = acting
        case .failure(let rejection): throw rejection
        }
        if let refusal = try Store.authorization(
            db, header: header, body: body, person: person, owner: ownerKey, causalPast: vector)
            ?? (documentKind == "itinerary" ? Store.tripMessageRefusal(body, person: person) : nil)
            ?? authorize(header, body)
        {
            throw Rejection.unauthorized(refusal)
        }
        try insertOp(db, op, id: id, encoded: bytes, vector: vector, batch: batch)
        guard try equivocating || batch.hasEquivocated(db, header.doc, author: header.author) else {
            let excluded = try Store.materializeStored(
                db, id: id, header: header, body: body, person: person, owner: ownerKey, vector: vector,
                keyring: keyring, plan: person == header.authorKey ? checked.plan : nil)
            return (op, body, excluded, false)
        }
        if equivocating { batch.noteEquivocation(header.doc, author: header.author) }
        let excluded = try Store.storeConflicting(
            db, id: id, header: header, body: body, person: person, owner: ownerKey, vector: vector, keyring: keyring,
            equivocating: equivocating)
        return (op, body, excluded, equivocating)
    }
}

extension Store {
    /// Records a just-stored op's role events, then materializes it unless it is concurrent
    /// with its author's removal; an owner's removal excludes the removed member's
    /// concurrent ops already held and re-materializes the document. `plan`, when given, is
    /// `Materializer.plan` of this op as `person` (worked out beforehand on another core).
    @discardableResult
    static func materializeStored(
        _ db: Database, id: [UInt8], header: OpHeader, body: OpBody, person: String, owner: String,
        vector: VersionVector, keyring: Keyring, plan: Materializer.Plan? = nil
    ) throws -> Bool {
        let author = header.authorKey
        try recordMemberEvents(db, header: header, authorKey: author, person: person, body: body)
        if try isConcurrentWithRemoval(db, header: header, person: person, owner: owner, vector: vector) {
            try db.execute(sql: "UPDATE op SET excluded = 1 WHERE id = ?", arguments: [Data(id)])
            return true
        }
        if let plan {
            try Materializer.apply(db, plan)
        } else {
            try Materializer.apply(db, opID: id, header: header, authorKey: author, person: person, body: body)
        }
        if person == owner || !revokedDevices(body).isEmpty,
            try excludeConcurrent(db, doc: header.doc, body: body, vector: vector, byOwner: person == owner)
        {
            try rematerialize(db, doc: header.doc, keyring: keyring)
        }
        return false
    }

    /// A member's role in the current state (all ops held), nil when not a member.
    public func currentRole(of member: PublicKey, in doc: DocumentID) throws(StoreError) -> String? {
        // The owner, the most common asker (every edit of one's own trip checks it), is known
        // from the document row, which is kept in memory: no read.
        guard let owner = try document(doc)?.owner else { return nil }
        if owner == member.bytes { return "owner" }
        return try read { db in
            // A device acts with its person's role (Protocol/devices.md §4.2).
            if let person = try Store.heldPerson(db, doc: doc, device: member.hex) {
                if try !Store.revocations(db, doc: doc, device: member.hex, person: person).isEmpty { return nil }
                if person == HexCoding.encode(owner) { return "owner" }
                return try Store.role(
                    db, of: person, in: doc, owner: HexCoding.encode(owner), causalPast: try versionVector(db, doc))
            }
            return try Store.role(
                db, of: member.hex, in: doc, owner: HexCoding.encode(owner), causalPast: try versionVector(db, doc))
        }
    }

    func versionVector(_ db: Database, _ doc: DocumentID) throws -> VersionVector {
        var vector = VersionVector()
        // Author by author through `op_author_seq` (doc, author, seq): a seek for each next
        // author and one for its highest seq, so the cost grows with the authors, not the ops
        // (`GROUP BY author` read every op of the trip: 0.4 s at a million).
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH RECURSIVE authors(author) AS (
                        SELECT (SELECT author FROM op WHERE doc = ?1 ORDER BY author LIMIT 1)
                        UNION ALL
                        SELECT (SELECT o.author FROM op o WHERE o.doc = ?1 AND o.author > a.author
                                ORDER BY o.author LIMIT 1)
                        FROM authors a WHERE a.author IS NOT NULL
                    )
                    SELECT author, (SELECT max(seq) FROM op WHERE doc = ?1 AND author = authors.author)
                    FROM authors WHERE author IS NOT NULL
                    """),
            arguments: [Data(doc.bytes)])
        {
            vector.include(HexCoding.encode([UInt8](row[0] as Data)), UInt64(row[1] as Int64))
        }
        return vector
    }

    /// What this daemon holds of a document: the highest seq per author.
    public func versionVector(of doc: DocumentID) throws(StoreError) -> VersionVector {
        try read { db in try versionVector(db, doc) }
    }

    /// What this daemon holds of a document and whether any author of it equivocated (holds
    /// two ops at one seq), read together: a cache that follows the document op by op from
    /// here knows that an op extending its author's chain by one changes only the entities
    /// it names (an equivocation re-materializes the whole document).
    public func chainHeads(of doc: DocumentID) throws(StoreError) -> (vector: VersionVector, equivocated: Bool) {
        try read { db in (try versionVector(db, doc), try isEquivocated(db, doc)) }
    }

    /// Whether some author of `doc` holds two ops at one seq (the `op_conflict` index).
    func isEquivocated(_ db: Database, _ doc: DocumentID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM op WHERE doc = ? AND conflict = 1 LIMIT 1"),
            arguments: [Data(doc.bytes)]) ?? false
    }

    /// A run of a document's log for a peer (`ops(of:missingFrom:after:maxBytes:)`).
    public struct OutgoingOps: Sendable {
        /// The encoded ops, in log (causal) order.
        public var ops: [[UInt8]] = []
        /// Author (hex) and seq of each op in `ops`.
        public var stamps: [(author: String, seq: UInt64)] = []
        /// The log position (`op` rowid) through which the document was read: a next call
        /// with `after:` this value goes on from there.
        public var readThrough: Int64 = 0
    }

    /// Encoded ops of `doc` that `peer` lacks according to its vector, in log (causal)
    /// order, from the log position after `after` (0: from the start), up to `maxBytes`
    /// (always at least one op). A sender that keeps `readThrough` between rounds reads each
    /// op once instead of the whole log per round. A round from the start also carries every
    /// op at an equivocated seq (`conflict`), which a vector cannot tell apart: a peer that
    /// holds one branch receives the other.
    ///
    /// `held` is what this daemon holds of `doc` when the caller keeps it. A peer that holds
    /// all of that is read nothing when it lacks nothing (no equivocation to carry): the log
    /// is walked by rowid across every document, so a reconnect that agrees nothing changed
    /// would otherwise walk the whole table once per shared document.
    public func ops(
        of doc: DocumentID, missingFrom peer: VersionVector, after: Int64 = 0, maxBytes: Int = .max,
        held: VersionVector? = nil
    ) throws(StoreError) -> OutgoingOps {
        try read { db in
            if after == 0 || held != nil {
                let held = try held ?? versionVector(db, doc)
                if peer.includes(held), try after != 0 || !isEquivocated(db, doc) {
                    return OutgoingOps(readThrough: after)
                }
            }
            // `+doc`: walk the log by rowid from `after` (an index on `doc` would need the
            // whole document sorted by rowid in a temporary B-tree each round).
            var statement = try RawStatement(
                db, "SELECT rowid, author, seq, bytes, conflict FROM op WHERE +doc = ? AND rowid > ? ORDER BY rowid")
            statement.bind(doc.bytes)
            statement.bind(after)
            var out = OutgoingOps(readThrough: after)
            var bytes = 0
            var author: (raw: [UInt8], hex: String, held: UInt64) = ([], "", 0)
            try statement.forRows(db) { row in
                let raw = row.blob(1)
                if raw != author.raw {
                    let hex = HexCoding.encode(raw)
                    author = (raw, hex, peer[hex])
                }
                let seq = UInt64(row.int64(2))
                if seq > author.held || (after == 0 && row.int64(4) != 0) {
                    let size = row.byteCount(3)
                    // Stop before passing the byte budget (leaving this op for the next call).
                    if !out.ops.isEmpty && bytes + size > maxBytes { return false }
                    out.ops.append(row.blob(3))
                    out.stamps.append((author.hex, seq))
                    bytes += size
                }
                out.readThrough = row.int64(0)
                return true
            }
            return out
        }
    }
}
