import Foundation
import GRDB
import PlacesModel

/// What one write transaction that stores a batch of ops (local appends or received ops)
/// remembers from op to op: document owners, the causal vectors of the ops it stored (the
/// next op's deps are usually among them), and the changes to the heads, written once by
/// `writeHeads` before the transaction ends.
///
/// The heads written are those that storing the ops one by one would leave: every stored op
/// becomes a head, and every dependency of a stored op stops being one (a dependency is
/// always stored before the ops that name it).
final class OpBatch {
    private var owners: [DocumentID: String] = [:]
    private var kinds: [DocumentID: String] = [:]
    /// Whether an author has equivocated in a document (has ops marked `conflict`).
    private var equivocated: [DocumentID: [OpKey: Bool]] = [:]
    /// Document, Lamport time and causal vector of the ops stored in this batch, by id.
    private var ops: [OpKey: (doc: DocumentID, lamport: UInt64, vector: VersionVector)] = [:]
    /// Seq and Lamport time of the last op stored in this batch, by document and author.
    private var last: [DocumentID: [OpKey: (seq: UInt64, lamport: UInt64)]] = [:]
    private var added: [DocumentID: [[UInt8]]] = [:]
    private var addedSet = Set<OpKey>()
    private var removed: [DocumentID: Set<OpKey>] = [:]
    /// Who each author of the batch acts for in each document (`Store.actingPerson`): read
    /// once per author, not once per op.
    private var persons: [DocumentID: [String: String]] = [:]

    /// The person `author` acts for in `doc`, when this batch already knows it.
    func person(of author: String, in doc: DocumentID) -> String? { persons[doc]?[author] }

    /// Remembers who `author` acts for in `doc`.
    func note(person: String, of author: String, in doc: DocumentID) { persons[doc, default: [:]][author] = person }

    /// An op id (or author key) as a dictionary key: hashed by its first eight bytes, which
    /// are uniform (ids are BLAKE2b hashes, keys are Ed25519 points), instead of byte by byte
    /// as `[UInt8]` is; compared in full.
    struct OpKey: Hashable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) {
            guard bytes.count >= 8 else { return hasher.combine(bytes) }
            hasher.combine(bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        }
    }

    /// The causal vector of an op stored in this batch.
    func vector(of id: [UInt8]) -> VersionVector? { ops[OpKey(id)]?.vector }

    /// Document and Lamport time of an op stored in this batch.
    func stored(_ id: [UInt8]) -> (doc: DocumentID, lamport: UInt64)? {
        ops[OpKey(id)].map { ($0.doc, $0.lamport) }
    }

    /// The owner of `doc` as author-key hex, nil when the document is unknown.
    func owner(_ db: Database, _ doc: DocumentID) throws -> String? {
        if let owner = owners[doc] { return owner }
        guard let owner = try Store.owner(db, of: doc) else { return nil }
        let key = HexCoding.encode(owner)
        owners[doc] = key
        return key
    }

    /// Whether `author` has equivocated in `doc` (any of its ops there is marked `conflict`).
    func hasEquivocated(_ db: Database, _ doc: DocumentID, author: [UInt8]) throws -> Bool {
        let key = OpKey(author)
        if let known = equivocated[doc]?[key] { return known }
        var select = try RawStatement(db, "SELECT 1 FROM op WHERE doc = ? AND author = ? AND conflict = 1 LIMIT 1")
        select.bind(doc.bytes)
        select.bind(author)
        var found = false
        try select.forEachRow(db) { _ in found = true }
        equivocated[doc, default: [:]][key] = found
        return found
    }

    /// Records that `author` has just equivocated in `doc`.
    func noteEquivocation(_ doc: DocumentID, author: [UInt8]) {
        equivocated[doc, default: [:]][OpKey(author)] = true
    }

    /// The kind of `doc` (`Store.DocumentKind` raw value), nil when the document is unknown.
    func kind(_ db: Database, _ doc: DocumentID) throws -> String? {
        if let kind = kinds[doc] { return kind }
        guard let record = try Store.fetchDocuments(db, "WHERE id = ?", bind: { $0.bind(doc.bytes) }).first else {
            return nil
        }
        kinds[doc] = record.kind.rawValue
        return record.kind.rawValue
    }

    /// The seq and Lamport time of the author's last op in `doc` if it was stored in this
    /// batch (it is then the author's last op in the log: seqs only grow).
    func lastStored(doc: DocumentID, author: [UInt8]) -> (seq: UInt64, lamport: UInt64)? {
        last[doc]?[OpKey(author)]
    }

    /// Records an op just inserted in the log.
    func stored(_ id: [UInt8], header: OpHeader, vector: VersionVector) {
        let doc = header.doc, deps = header.deps
        let key = OpKey(id)
        ops[key] = (doc, header.lamport, vector)
        let author = OpKey(header.author)
        // An equivocating op (a second op at a seq already held) does not move the author back.
        if (last[doc]?[author]?.seq ?? 0) < header.seq {
            last[doc, default: [:]][author] = (header.seq, header.lamport)
        }
        added[doc, default: []].append(id)
        addedSet.insert(key)
        if !deps.isEmpty { removed[doc, default: []].formUnion(deps.lazy.map(OpKey.init)) }
    }

    /// Writes the head changes of the ops stored so far.
    func writeHeads(_ db: Database) throws {
        for (doc, removed) in removed {
            // Dependencies stored in this batch never made it into the table.
            for dep in removed where !addedSet.contains(dep) {
                var delete = try RawStatement(db, "DELETE FROM head WHERE doc = ? AND op = ?")
                delete.bind(doc.bytes)
                delete.bind(dep.bytes)
                try delete.execute(db)
            }
        }
        for (doc, ids) in added {
            let removed = removed[doc] ?? []
            for id in ids where !removed.contains(OpKey(id)) {
                var insert = try RawStatement(db, "INSERT OR IGNORE INTO head(doc, op) VALUES (?, ?)")
                insert.bind(doc.bytes)
                insert.bind(id)
                try insert.execute(db)
            }
        }
        added = [:]
        addedSet = []
        self.removed = [:]
    }
}
