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
            try db.run(
                sql: """
                    INSERT INTO entity(doc, id, kind, updated_ms, created_lamport, created_author, created_index, created_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(doc, id) DO UPDATE SET
                        kind = min(kind, excluded.kind),
                        updated_ms = max(coalesce(updated_ms, 0), excluded.updated_ms),
                        created_lamport = CASE WHEN \(earlierCreate) THEN excluded.created_lamport ELSE created_lamport END,
                        created_author = CASE WHEN \(earlierCreate) THEN excluded.created_author ELSE created_author END,
                        created_index = CASE WHEN \(earlierCreate) THEN excluded.created_index ELSE created_index END,
                        created_ms = CASE WHEN \(earlierCreate) THEN excluded.created_ms ELSE created_ms END
                    """,
                arguments: [
                    doc, entity, group.kind.rawValue, body.timeMs, created.map { _ in lamport },
                    created.map { _ in authorKey }, created, created.map { _ in body.timeMs },
                ])
            guard !group.sets.isEmpty else { continue }

            var stamps = [String: Stamp]()
            let cursor = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT name, lamport, author, idx FROM field WHERE doc = ? AND entity = ?"),
                arguments: [doc, entity])
            while let row = try cursor.next() {
                stamps[row[0]] = Stamp(lamport: UInt64(row[1] as Int64), author: row[2], index: row[3])
            }
            var winners = [String: (index: Int, value: JSONValue)]()
            var winnerOrder = [String]()
            for set in group.sets {
                let stamp = Stamp(lamport: header.lamport, author: authorKey, index: set.index)
                guard DocumentState.wins(stamp, over: stamps[set.field]) else { continue }
                stamps[set.field] = stamp
                if winners[set.field] == nil { winnerOrder.append(set.field) }
                winners[set.field] = (set.index, set.value)
            }
            guard !winnerOrder.isEmpty else { continue }
            try writeWinners(db, doc: doc, entity: entity, lamport: lamport, authorKey: authorKey, order: winnerOrder, winners: winners)
        }

        try recordActivity(db, opID: opID, header: header, authorKey: authorKey, body: body)
    }

    /// `(new create stamp) < (current create stamp)`, or no create seen yet.
    private static let earlierCreate = """
        excluded.created_lamport IS NOT NULL AND (created_lamport IS NULL OR \
        (excluded.created_lamport, excluded.created_author, excluded.created_index) \
        < (created_lamport, created_author, created_index))
        """

    private static func writeWinners(
        _ db: Database, doc: Data, entity: EntityID, lamport: Int64, authorKey: String, order: [String],
        winners: [String: (index: Int, value: JSONValue)]
    ) throws {
        var stampArguments = StatementArguments()
        for field in order {
            stampArguments += [doc, entity, field, lamport, authorKey, winners[field]!.index]
        }
        let placeholders = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: order.count).joined(separator: ", ")
        try db.run(
            sql: "INSERT OR REPLACE INTO field(doc, entity, name, lamport, author, idx) VALUES \(placeholders)",
            arguments: stampArguments)

        var assignments = [String]()
        var paths = [String]()
        var valueArguments = StatementArguments()
        for field in order {
            paths.append("?, json(?)")
            let value = winners[field]!.value
            var pathBytes = Array(#"$.""#.utf8)
            pathBytes += field.utf8
            pathBytes.append(UInt8(ascii: "\""))
            valueArguments += [String(decoding: pathBytes, as: UTF8.self), value.jsonText]
        }
        assignments.append("data = json_set(data, \(paths.joined(separator: ", ")))")
        for field in order {
            guard let column = promotedColumns[field] else { continue }
            assignments.append("\(column) = ?")
            let value = winners[field]!.value
            let sqlValue: (any DatabaseValueConvertible)? =
                switch field {
                case "deleted": value == .bool(true)
                case "latitude", "longitude": value.doubleValue
                default: value.stringValue
                }
            valueArguments += [sqlValue]
        }
        valueArguments += [doc, entity]
        try db.run(
            sql: "UPDATE entity SET \(assignments.joined(separator: ", ")) WHERE doc = ? AND id = ?",
            arguments: valueArguments)
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
            case .set(let e, _, "name", .string(let n), _): names[e] = n
            default: break
            }
        }
        for (index, change) in body.changes.enumerated() {
            let row: (action: String, field: String?, old: String?, new: String?)
            switch change {
            case .create(let entity, _):
                row = ("created", nil, nil, names[entity].map { JSONValue.string($0).jsonText })
            case .set(let entity, _, let field, let value, let old):
                guard !createdInOp.contains(entity) else { continue }
                let action: String =
                    switch (field, value) {
                    case ("deleted", .bool(true)): "deleted"
                    case ("deleted", _): "restored"
                    case ("position", _): "moved"
                    default: "edited"
                    }
                row = (action, field, old?.jsonText, value.jsonText)
            }
            try db.run(
                sql: """
                    INSERT INTO activity(op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Data(opID), index, Data(header.doc.bytes), body.timeMs, Int64(header.lamport), authorKey, row.action,
                    change.entity, change.kind.rawValue, row.field, row.old, row.new,
                ])
        }
    }
}
