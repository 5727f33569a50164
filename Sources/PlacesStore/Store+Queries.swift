import Foundation
import GRDB
import PlacesModel

extension Store {
    /// Live entities of `kind` in `doc`, list items in list order (position, then id).
    public func entities(in doc: DocumentID, kind: EntityKind) throws(StoreError) -> [EntityRecord] {
        try read { db in
            try Store.fetchEntities(
                db, "WHERE doc = ? AND \(Store.kindIs("kind")) AND deleted = 0 ORDER BY position, id"
            ) {
                $0.bind(doc.bytes)
                $0.bind(kind.rawValue)
            }
        }
    }

    /// The `name` of each document's root entity (the entity whose id is the document's), in
    /// one read: a list of thousands of documents reads no whole entity per document.
    public func rootNames(of docs: [DocumentID]) throws(StoreError) -> [DocumentID: String] {
        try read { db in
            var names = [DocumentID: String](minimumCapacity: docs.count)
            if docs.count > 64 {
                // Many: one statement over every document's root (a peer sharing 10,000 trips
                // is listed with all of them), kept for those asked.
                let wanted = Set(docs)
                let all = try RawStatement(
                    db,
                    """
                    SELECT d.id, json_extract(e.data, '$.name') FROM document d
                    JOIN entity e ON e.doc = d.id AND e.id = lower(hex(d.id))
                    WHERE json_type(e.data, '$.name') = 'text'
                    """)
                try all.forEachRow(db) { row in
                    if let doc = DocumentID(bytes: row.blob(0)), wanted.contains(doc) { names[doc] = row.string(1) }
                }
                return names
            }
            for doc in docs {
                // A name a peer wrote as another JSON type is no name (as in the entity's view).
                var select = try RawStatement(
                    db,
                    "SELECT json_extract(data, '$.name') FROM entity WHERE doc = ? AND id = ? AND json_type(data, '$.name') = 'text'"
                )
                select.bind(doc.bytes)
                select.bind(doc.hex)
                try select.forEachRow(db) { row in names[doc] = row.string(0) }
            }
            return names
        }
    }

    /// One entity (live or deleted), or nil.
    public func entity(in doc: DocumentID, id: EntityID) throws(StoreError) -> EntityRecord? {
        try readOne { db in
            try Store.fetchEntities(db, "WHERE doc = ? AND id = ?") {
                $0.bind(doc.bytes)
                $0.bind(id)
            }.first
        }
    }

    /// The entities of `doc` (live or deleted) whose ids are among `ids`, read by key.
    public func entities(in doc: DocumentID, ids: [EntityID]) throws(StoreError) -> [EntityRecord] {
        guard !ids.isEmpty else { return [] }
        // The ids as one JSON array: one statement, whatever their number.
        let list = JSONValue.array(ids.map { .string($0) }).jsonText
        return try readOne { db in
            try Store.fetchEntities(db, "WHERE e.doc = ? AND e.id IN (SELECT value FROM json_each(?))") {
                $0.bind(doc.bytes)
                $0.bind(list)
            }
        }
    }

    /// Activity of a document, newest first.
    public func activity(of doc: DocumentID, limit: Int = 500) throws(StoreError) -> [ActivityRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM activity WHERE doc = ?
                    ORDER BY time_ms DESC, lamport DESC, author DESC, idx DESC LIMIT ?
                    """,
                arguments: [Data(doc.bytes), limit]
            ).compactMap { row in
                guard let doc = DocumentID(bytes: [UInt8](row["doc"] as Data)) else { return nil }
                return ActivityRecord(
                    opID: [UInt8](row["op"] as Data), index: row["idx"], doc: doc, timeMs: row["time_ms"],
                    lamport: UInt64(row["lamport"] as Int64), author: row["author"], action: row["action"],
                    entity: row["entity"], kind: row["kind"], field: row["field"], oldJSON: row["old"],
                    newJSON: row["new"])
            }
        }
    }

    /// A dump of every materialized table in a fixed order, for checking that a rebuild
    /// reproduces the same state byte for byte.
    public func materializedDump() throws(StoreError) -> [String] {
        try read { db in
            var lines = [String]()
            // The entity rows hold the field stamps (`stamps`).
            for (table, order) in [("entity", "doc, id"), ("activity", "op, idx")] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(order)") {
                    lines.append(table + ": " + row.description)
                }
            }
            return lines
        }
    }

    /// Entity rows read column by column with the C API: GRDB's `Row` looks every column
    /// up by (lowercased) name, which made reading an itinerary of 100,000 stops cost
    /// ~11 µs per stop, several times SQLite's own work.
    /// `clause` follows `FROM entity e`.
    static func fetchEntities(_ db: Database, _ clause: String, bind: (inout RawStatement) -> Void) throws
        -> [EntityRecord]
    {
        var statement = try RawStatement(db, entitySelect + clause)
        bind(&statement)
        var records = [EntityRecord]()
        try statement.forEachRow(db) { row in
            if let record = entityRecord(row, from: 0) { records.append(record) }
        }
        return records
    }

    /// The columns `entityRecord` reads, of the entity row named `table` in the query.
    static func entityColumns(_ table: String) -> String {
        ["doc", "id", "kind", "data", "position", "deleted", "ref", "created_author", "created_ms", "updated_ms"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// `column = CAST(? AS TEXT)`: an entity kind compared with a bound value, in a form that
    /// SQLite does not try to match with the partial indexes on `entity.kind`
    /// (`kind = 'message'`, …). Against a bare `kind = ?` it checks each partial index with
    /// the value bound, and then marks the statement to be compiled again whenever that
    /// parameter is bound: every use of a cached statement re-prepared it (about a tenth of a
    /// trip edit's time). Queries that want a partial index name its kind as a literal.
    static func kindIs(_ column: String) -> String { "\(column) = CAST(? AS TEXT)" }

    /// `fetchEntities`' query up to its clause.
    private static let entitySelect = "SELECT \(entityColumns("e")) FROM entity e "

    /// How many columns `entityColumns` names.
    static let entityColumnCount: Int32 = 10

    /// The entity record in the row's `entityColumns` starting at column `first`; nil when
    /// there is none (a left join that found nothing) or it cannot be read.
    static func entityRecord(_ row: RawStatement.Row, from first: Int32) -> EntityRecord? {
        guard let doc = DocumentID(bytes: row.blob(first)), let kind = EntityKind(rawValue: row.string(first + 2))
        else { return nil }
        return EntityRecord(
            doc: doc, id: row.string(first + 1), kind: kind, dataJSON: row.string(first + 3),
            position: row.optionalString(first + 4), deleted: row.int64(first + 5) != 0,
            ref: row.optionalString(first + 6), createdBy: row.optionalString(first + 7),
            createdMs: row.optionalInt64(first + 8), updatedMs: row.optionalInt64(first + 9))
    }
}

extension Store {
    /// A favorite joined with its place, read straight from SQL (the hot path of
    /// `GET /v1/favorites`).
    public struct FavoriteRow: Sendable, Hashable {
        public var id: String
        public var placeID: String
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var createdMs: Int64
    }

    /// The live favorites of a library in list order, with their places' names and
    /// coordinates (favorites whose place was deleted are left out).
    public func favoriteRows(in doc: DocumentID) throws(StoreError) -> [FavoriteRow] {
        try read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT f.id, p.id AS place, p.name, p.latitude, p.longitude, f.created_ms
                    FROM entity f JOIN entity p ON p.doc = f.doc AND p.id = f.ref AND p.deleted = 0
                    WHERE f.doc = ? AND f.kind = 'favorite' AND f.deleted = 0
                    ORDER BY f.position, f.id
                    """)
            var out = [FavoriteRow]()
            let cursor = try Row.fetchCursor(statement, arguments: [Data(doc.bytes)])
            while let row = try cursor.next() {
                out.append(
                    FavoriteRow(
                        id: row[0], placeID: row[1], name: row[2] ?? "", latitude: row[3] ?? 0, longitude: row[4] ?? 0,
                        createdMs: row[5] ?? 0))
            }
            return out
        }
    }
}

extension Store {
    /// Live entities of `kind` whose id starts with `prefix` (at most `limit`): id lookup
    /// by unique prefix without loading the whole list.
    public func entities(in doc: DocumentID, kind: EntityKind, idPrefix prefix: String, limit: Int = 2)
        throws(StoreError)
        -> [EntityRecord]
    {
        try read { db in
            try Store.fetchEntities(
                db,
                "WHERE doc = ? AND \(Store.kindIs("kind")) AND deleted = 0 AND id >= ? AND id < ? ORDER BY id LIMIT ?"
            ) {
                $0.bind(doc.bytes)
                $0.bind(kind.rawValue)
                $0.bind(prefix)
                $0.bind(prefix + "~")
                $0.bind(limit)
            }
        }
    }

    /// Live entities of `kind` that reference `ref` (a favorite or stop by its place id).
    public func entities(in doc: DocumentID, kind: EntityKind, referencing ref: String) throws(StoreError)
        -> [EntityRecord]
    {
        try read { db in
            try Store.fetchEntities(
                db, "WHERE doc = ? AND \(Store.kindIs("kind")) AND deleted = 0 AND ref = ? ORDER BY position, id"
            ) {
                $0.bind(doc.bytes)
                $0.bind(kind.rawValue)
                $0.bind(ref)
            }
        }
    }

    /// Live entities of `kind` whose referenced entity is live too, in list order (the
    /// favorites a user sees).
    public func entitiesWithLiveReference(in doc: DocumentID, kind: EntityKind) throws(StoreError) -> [EntityRecord] {
        try read { db in
            try Store.fetchEntities(
                db,
                """
                JOIN entity p ON p.doc = e.doc AND p.id = e.ref AND p.deleted = 0
                WHERE e.doc = ? AND \(Store.kindIs("e.kind")) AND e.deleted = 0 ORDER BY e.position, e.id
                """
            ) {
                $0.bind(doc.bytes)
                $0.bind(kind.rawValue)
            }
        }
    }
}
