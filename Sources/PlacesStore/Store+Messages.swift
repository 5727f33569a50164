import Foundation
import GRDB
import PlacesModel

extension Schema {
    /// The indexes of the `v15-messages` migration: messages by document and time (deleted
    /// ones too: they show as "message deleted"), receipts by the message they mark.
    static func createMessageIndexes(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX entity_message ON entity(doc, created_ms, id) WHERE kind = 'message';
                CREATE INDEX entity_receipt ON entity(doc, ref) WHERE kind = 'receipt';
                """)
    }
}

/// Messages and their receipts (issue 32), read through their own indexes: a conversation's
/// last page, its unread count and a receipt are each a walk of an index from its newest
/// end, never a scan of every message.
extension Store {
    /// The messages of `doc`, newest first, before `cursor` (time and id) when given.
    /// Those whose id follows one of `hiddenPrefixes` in a setting's name are left out, on
    /// the setting's primary key while the index is walked.
    public func messages(
        in doc: DocumentID, before cursor: (ms: Int64, id: String)?, limit: Int, hiddenPrefixes: [String] = []
    ) throws(StoreError) -> [EntityRecord] {
        guard limit > 0 else { return [] }
        return try read { db in
            var clause = "INDEXED BY entity_message WHERE e.kind = 'message' AND e.doc = ?"
            for _ in hiddenPrefixes {
                clause += " AND NOT EXISTS (SELECT 1 FROM preference p WHERE p.key = ? || e.id)"
            }
            if cursor != nil { clause += " AND (e.created_ms < ? OR (e.created_ms = ? AND e.id < ?))" }
            clause += " ORDER BY e.created_ms DESC, e.id DESC LIMIT ?"
            return try Store.fetchEntities(db, clause) {
                $0.bind(doc.bytes)
                for prefix in hiddenPrefixes { $0.bind(prefix) }
                if let cursor {
                    $0.bind(cursor.ms)
                    $0.bind(cursor.ms)
                    $0.bind(cursor.id)
                }
                $0.bind(limit)
            }
        }
    }

    /// How many messages `doc` holds (deleted ones too), counted on the index.
    public func messageCount(in doc: DocumentID) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM entity INDEXED BY entity_message WHERE kind = 'message' AND doc = ?",
                arguments: [Data(doc.bytes)]) ?? 0
        }
    }

    /// How many messages every document holds together.
    public func totalMessageCount() throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM entity INDEXED BY entity_message WHERE kind = 'message'")
                ?? 0
        }
    }

    /// How many messages of `doc` were sent in `from...to` (by their authors' clock).
    public func messageCount(in doc: DocumentID, sentFrom from: Int64, to: Int64) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM entity INDEXED BY entity_message
                    WHERE kind = 'message' AND doc = ? AND created_ms >= ? AND created_ms <= ?
                    """, arguments: [Data(doc.bytes), from, to]) ?? 0
        }
    }

    /// The receipts in `doc` of the messages `ids`.
    public func receipts(in doc: DocumentID, for ids: [EntityID]) throws(StoreError) -> [EntityRecord] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
            return try Store.fetchEntities(
                db, "INDEXED BY entity_receipt WHERE e.kind = 'receipt' AND e.doc = ? AND e.ref IN (\(marks))"
            ) {
                $0.bind(doc.bytes)
                for id in ids { $0.bind(id) }
            }
        }
    }

    /// A message of `doc` as the unread walk sees it.
    public struct MessageMark: Sendable, Hashable {
        public var id: EntityID
        public var deleted: Bool
        /// Whether the receipt in the reader's outbox has `readAt`.
        public var read: Bool
    }

    /// The newest `limit` messages of `doc`, newest first, each with whether a receipt in
    /// `receipts` marks it read: the unread count walks these until the first read one.
    public func messageMarks(in doc: DocumentID, receipts: DocumentID, limit: Int) throws(StoreError)
        -> [MessageMark]
    {
        guard limit > 0 else { return [] }
        return try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT m.id, m.deleted, (
                        SELECT 1 FROM entity r INDEXED BY entity_receipt
                        WHERE r.doc = ? AND r.kind = 'receipt' AND r.ref = m.id
                            AND json_extract(r.data, '$.readAt') IS NOT NULL LIMIT 1)
                    FROM entity m INDEXED BY entity_message
                    WHERE m.doc = ? AND m.kind = 'message'
                    ORDER BY m.created_ms DESC, m.id DESC LIMIT ?
                    """, arguments: [Data(receipts.bytes), Data(doc.bytes), limit]
            ).map { row in
                MessageMark(id: row[0], deleted: (row[1] as Int64) != 0, read: (row[2] as Int64?) != nil)
            }
        }
    }

    /// The settings whose names start with `prefix`, by name (read on the primary key's
    /// range, not a scan).
    public func preferences(withPrefix prefix: String) throws(StoreError) -> [String: String] {
        try read { db in
            var out = [String: String]()
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM preference WHERE key >= ? AND key < ?",
                arguments: [prefix, prefix + "\u{10FFFF}"])
            for row in rows {
                let key: String = row[0]
                out[key] = row[1]
            }
            return out
        }
    }
}
