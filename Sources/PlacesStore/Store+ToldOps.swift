import Foundation
import GRDB
import PlacesModel

/// Reads of ops by id for relaying by telling (`Protocol/sync.md` §7, "Live propagation and
/// relaying"): which told ids are held, and the ops a peer wants.
extension Store {
    /// Which of `ids` are ops of `doc` held here (`Protocol/sync.md` §7, "Live propagation and
    /// relaying": an `OpsHave` is answered with the ids not held).
    public func heldOpIDs(_ ids: [[UInt8]], of doc: DocumentID) throws(StoreError) -> Set<[UInt8]> {
        try read { db in
            var held = Set<[UInt8]>()
            for id in ids {
                var statement = try RawStatement(db, "SELECT 1 FROM op WHERE id = ? AND doc = ?")
                statement.bind(id)
                statement.bind(doc.bytes)
                if try statement.firstInt64(db) != nil { held.insert(id) }
            }
            return held
        }
    }

    /// The ops of `doc` among `ids` held here, in log (causal) order, up to `maxBytes` (always
    /// at least one op when any is held): the answer to a peer's `OpsWant`. An id of another
    /// document's op is never answered.
    public func ops(withIDs ids: [[UInt8]], of doc: DocumentID, maxBytes: Int) throws(StoreError) -> OutgoingOps {
        try read { db in
            var found = [(rowid: Int64, author: [UInt8], seq: UInt64, bytes: [UInt8])]()
            for id in Set(ids) {
                var statement = try RawStatement(
                    db, "SELECT rowid, author, seq, bytes FROM op WHERE id = ? AND doc = ?")
                statement.bind(id)
                statement.bind(doc.bytes)
                try statement.forEachRow(db) { row in
                    // Stored seqs are 1…2^32−1 (op-format §1); clamping never traps.
                    found.append((row.int64(0), row.blob(1), UInt64(clamping: row.int64(2)), row.blob(3)))
                }
            }
            found.sort { $0.rowid < $1.rowid }
            var out = OutgoingOps()
            var bytes = 0
            for op in found {
                if !out.ops.isEmpty && bytes + op.bytes.count > maxBytes { break }
                out.ops.append(op.bytes)
                out.stamps.append((HexCoding.encode(op.author), op.seq))
                out.readThrough = op.rowid
                bytes += op.bytes.count
            }
            return out
        }
    }
}
