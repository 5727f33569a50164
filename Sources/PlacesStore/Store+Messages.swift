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

    /// The settings that hide a message here, by prefix (each followed by the document's hex,
    /// a dot and the message id): deleted for me (`message.hidden.`, on all of this person's
    /// devices) and dropped by a flood bound (`local.message.dropped.`).
    static let hiddenMessagePrefixes = ["message.hidden.", "local.message.dropped."]

    /// `message_shown` (migration `v17-message-shown`): the messages no setting hides, by
    /// document and time, so that a page of a conversation is a range of this table however
    /// many messages a bound dropped before it. Filled from what is held when created, then
    /// kept by the materializer as it writes entity rows (`MessageShown`: an op, a sync, a
    /// rebuild's replay), by a trigger as entity rows are deleted, and by triggers on
    /// `preference` (a setting from this or another device).
    ///
    /// Until `v18-message-shown-materializer` triggers kept it on every insert and update of
    /// `entity` too. A trigger makes SQLite keep a statement journal for each statement it
    /// fires on (every page that statement changes, copied to a temporary file), and every
    /// op writes an entity row: those copies were about a third of the materializer's time.
    static func createMessageShown(_ db: Database) throws {
        func notHidden(_ key: String) -> String {
            "NOT EXISTS (SELECT 1 FROM preference WHERE key IN ("
                + hiddenMessagePrefixes.map { "'\($0)' || \(key)" }.joined(separator: ", ") + "))"
        }
        func hides(_ row: String) -> String {
            hiddenMessagePrefixes.map { "\(row).key GLOB '\($0)*'" }.joined(separator: " OR ")
        }
        let suffix = { (row: String) in
            "substr(\(row).key, CASE WHEN \(row).key GLOB '\(hiddenMessagePrefixes[0])*' THEN \(hiddenMessagePrefixes[0].count + 1) ELSE \(hiddenMessagePrefixes[1].count + 1) END)"
        }
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS message_shown (
                    doc BLOB NOT NULL,
                    created_ms INTEGER NOT NULL,
                    id TEXT NOT NULL,
                    hidden_key TEXT NOT NULL,
                    PRIMARY KEY (doc, created_ms, id)
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS message_shown_key ON message_shown(hidden_key);
                INSERT OR IGNORE INTO message_shown(doc, created_ms, id, hidden_key)
                    SELECT e.doc, coalesce(e.created_ms, 0), e.id, lower(hex(e.doc)) || '.' || e.id
                    FROM entity e INDEXED BY entity_message WHERE e.kind = 'message'
                        AND \(notHidden("lower(hex(e.doc)) || '.' || e.id"));
                CREATE TRIGGER IF NOT EXISTS message_shown_delete AFTER DELETE ON entity WHEN OLD.kind = 'message'
                BEGIN
                    DELETE FROM message_shown
                        WHERE doc = OLD.doc AND created_ms = coalesce(OLD.created_ms, 0) AND id = OLD.id;
                END;
                CREATE TRIGGER IF NOT EXISTS message_hidden_insert AFTER INSERT ON preference WHEN \(hides("NEW"))
                BEGIN
                    DELETE FROM message_shown WHERE hidden_key = \(suffix("NEW"));
                END;
                CREATE TRIGGER IF NOT EXISTS message_hidden_delete AFTER DELETE ON preference WHEN \(hides("OLD"))
                BEGIN
                    INSERT OR IGNORE INTO message_shown(doc, created_ms, id, hidden_key)
                        SELECT e.doc, coalesce(e.created_ms, 0), e.id, lower(hex(e.doc)) || '.' || e.id
                        FROM entity e INDEXED BY entity_message
                        WHERE e.kind = 'message' AND lower(hex(e.doc)) || '.' || e.id = \(suffix("OLD"))
                            AND \(notHidden("lower(hex(e.doc)) || '.' || e.id"));
                END;
                """)
    }

    /// `v18-message-shown-materializer`: `message_shown` is no longer kept by triggers on
    /// every insert and update of `entity` (see `createMessageShown`).
    static func dropMessageShownEntityTriggers(_ db: Database) throws {
        try db.execute(
            sql: "DROP TRIGGER IF EXISTS message_shown_insert; DROP TRIGGER IF EXISTS message_shown_update")
    }

    /// After a rebuild dropped `entity` (and its indexes and triggers with it): the message
    /// indexes and `message_shown` again, empty, for the replay to fill.
    static func recreateMessageTables(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS message_shown")
        try createMessageIndexes(db)
        try createMessageShown(db)
    }
}

/// `message_shown` as the materializer writes message rows of `entity`: what the triggers
/// `message_shown_insert` and `message_shown_update` did before `v18` (see
/// `Schema.createMessageShown`), for the one kind they acted on.
enum MessageShown {
    /// The key of a message's hiding settings: the document's hex, a dot, the message id.
    static func hiddenKey(doc: DocumentID, id: EntityID) -> String { "\(doc.hex).\(id)" }

    /// A message row written at `createdMs` (0 without a create): listed unless a setting hides it.
    static func show(_ db: Database, doc: DocumentID, id: EntityID, createdMs: Int64) throws {
        let key = hiddenKey(doc: doc, id: id)
        var insert = try RawStatement(
            db,
            """
            INSERT OR IGNORE INTO message_shown(doc, created_ms, id, hidden_key)
            SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM preference WHERE key IN (?, ?))
            """)
        insert.bind(doc.bytes)
        insert.bind(createdMs)
        insert.bind(id)
        insert.bind(key)
        for prefix in Schema.hiddenMessagePrefixes { insert.bind(prefix + key) }
        try insert.execute(db)
    }

    /// A row updated: its listing at the old creation time (nil when it was not a message)
    /// removed, and at the new one (nil when it is no longer a message) added.
    static func move(_ db: Database, doc: DocumentID, id: EntityID, from: Int64?, to: Int64?) throws {
        if let from {
            var delete = try RawStatement(db, "DELETE FROM message_shown WHERE doc = ? AND created_ms = ? AND id = ?")
            delete.bind(doc.bytes)
            delete.bind(from)
            delete.bind(id)
            try delete.execute(db)
        }
        if let to { try show(db, doc: doc, id: id, createdMs: to) }
    }
}

/// Messages and their receipts (issue 32), read through their own indexes: a conversation's
/// last page, its unread count and a receipt are each a walk of an index from its newest
/// end, never a scan of every message.
extension Store {
    /// The messages of `doc` (hidden ones too), newest first, before `cursor` (time and id)
    /// when given: a walk of the message index from its newest end.
    public func messages(in doc: DocumentID, before cursor: (ms: Int64, id: String)?, limit: Int)
        throws(StoreError) -> [EntityRecord]
    {
        guard limit > 0 else { return [] }
        return try read { db in
            var clause = "INDEXED BY entity_message WHERE e.kind = 'message' AND e.doc = ?"
            if cursor != nil { clause += " AND (e.created_ms < ? OR (e.created_ms = ? AND e.id < ?))" }
            clause += " ORDER BY e.created_ms DESC, e.id DESC LIMIT ?"
            return try Store.fetchEntities(db, clause) {
                $0.bind(doc.bytes)
                if let cursor {
                    $0.bind(cursor.ms)
                    $0.bind(cursor.ms)
                    $0.bind(cursor.id)
                }
                $0.bind(limit)
            }
        }
    }

    /// The messages of `doc` no setting hides here (`message_shown`), newest first, before
    /// `cursor` (time and id) when given: `messagePage` of the one document, without marks.
    public func shownMessages(in doc: DocumentID, before cursor: (ms: Int64, id: String)?, limit: Int)
        throws(StoreError) -> [EntityRecord]
    {
        try messagePage(in: [doc], before: cursor, limit: limit).map(\.message)
    }

    /// A message of a page (`messagePage`) with the live receipts that name it (their `ref`)
    /// in the document its marks are kept in. The receipts are as held: which of them is the
    /// message's own (its id fixed by the message) is the reader's to check.
    public struct PagedMessage: Sendable {
        public var message: EntityRecord
        public var receipts: [EntityRecord]
    }

    /// A page of a conversation in one read: the newest `limit` messages of `docs` that no
    /// setting hides here (`message_shown`, a range of its key per document, so hidden ones
    /// cost nothing to read past), newest first, before `cursor` (time and id) when given,
    /// each with its live receipts held in `receiptsIn[its document]` (none when that has no
    /// entry). With `hidingBlockedAuthors`, the messages whose `author` (a trip message's)
    /// this person blocked (`blocked.` settings) are left out too. A direct conversation's
    /// page (two outboxes, each one's receipts in the other) and a trip's (one itinerary, no
    /// receipts) are this one query.
    public func messagePage(
        in docs: [DocumentID], before cursor: (ms: Int64, id: String)?, limit: Int,
        receiptsIn: [DocumentID: DocumentID] = [:], hidingBlockedAuthors: Bool = false
    ) throws(StoreError) -> [PagedMessage] {
        let docs = docs.reduce(into: [DocumentID]()) { if !$0.contains($1) { $0.append($1) } }
        guard limit > 0, !docs.isEmpty else { return [] }
        // Each document's newest `limit` (a range of `message_shown`'s key), merged and cut
        // to `limit`: SQLite cannot merge two ranges of the key in order, and would sort
        // every message of both documents for `doc IN (…)`.
        var range = "SELECT s.doc, s.created_ms, s.id FROM message_shown s"
        if hidingBlockedAuthors { range += " JOIN entity b ON b.doc = s.doc AND b.id = s.id" }
        range += " WHERE s.doc = ?"
        if cursor != nil { range += " AND (s.created_ms < ? OR (s.created_ms = ? AND s.id < ?))" }
        if hidingBlockedAuthors {
            range +=
                " AND NOT EXISTS (SELECT 1 FROM preference p WHERE p.key = 'blocked.' || json_extract(b.data, '$.author'))"
        }
        range += " ORDER BY s.created_ms DESC, s.id DESC LIMIT ?"
        let page = docs.map { _ in "SELECT * FROM (\(range))" }.joined(separator: " UNION ALL ")
        let marks = docs.map { _ in "(?, ?)" }.joined(separator: ", ")
        let sql = """
            WITH page(doc, created_ms, id) AS (\(page) ORDER BY 2 DESC, 3 DESC, 1 LIMIT ?),
                marks(doc, receipts) AS (VALUES \(marks))
            SELECT \(Store.entityColumns("e")), \(Store.entityColumns("r"))
            FROM page p JOIN entity e ON e.doc = p.doc AND e.id = p.id
            JOIN marks m ON m.doc = p.doc
            LEFT JOIN entity r INDEXED BY entity_receipt
                ON r.kind = 'receipt' AND r.doc = m.receipts AND r.ref = p.id AND r.deleted = 0
            ORDER BY p.created_ms DESC, p.id DESC, p.doc, r.id
            """
        return try read { db in
            var statement = try RawStatement(db, sql)
            for doc in docs {
                statement.bind(doc.bytes)
                if let cursor {
                    statement.bind(cursor.ms)
                    statement.bind(cursor.ms)
                    statement.bind(cursor.id)
                }
                statement.bind(limit)
            }
            statement.bind(limit)
            for doc in docs {
                statement.bind(doc.bytes)
                // A document without a receipt document joins no receipt (NULL equals nothing).
                if let receipts = receiptsIn[doc] { statement.bind(receipts.bytes) } else { statement.bindNull() }
            }
            var out = [PagedMessage]()
            try statement.forEachRow(db) { row in
                guard let message = Store.entityRecord(row, from: 0) else { return }
                if let last = out.last, last.message.doc == message.doc, last.message.id == message.id {
                    // The same message again: another receipt naming it.
                } else {
                    out.append(PagedMessage(message: message, receipts: []))
                }
                if let receipt = Store.entityRecord(row, from: Store.entityColumnCount) {
                    out[out.count - 1].receipts.append(receipt)
                }
            }
            return out
        }
    }

    /// How many messages `doc` holds (deleted ones too), counted on the index.
    public func messageCount(in doc: DocumentID) throws(StoreError) -> Int {
        // A cached statement: every batch of a trip's ops received asks (`tripMessageCap`).
        try readOne { db in
            var count = try RawStatement(
                db, "SELECT count(*) FROM entity INDEXED BY entity_message WHERE kind = 'message' AND doc = ?")
            count.bind(doc.bytes)
            var held = 0
            // count(*) of this store's own rows: an Int64 that fits Int on the 64-bit platforms built for.
            try count.forEachRow(db) { row in held = Int(truncatingIfNeeded: row.int64(0)) }
            return held
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

    /// A message of `doc` as the unread walk sees it.
    public struct MessageMark: Sendable, Hashable {
        public var id: EntityID
        public var deleted: Bool
        /// Whether the receipt in the reader's outbox has `readAt`.
        public var read: Bool
    }

    /// The newest `limit` messages of `doc` no setting hides (`message_shown`), newest first,
    /// each with whether a receipt in `receipts` marks it read: the unread count walks these
    /// until the first read one, without reading the hidden ones' settings.
    public func shownMessageMarks(in doc: DocumentID, receipts: DocumentID, limit: Int) throws(StoreError)
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
                    FROM message_shown s JOIN entity m ON m.doc = s.doc AND m.id = s.id
                    WHERE s.doc = ?
                    ORDER BY s.created_ms DESC, s.id DESC LIMIT ?
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
