import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

/// Photos' copies a relay keeps (`Protocol/relay.md` §8): one row per relay name, under the
/// document it was announced for. The bytes are files the relay engine writes; a row is whole
/// (`complete`) once its last chunk arrived, and its size is then charged to the document's
/// user (`relayed_doc.bytes`) in the same write.
extension Store {
    /// A photo's copy at the relay.
    public struct RelayBlobRecord: Sendable, Equatable {
        public var name: [UInt8]
        public var doc: DocumentID
        /// The member it was last announced by: who it is wanted from.
        public var giver: PublicKey
        /// Its size once whole (0 before).
        public var bytes: Int64
        public var complete: Bool
    }

    /// What became of an announced name.
    public enum RelayBlobAnnouncement: Sendable, Equatable {
        /// New, or not yet whole: wanted from the announcer.
        case wanted
        /// Whole already: nothing to do.
        case held
        /// Kept under another document: refused (a name is another document's).
        case otherDocument
        /// The document holds its most copies already.
        case full
    }

    /// Records that `giver` gives the copy `name` under `doc`: a new row (while `doc` holds
    /// fewer than `maxPerDocument`), or the giver of a row not yet whole. A whole row, or a row
    /// of another document, is left as it is.
    public func announceRelayBlob(
        _ name: [UInt8], doc: DocumentID, giver: PublicKey, maxPerDocument: Int, timeMs: Int64
    ) throws(StoreError) -> RelayBlobAnnouncement {
        try write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT doc, complete FROM relay_blob WHERE name = ?", arguments: [Data(name)])
            {
                let held: Data = row[0]
                guard [UInt8](held) == doc.bytes else { return .otherDocument }
                if row[1] as Bool { return .held }
                try db.execute(
                    sql: "UPDATE relay_blob SET giver = ? WHERE name = ?", arguments: [Data(giver.bytes), Data(name)])
                return .wanted
            }
            let count =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM relay_blob WHERE doc = ?", arguments: [Data(doc.bytes)])
                ?? 0
            guard count < maxPerDocument else { return .full }
            try db.execute(
                sql: "INSERT INTO relay_blob(name, doc, giver, added_ms) VALUES (?, ?, ?, ?)",
                arguments: [Data(name), Data(doc.bytes), Data(giver.bytes), timeMs])
            return .wanted
        }
    }

    /// The copy named `name`, nil when none is kept.
    public func relayBlob(_ name: [UInt8]) throws(StoreError) -> RelayBlobRecord? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT doc, giver, bytes, complete FROM relay_blob WHERE name = ?",
                    arguments: [Data(name)])
            else { return nil }
            return Self.relayBlobRecord(name: name, row)
        }
    }

    /// Copies not yet whole that `giver` announced (under `doc` alone when given), oldest
    /// first, at most `limit`.
    public func relayBlobsWanted(from giver: PublicKey, in doc: DocumentID?, limit: Int) throws(StoreError)
        -> [RelayBlobRecord]
    {
        try read { db in
            var sql = "SELECT doc, giver, bytes, complete, name FROM relay_blob WHERE giver = ? AND complete = 0"
            var arguments: StatementArguments = [Data(giver.bytes)]
            if let doc {
                sql += " AND doc = ?"
                arguments += [Data(doc.bytes)]
            }
            sql += " ORDER BY added_ms LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
                let name: Data = row[4]
                return Self.relayBlobRecord(name: [UInt8](name), row)
            }
        }
    }

    /// The copy `name` is whole: `bytes` long, charged to its document's user.
    public func completeRelayBlob(_ name: [UInt8], bytes: Int64) throws(StoreError) {
        try write { db in
            guard
                let doc = try Data.fetchOne(
                    db, sql: "SELECT doc FROM relay_blob WHERE name = ? AND complete = 0", arguments: [Data(name)])
            else { return }
            try db.execute(
                sql: "UPDATE relay_blob SET complete = 1, bytes = ? WHERE name = ?", arguments: [bytes, Data(name)])
            try db.execute(sql: "UPDATE relayed_doc SET bytes = bytes + ? WHERE id = ?", arguments: [bytes, doc])
        }
    }

    /// Forgets the copies under `doc` (whole or arriving) whose giver is none of `keys`, and
    /// takes the bytes of the whole ones off the document's charge (`relay.md` §8: a trip's
    /// copies given by a key the trip's newest list no longer names). Returns their names.
    public func dropRelayBlobs(in doc: DocumentID, keeping keys: Set<[UInt8]>) throws(StoreError) -> [[UInt8]] {
        try write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT name, giver, bytes, complete FROM relay_blob WHERE doc = ?",
                arguments: [Data(doc.bytes)])
            var dropped = [[UInt8]]()
            var bytes: Int64 = 0
            for row in rows {
                let giver: Data = row[1]
                guard !keys.contains([UInt8](giver)) else { continue }
                let name: Data = row[0]
                dropped.append([UInt8](name))
                if row[3] as Bool {
                    let size: Int64 = row[2]
                    let (sum, overflow) = bytes.addingReportingOverflow(max(0, size))
                    bytes = overflow ? Int64.max : sum
                }
                try db.execute(sql: "DELETE FROM relay_blob WHERE name = ?", arguments: [name])
            }
            if bytes > 0 {
                try db.execute(
                    sql: "UPDATE relayed_doc SET bytes = max(0, bytes - ?) WHERE id = ?",
                    arguments: [bytes, Data(doc.bytes)])
            }
            return dropped
        }
    }

    private static func relayBlobRecord(name: [UInt8], _ row: Row) -> RelayBlobRecord? {
        let doc: Data = row[0]
        let giver: Data = row[1]
        guard let id = DocumentID(bytes: [UInt8](doc)), let key = try? PublicKey(bytes: [UInt8](giver)) else {
            return nil
        }
        return RelayBlobRecord(name: name, doc: id, giver: key, bytes: row[2], complete: row[3])
    }
}
