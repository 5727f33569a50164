import Foundation
import GRDB
import PlacesModel

/// Applies the merge rules of `PlacesModel.DocumentState` to the SQLite tables, one op at
/// a time. It must stay equivalent to `DocumentState.apply`: the store tests replay random
/// ops in random orders through both and compare.
enum Materializer {
    /// Fields copied into their own columns of `entity` as well as `data`, so that lists
    /// sort and join without parsing JSON: the tombstone, the list position, the referenced
    /// place, and a place's name and coordinates.
    static let promotedColumns: [String: String] = [
        "deleted": "deleted", "position": "position", "placeId": "ref", "name": "name", "latitude": "latitude",
        "longitude": "longitude",
    ]

    static func apply(_ db: Database, opID: [UInt8], header: OpHeader, authorKey: String, body: OpBody) throws {
        let doc = Data(header.doc.bytes)
        let lamport = Int64(header.lamport)
        let createdInOp = Set(body.changes.compactMap { if case .create(let e, _) = $0 { e } else { nil } })
        var names: [EntityID: String] = [:]
        for change in body.changes {
            if case .set(let e, _, "name", .string(let n), _) = change { names[e] = n }
        }
        for (index, change) in body.changes.enumerated() {
            let stamp = Stamp(lamport: header.lamport, author: authorKey, index: index)
            try db.run(sql:  """
                        INSERT INTO entity(doc, id, kind, updated_ms) VALUES (?, ?, ?, ?)
                        ON CONFLICT(doc, id) DO UPDATE SET kind = min(kind, excluded.kind),
                            updated_ms = max(coalesce(updated_ms, 0), excluded.updated_ms)
                        """,
                arguments: [doc, change.entity, change.kind.rawValue, body.timeMs])
            switch change {
            case .create(let entity, let kind):
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT created_lamport, created_author, created_index FROM entity WHERE doc = ? AND id = ?"),
                    arguments: [doc, entity])
                let current: Stamp? = row.flatMap { r in
                    guard let l = r[0] as Int64? else { return nil }
                    return Stamp(lamport: UInt64(l), author: r[1], index: r[2])
                }
                if current.map({ stamp < $0 }) ?? true {
                    try db.run(sql:  """
                                UPDATE entity SET created_lamport = ?, created_author = ?, created_index = ?, created_ms = ?
                                WHERE doc = ? AND id = ?
                                """,
                        arguments: [lamport, authorKey, index, body.timeMs, doc, entity])
                }
                try recordActivity(
                    db, opID: opID, index: index, header: header, authorKey: authorKey, timeMs: body.timeMs,
                    action: "created", entity: entity, kind: kind, field: nil, old: nil,
                    new: names[entity].map { JSONValue.string($0).jsonText })
            case .set(let entity, let kind, let field, let value, let old):
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT lamport, author, idx FROM field WHERE doc = ? AND entity = ? AND name = ?"),
                    arguments: [doc, entity, field])
                let current = row.map { Stamp(lamport: UInt64($0[0] as Int64), author: $0[1], index: $0[2]) }
                if DocumentState.wins(stamp, over: current) {
                    try db.run(sql:  "INSERT OR REPLACE INTO field(doc, entity, name, lamport, author, idx) VALUES (?, ?, ?, ?, ?, ?)",
                        arguments: [doc, entity, field, lamport, authorKey, index])
                    let text = value.jsonText
                    try db.run(sql:  "UPDATE entity SET data = json_set(data, '$.\"' || ? || '\"', json(?)) WHERE doc = ? AND id = ?",
                        arguments: [field, text, doc, entity])
                    if let column = promotedColumns[field] {
                        let sqlValue: (any DatabaseValueConvertible)? =
                            switch field {
                            case "deleted": value == .bool(true)
                            case "latitude", "longitude": value.doubleValue
                            default: value.stringValue
                            }
                        try db.run(
                            sql: "UPDATE entity SET \(column) = ? WHERE doc = ? AND id = ?", arguments: [sqlValue, doc, entity])
                    }
                }
                // Fields written together with the entity's creation are part of "created".
                guard !createdInOp.contains(entity) else { continue }
                let action: String =
                    switch (field, value) {
                    case ("deleted", .bool(true)): "deleted"
                    case ("deleted", _): "restored"
                    case ("position", _): "moved"
                    default: "edited"
                    }
                try recordActivity(
                    db, opID: opID, index: index, header: header, authorKey: authorKey, timeMs: body.timeMs,
                    action: action, entity: entity, kind: kind, field: field, old: old?.jsonText, new: value.jsonText)
            }
        }
    }

    static func recordActivity(
        _ db: Database, opID: [UInt8], index: Int, header: OpHeader, authorKey: String, timeMs: Int64, action: String,
        entity: EntityID, kind: EntityKind, field: String?, old: String?, new: String?
    ) throws {
        try db.run(sql:  """
                    INSERT INTO activity(op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
            arguments: [
                Data(opID), index, Data(header.doc.bytes), timeMs, Int64(header.lamport), authorKey, action, entity,
                kind.rawValue, field, old, new,
            ])
    }
}
