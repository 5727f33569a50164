import Foundation
import GRDB
import PlacesModel

/// Applies the merge rules of `PlacesModel.DocumentState` to the SQLite tables, one op at
/// a time. It must stay equivalent to `DocumentState.apply`: the store tests replay random
/// ops in random orders through both and compare.
///
/// Changes are grouped by entity, so an op touching one entity costs a fixed handful of
/// statements however many fields it sets: one upsert (kind and earliest create), one read
/// of the field stamps, one write of the winning stamps and one update of the values.
enum Materializer {
    /// Fields copied into their own columns of `entity` as well as `data`, so that lists
    /// sort and join without parsing JSON: the tombstone, the list position, the referenced
    /// place, and a place's name and coordinates.
    static let promotedColumns: [String: String] = [
        "deleted": "deleted", "position": "position", "placeId": "ref", "name": "name", "latitude": "latitude",
        "longitude": "longitude",
    ]

    private struct Group {
        var kind: EntityKind
        var earliestCreate: Int?
        var sets: [(index: Int, field: String, value: JSONValue)] = []
    }

    static func apply(_ db: Database, opID: [UInt8], header: OpHeader, authorKey: String, body: OpBody) throws {
        let doc = Data(header.doc.bytes)
        let docBytes = header.doc.bytes
        let lamport = Int64(header.lamport)
        var order = [EntityID]()
        var groups = [EntityID: Group]()
        for (index, change) in body.changes.enumerated() {
            if groups[change.entity] == nil {
                order.append(change.entity)
                groups[change.entity] = Group(kind: change.kind)
            }
            groups[change.entity]!.kind = DocumentState.mergeKind(groups[change.entity]!.kind, change.kind)
            switch change {
            case .create:
                if groups[change.entity]!.earliestCreate == nil { groups[change.entity]!.earliestCreate = index }
            case .set(_, _, let field, let value, _):
                groups[change.entity]!.sets.append((index, field, value))
            }
        }

        for entity in order {
            let group = groups[entity]!
            let created = group.earliestCreate
            var exists = false
            var find = try RawStatement(db, "SELECT 1 FROM entity WHERE doc = ? AND id = ?")
            find.bind(docBytes)
            find.bind(entity)
            try find.forEachRow(db) { _ in exists = true }
            if !exists {
                // A new entity has no field stamps yet: every set wins (the last one of a field
                // in the op), and the row is written at once as the upsert and update below
                // would leave it.
                let (winnerOrder, winners) = self.winners(group.sets, lamport: header.lamport, authorKey: authorKey)
                try writeStamps(
                    db, doc: docBytes, entity: entity, lamport: lamport, authorKey: authorKey, order: winnerOrder,
                    winners: winners)
                try insertEntity(
                    db, doc: docBytes, entity: entity, kind: group.kind, timeMs: body.timeMs,
                    created: created.map { (lamport, authorKey, Int64($0)) }, order: winnerOrder, winners: winners)
                continue
            }
            var upsert = try RawStatement(
                db,
                """
                INSERT INTO entity(doc, id, kind, updated_ms, created_lamport, created_author, created_index, created_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(doc, id) DO UPDATE SET
                    kind = min(kind, excluded.kind),
                    updated_ms = max(coalesce(updated_ms, 0), excluded.updated_ms),
                    created_lamport = CASE WHEN \(earlierCreate) THEN excluded.created_lamport ELSE created_lamport END,
                    created_author = CASE WHEN \(earlierCreate) THEN excluded.created_author ELSE created_author END,
                    created_index = CASE WHEN \(earlierCreate) THEN excluded.created_index ELSE created_index END,
                    created_ms = CASE WHEN \(earlierCreate) THEN excluded.created_ms ELSE created_ms END
                """)
            upsert.bind(docBytes)
            upsert.bind(entity)
            upsert.bind(group.kind.rawValue)
            upsert.bind(body.timeMs)
            upsert.bind(created.map { _ in lamport })
            upsert.bind(created.map { _ in authorKey })
            upsert.bind(created.map { Int64($0) })
            upsert.bind(created.map { _ in body.timeMs })
            try upsert.execute(db)
            guard !group.sets.isEmpty else { continue }

            var stamps = [String: Stamp]()
            var select = try RawStatement(
                db, "SELECT name, lamport, author, idx FROM field WHERE doc = ? AND entity = ?")
            select.bind(docBytes)
            select.bind(entity)
            try select.forEachRow(db) { row in
                stamps[row.string(0)] = Stamp(
                    lamport: UInt64(row.int64(1)), author: row.string(2), index: Int(row.int64(3)))
            }
            let (winnerOrder, winners) = self.winners(
                group.sets, lamport: header.lamport, authorKey: authorKey, stamps: stamps)
            guard !winnerOrder.isEmpty else { continue }
            try writeWinners(
                db, doc: doc, entity: entity, lamport: lamport, authorKey: authorKey, order: winnerOrder,
                winners: winners)
        }

        try recordActivity(db, opID: opID, header: header, authorKey: authorKey, body: body)
    }

    /// `(new create stamp) < (current create stamp)`, or no create seen yet.
    private static let earlierCreate = """
        excluded.created_lamport IS NOT NULL AND (created_lamport IS NULL OR \
        (excluded.created_lamport, excluded.created_author, excluded.created_index) \
        < (created_lamport, created_author, created_index))
        """

    typealias Winners = [String: (index: Int, value: JSONValue)]

    /// The sets of one op on one entity that win over `stamps` (the field stamps held), with
    /// the fields in the order they are first won.
    private static func winners(
        _ sets: [(index: Int, field: String, value: JSONValue)], lamport: UInt64, authorKey: String,
        stamps: [String: Stamp] = [:]
    ) -> (order: [String], winners: Winners) {
        var stamps = stamps
        var winners = Winners()
        var winnerOrder = [String]()
        for set in sets {
            let stamp = Stamp(lamport: lamport, author: authorKey, index: set.index)
            guard DocumentState.wins(stamp, over: stamps[set.field]) else { continue }
            stamps[set.field] = stamp
            if winners[set.field] == nil { winnerOrder.append(set.field) }
            winners[set.field] = (set.index, set.value)
        }
        return (winnerOrder, winners)
    }

    private static func writeStamps(
        _ db: Database, doc: [UInt8], entity: EntityID, lamport: Int64, authorKey: String, order: [String],
        winners: Winners
    ) throws {
        for field in order {
            var stamp = try RawStatement(
                db, "INSERT OR REPLACE INTO field(doc, entity, name, lamport, author, idx) VALUES (?, ?, ?, ?, ?, ?)")
            stamp.bind(doc)
            stamp.bind(entity)
            stamp.bind(field)
            stamp.bind(lamport)
            stamp.bind(authorKey)
            stamp.bind(winners[field]!.index)
            try stamp.execute(db)
        }
    }

    /// `$."field"`, the JSON path of a field of `data`.
    private static func path(_ field: String) -> String {
        var path = Array(#"$.""#.utf8)
        path += field.utf8
        path.append(UInt8(ascii: "\""))
        return String(decoding: path, as: UTF8.self)
    }

    /// Binds the value of a promoted column.
    private static func bindPromoted(_ statement: inout RawStatement, field: String, value: JSONValue) {
        switch field {
        case "deleted": statement.bind(Int64(value == .bool(true) ? 1 : 0))
        case "latitude", "longitude":
            if let d = value.doubleValue { statement.bind(d) } else { statement.bindNull() }
        default: statement.bind(value.stringValue)
        }
    }

    /// Inserts a new entity's row as the upsert of `apply` followed by `writeWinners` would
    /// leave it: `data` is `json_set` of the empty object with the winners in order, the
    /// promoted columns of the winners set, the others at their defaults.
    private static func insertEntity(
        _ db: Database, doc: [UInt8], entity: EntityID, kind: EntityKind, timeMs: Int64,
        created: (lamport: Int64, author: String, index: Int64)?, order: [String], winners: Winners
    ) throws {
        var columns = "doc, id, kind, updated_ms, created_lamport, created_author, created_index, created_ms"
        var values = "?, ?, ?, ?, ?, ?, ?, ?"
        if !order.isEmpty {
            columns += ", data"
            values += ", json_set('{}', " + order.map { _ in "?, json(?)" }.joined(separator: ", ") + ")"
        }
        for field in order {
            if let column = promotedColumns[field] {
                columns += ", " + column
                values += ", ?"
            }
        }
        var insert = try RawStatement(db, "INSERT INTO entity(\(columns)) VALUES (\(values))")
        insert.bind(doc)
        insert.bind(entity)
        insert.bind(kind.rawValue)
        insert.bind(timeMs)
        insert.bind(created?.lamport)
        insert.bind(created?.author)
        insert.bind(created?.index)
        insert.bind(created.map { _ in timeMs })
        for field in order {
            insert.bind(path(field))
            insert.bind(winners[field]!.value.jsonText)
        }
        for field in order where promotedColumns[field] != nil {
            bindPromoted(&insert, field: field, value: winners[field]!.value)
        }
        try insert.execute(db)
    }

    private static func writeWinners(
        _ db: Database, doc: Data, entity: EntityID, lamport: Int64, authorKey: String, order: [String],
        winners: Winners
    ) throws {
        try writeStamps(
            db, doc: [UInt8](doc), entity: entity, lamport: lamport, authorKey: authorKey, order: order,
            winners: winners)

        var paths = [String]()
        var assignments = [String]()
        for field in order {
            paths.append("?, json(?)")
            if let column = promotedColumns[field] { assignments.append("\(column) = ?") }
        }
        assignments.insert("data = json_set(data, \(paths.joined(separator: ", ")))", at: 0)
        var update = try RawStatement(
            db, "UPDATE entity SET \(assignments.joined(separator: ", ")) WHERE doc = ? AND id = ?")
        for field in order {
            update.bind(path(field))
            update.bind(winners[field]!.value.jsonText)
        }
        for field in order where promotedColumns[field] != nil {
            bindPromoted(&update, field: field, value: winners[field]!.value)
        }
        update.bind([UInt8](doc))
        update.bind(entity)
        try update.execute(db)
    }

    /// One activity row per create, and per field write on an entity not created in the
    /// same op (those fields are part of "created"). Derived from the op alone, so every
    /// replica and every rebuild records the same lines.
    private static func recordActivity(
        _ db: Database, opID: [UInt8], header: OpHeader, authorKey: String, body: OpBody
    ) throws {
        var createdInOp = Set<EntityID>()
        var names = [EntityID: String]()
        for change in body.changes {
            switch change {
            case .create(let e, _): createdInOp.insert(e)
            case .set(let e, let kind, "name", .string(let n), _) where kind != .member: names[e] = n
            case .set(let e, .member, "role", .string(let r), _), .set(let e, .link, "role", .string(let r), _):
                names[e] = r
            default: break
            }
        }
        for (index, change) in body.changes.enumerated() {
            let row: (action: String, field: String?, old: String?, new: String?)
            switch change {
            case .create(let entity, let kind):
                let action =
                    switch kind {
                    case .member: entity == authorKey ? "joined" : "shared"
                    case .link: "shared"
                    default: "created"
                    }
                row = (action, nil, nil, names[entity].map { JSONValue.string($0).jsonText })
            case .set(_, .view, _, _, _):
                row = ("viewed", nil, nil, nil)
            case .set(let entity, _, let field, let value, let old):
                guard !createdInOp.contains(entity) else { continue }
                let action: String =
                    switch (change.kind, field, value) {
                    case (.member, "role", .string("left")): "left"
                    case (.member, "role", .string("removed")), (.link, "revoked", .bool(true)): "unshared"
                    case (_, "deleted", .bool(true)): "deleted"
                    case (_, "deleted", _): "restored"
                    case (_, "position", _): "moved"
                    default: "edited"
                    }
                row = (action, field, old?.jsonText, value.jsonText)
            }
            var insert = try RawStatement(
                db,
                """
                INSERT INTO activity(op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insert.bind(opID)
            insert.bind(index)
            insert.bind(header.doc.bytes)
            insert.bind(body.timeMs)
            insert.bind(Int64(header.lamport))
            insert.bind(authorKey)
            insert.bind(row.action)
            insert.bind(change.entity)
            insert.bind(change.kind.rawValue)
            insert.bind(row.field)
            insert.bind(row.old)
            insert.bind(row.new)
            try insert.execute(db)
        }
    }
}
