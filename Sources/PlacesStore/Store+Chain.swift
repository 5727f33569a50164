import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

// Causality and equivocation checks of received ops (`Protocol/op-format.md` §9 steps 5–6),
// shared by the member path (`Store+Ingest`) and the relay's unopened path.
extension Store {
    /// Steps 5 and 6 of `Protocol/op-format.md` §9 for an op whose format, document, id and
    /// signature passed: the author's seq chain (or an equivocation within its cap), every
    /// dependency stored, the author's previous op in the causal past, and the Lamport time
    /// exactly one above the dependencies'. Needs no key: the member path and the relay's
    /// unopened path (`ingestUnopened`) both run it. Returns the op's causal vector (its own
    /// seq included) and whether it is a second op at a seq already held.
    func checkChain(_ db: Database, _ header: OpHeader, batch: OpBatch) throws -> (VersionVector, equivocating: Bool) {
        let doc = Data(header.doc.bytes)
        let previousSeq: UInt64
        if let last = batch.lastStored(doc: header.doc, author: header.author) {
            previousSeq = last.seq
        } else {
            var last = try RawStatement(db, "SELECT max(seq) FROM op WHERE doc = ? AND author = ?")
            last.bind(header.doc.bytes)
            last.bind(header.author)
            // This store's own highest seq of the author: stored seqs passed the bound of
            // op-format §1 at decode, so it is never negative; `clamping` cannot trap anyway.
            previousSeq = UInt64(clamping: try last.firstInt64(db) ?? 0)
        }
        // A second op at a seq already held is an equivocation: kept (up to a cap) so that
        // replicas holding either branch converge, but only one op per seq is materialized.
        let equivocating = header.seq <= previousSeq
        if equivocating {
            let extra =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) - count(DISTINCT seq) FROM op
                            WHERE doc = ? AND author = ? AND conflict = 1
                            """), arguments: [doc, Data(header.author)]) ?? 0
            guard extra < Store.maxConflictingOps else {
                throw Rejection.equivocation(author: header.authorKey, seq: header.seq)
            }
        } else {
            guard header.seq == previousSeq + 1 else {
                throw Rejection.sequenceGap(expected: previousSeq + 1, got: header.seq)
            }
        }
        var maxDepLamport: UInt64 = 0
        for dep in header.deps {
            if let stored = batch.stored(dep), stored.doc == header.doc {
                maxDepLamport = max(maxDepLamport, stored.lamport)
                continue
            }
            var lookup = try RawStatement(db, "SELECT lamport FROM op WHERE id = ? AND doc = ?")
            lookup.bind(dep)
            lookup.bind(header.doc.bytes)
            guard let lamport = try lookup.firstInt64(db) else { throw Rejection.missingDependency }
            maxDepLamport = max(maxDepLamport, UInt64(clamping: lamport))
        }
        // The author's previous op, and none of its later ones, is in the causal past: each
        // author's ops form a chain (op-format §9 step 6).
        var vector = try depsVector(db, header: header, batch: batch)
        let pastSeq = vector[header.authorKey]
        if pastSeq != header.seq - 1 {
            // Older placesd versions with more than 64 heads could leave their own previous op
            // out of the deps: still a chain when the Lamport time is above it.
            let previousLamport = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT max(lamport) FROM op WHERE doc = ? AND author = ? AND seq = ?"),
                arguments: [doc, Data(header.author), Int64(header.seq - 1)])
            guard pastSeq < header.seq - 1, let previousLamport, header.lamport > UInt64(clamping: previousLamport)
            else { throw Rejection.sequenceGap(expected: min(pastSeq, OpRules.maxSeq) + 1, got: header.seq) }
        }
        vector.include(header.authorKey, header.seq)
        // Lamport is not a free claim: exactly one above the causal past (op-format §7), so it
        // grows by at most one per op and stays far from its bound.
        guard header.lamport == maxDepLamport + 1 else {
            throw Rejection.wrongLamport(expected: maxDepLamport + 1, got: header.lamport)
        }
        return (vector, equivocating)
    }
}

extension Store {
    /// How many ops beyond the first an author may have at equivocated seqs in one document
    /// (`Protocol/sync.md` §7); more are refused.
    public static let maxConflictingOps = 8

    /// Stores the materialization of an op by an author that has equivocated in the document
    /// (or does with this op: `equivocating`, and then every op at its seq is marked
    /// `conflict`). Of an equivocating author's ops, one that shares its seq **or its Lamport
    /// time** with another of that author's ops with a smaller id is excluded: the branches
    /// can reuse Lamport times, and two materialized ops with one `(lamport, author)` would
    /// tie in the merge order. This is a function of the set of ops held, whatever the arrival
    /// order. When the op displaces a materialized one (or is excluded, or equivocates), the
    /// document is re-materialized, with its `equivocated` activity lines; otherwise it is
    /// materialized as usual. Returns whether the op is excluded.
    static func storeConflicting(
        _ db: Database, id: [UInt8], header: OpHeader, body: OpBody, person: String, owner: String,
        vector: VersionVector, keyring: Keyring, equivocating: Bool
    ) throws -> Bool {
        let doc = Data(header.doc.bytes), author = Data(header.author)
        let seq = Int64(header.seq), lamport = Int64(header.lamport)
        if equivocating {
            try db.execute(
                sql: "UPDATE op SET conflict = 1 WHERE doc = ? AND author = ? AND seq = ?",
                arguments: [doc, author, seq])
        }
        let displaced =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT 1 FROM op WHERE doc = ? AND author = ? AND (seq = ? OR lamport = ?) AND id < ? LIMIT 1
                    """, arguments: [doc, author, seq, lamport, Data(id)]) ?? false
        try db.execute(
            sql: """
                UPDATE op SET excluded = 1
                WHERE doc = ? AND author = ? AND (seq = ? OR lamport = ?) AND id > ? AND excluded = 0
                """, arguments: [doc, author, seq, lamport, Data(id)])
        let displacing = db.changesCount > 0
        if !equivocating && !displaced && !displacing {
            return try materializeStored(
                db, id: id, header: header, body: body, person: person, owner: owner, vector: vector,
                keyring: keyring)
        }
        try recordMemberEvents(db, header: header, authorKey: header.authorKey, person: person, body: body)
        _ = try excludeConcurrent(db, doc: header.doc, body: body, vector: vector, byOwner: person == owner)
        if try displaced
            || isConcurrentWithRemoval(db, header: header, person: person, owner: owner, vector: vector)
        {
            try db.execute(sql: "UPDATE op SET excluded = 1 WHERE id = ?", arguments: [Data(id)])
        }
        try rematerialize(db, doc: header.doc, keyring: keyring)
        return try Bool.fetchOne(db, sql: "SELECT excluded FROM op WHERE id = ?", arguments: [Data(id)]) ?? true
    }

    /// One `equivocated` activity line per author and seq with more than one op (`Protocol/op-format.md`
    /// §8), dated by the canonical op.
    static func recordEquivocations(_ db: Database, doc: DocumentID, keyring: Keyring) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT min(id) AS id, author, seq FROM op WHERE doc = ? AND conflict = 1
                GROUP BY author, seq ORDER BY author, seq
                """, arguments: [Data(doc.bytes)])
        for row in rows {
            let id = [UInt8](row["id"] as Data)
            let author = HexCoding.encode([UInt8](row["author"] as Data))
            let seq: Int64 = row["seq"]
            guard
                let bytes = try Data.fetchOne(db, sql: "SELECT bytes FROM op WHERE id = ?", arguments: [Data(id)]),
                let op = try? SignedOp(decoding: [UInt8](bytes))
            else { continue }
            let timeMs = (try? openBody(op, keyring: keyring))?.timeMs ?? 0
            try db.execute(
                sql: """
                    INSERT INTO activity(op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new)
                    VALUES (?, -1, ?, ?, ?, ?, 'equivocated', ?, 'member', 'seq', NULL, ?)
                    """,
                arguments: [
                    Data(id), Data(doc.bytes), timeMs, Int64(op.header.lamport), author, author, String(seq),
                ])
        }
    }
}
