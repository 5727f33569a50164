import Foundation
import GRDB
import PlacesModel

/// Applies the merge rules of `PlacesModel.DocumentState` to the SQLite tables, one op at
/// a time. It must stay equivalent to `DocumentState.apply`: the store tests replay random
/// ops in random orders through both and compare.
///
/// Changes are grouped by entity, so an op touching one entity costs one or three
/// statements however many fields it sets: a new entity is one insert (values, promoted
/// columns and field stamps); for an existing one that insert does nothing, and a read of
/// the row's stamps and earliest create and one update follow. The field stamps live in the
/// entity row (`stamps`, see `Stamps`), so an op dirties no B-tree of its own for them.
enum Materializer {
    /// Fields copied into their own columns of `entity` as well as `data`, so that lists
    /// sort and join without parsing JSON: the tombstone, the list position, the referenced
    /// place, names and coordinates (`FieldSpec.column` in the declared schema).
    static let promotedColumns: [String: String] = PlacesModel.Schema.shipped.promotedColumns

    struct Group: Sendable {
        var kind: EntityKind
        var earliestCreate: Int?
        var sets: [(index: Int, field: String, value: JSONValue)] = []
    }

    /// What applying one op writes, worked out without the database: the op's changes
    /// grouped by entity, the insert of each entity as if it were new (the common case),
    /// and the activity rows. Pure, so appends compute it on another core next to the
    /// signature (`Store.append`); `apply(_:_:)` then only runs SQL.
    struct Plan: Sendable {
        struct Entity: Sendable {
            var id: EntityID
            var group: Group
            var insert: (sql: String, values: [SQLValue])
        }
        var header: OpHeader
        var authorKey: String
        var timeMs: Int64
        var entities: [Entity]
        var activity: [[SQLValue]]
    }

    /// `authorKey` is the signing key (it orders registers); `person`, who it acts for when it
    /// is a device (`Protocol/devices.md` §4.2), is who activity names.
    static func plan(opID: [UInt8], header: OpHeader, authorKey: String, person: String? = nil, body: OpBody) -> Plan {
        let lamport = Int64(header.lamport)
        var entities = SlotIndex<EntityID>()
        var groups = [Group]()
        for (index, change) in body.changes.enumerated() {
            let slot: Int
            if let found = entities.slot(of: change.entity) {
                slot = found
            } else {
                slot = entities.add(change.entity)
                groups.append(Group(kind: change.kind))
            }
            groups[slot].kind = DocumentState.mergeKind(groups[slot].kind, change.kind)
            switch change {
            case .create:
                if groups[slot].earliestCreate == nil { groups[slot].earliestCreate = index }
            case .set(_, _, let field, let value, _):
                groups[slot].sets.append((index, field, value))
            }
        }
        let planned = zip(entities.keys, groups).map { entity, group -> Plan.Entity in
            // A new entity has no field stamps yet: every set wins (the last one of a field in
            // the op), and the row is written at once as the update below would leave it.
            let insert = insertEntity(
                doc: header.doc.bytes, entity: entity, kind: group.kind, timeMs: body.timeMs,
                created: group.earliestCreate.map { (lamport, authorKey, Int64($0)) },
                winners: newWinners(group.sets), lamport: header.lamport, authorKey: authorKey)
            return Plan.Entity(id: entity, group: group, insert: insert)
        }
        return Plan(
            header: header, authorKey: authorKey, timeMs: body.timeMs, entities: planned,
            activity: activityRows(opID: opID, header: header, authorKey: person ?? authorKey, body: body))
    }

    static func apply(
        _ db: Database, opID: [UInt8], header: OpHeader, authorKey: String, person: String? = nil, body: OpBody
    ) throws {
        try apply(db, plan(opID: opID, header: header, authorKey: authorKey, person: person, body: body))
    }

    static func apply(_ db: Database, _ plan: Plan) throws {
        let header = plan.header, authorKey = plan.authorKey
        let docBytes = header.doc.bytes
        let lamport = Int64(header.lamport)
        for planned in plan.entities {
            // The insert does nothing when the row exists; then the op is merged into it.
            var insert = try RawStatement(db, planned.insert.sql)
            for value in planned.insert.values { insert.bind(value) }
            try insert.execute(db)
            if db.changesCount > 0 {
                if planned.group.kind == .message {
                    try MessageShown.show(
                        db, doc: header.doc, id: planned.id,
                        createdMs: planned.group.earliestCreate == nil ? 0 : plan.timeMs)
                }
                continue
            }
            let entity = planned.id, group = planned.group
            let created = group.earliestCreate
            var stamps = [String: Stamp]()
            var earlier = created != nil
            var held: (kind: String, createdMs: Int64) = ("", 0)
            var select = try RawStatement(
                db,
                """
                SELECT stamps, created_lamport, created_author, created_index, kind, coalesce(created_ms, 0)
                FROM entity WHERE doc = ? AND id = ?
                """)
            select.bind(docBytes)
            select.bind(entity)
            try select.forEachRow(db) { row in
                stamps = row.withText(0) { Stamps.decode($0) }
                if let index = created, !row.isNull(1) {
                    let current = Stamp(
                        lamport: UInt64(row.int64(1)), author: row.string(2), index: Int(row.int64(3)))
                    earlier = Stamp(lamport: header.lamport, author: authorKey, index: index) < current
                }
                held = (row.string(4), row.int64(5))
            }
            let (winnerOrder, winners, newStampsAll) = self.winners(
                group.sets, lamport: header.lamport, authorKey: authorKey, stamps: stamps)
            let newCreated = earlier ? created.map { (lamport, authorKey, Int64($0)) } : nil
            try updateEntity(
                db, doc: docBytes, entity: entity, kind: group.kind, timeMs: plan.timeMs, created: newCreated,
                order: winnerOrder, winners: winners, stamps: newStampsAll)
            // The row's kind (`min(kind, ?)`) and creation time as the update left them.
            let message = EntityKind.message.rawValue
            let kind = held.kind <= group.kind.rawValue ? held.kind : group.kind.rawValue
            if held.kind == message || kind == message {
                try MessageShown.move(
                    db, doc: header.doc, id: entity, from: held.kind == message ? held.createdMs : nil,
                    to: kind == message ? (newCreated == nil ? held.createdMs : plan.timeMs) : nil)
            }
        }
        for row in plan.activity {
            var insert = try RawStatement(
                db,
                """
                INSERT INTO activity(op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for value in row { insert.bind(value) }
            try insert.execute(db)
        }
    }

    typealias Winners = [String: (index: Int, value: JSONValue)]

    /// The sets of one op on one entity that win over `stamps` (the field stamps held), with
    /// the fields in the order they are first won, and the stamps held after them.
    private static func winners(
        _ sets: [(index: Int, field: String, value: JSONValue)], lamport: UInt64, authorKey: String,
        stamps: [String: Stamp] = [:]
    ) -> (order: [String], winners: Winners, stamps: [String: Stamp]) {
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
        return (winnerOrder, winners, stamps)
    }

    /// `$."field"`, the JSON path of a field of `data`.
    private static func path(_ field: String) -> String {
        var path = Array(#"$.""#.utf8)
        path += field.utf8
        path.append(UInt8(ascii: "\""))
        return String(decoding: path, as: UTF8.self)
    }

    /// The value of a promoted column.
    private static func promoted(field: String, value: JSONValue) -> SQLValue {
        switch field {
        case "deleted": .int(value == .bool(true) ? 1 : 0)
        case "latitude", "longitude": value.doubleValue.map { .double($0) } ?? .null
        default: SQLValue(value.stringValue)
        }
    }

    /// The sets of one op on a new entity that win, in the order their fields are first set:
    /// with no stamps held, the last set of each field in the op.
    private static func newWinners(_ sets: [(index: Int, field: String, value: JSONValue)]) -> [Winner] {
        var fields = SlotIndex<String>()
        var winners = [Winner]()
        for set in sets {
            if let slot = fields.slot(of: set.field) {
                winners[slot] = (set.field, set.index, set.value)
            } else {
                _ = fields.add(set.field)
                winners.append((set.field, set.index, set.value))
            }
        }
        return winners
    }

    /// A field's winning set in an op.
    typealias Winner = (field: String, index: Int, value: JSONValue)

    /// The text `json_set('{}', '$."f1"', json(v1), …)` gives for the winners in order
    /// (`{"f1":v1,…}`: SQLite copies a quoted path label and the compact JSON of a value
    /// verbatim), built without SQLite's JSON parser; nil when a field name is not plain (a
    /// quote, backslash or control character), left to `json_set`.
    static func newData(_ winners: [Winner]) -> String? {
        var out = [UInt8]()
        out.append(UInt8(ascii: "{"))
        for (i, winner) in winners.enumerated() {
            for b in winner.field.utf8 where b < 0x20 || b == 0x22 || b == 0x5C { return nil }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(0x22)
            out += winner.field.utf8
            out += "\":".utf8
            winner.value.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The insert of a new entity's row, which does nothing when the entity has one: `data`
    /// is `json_set` of the empty object with the winners in order, the promoted columns of
    /// the winners set, the others at their defaults, and the winners' stamps.
    private static func insertEntity(
        doc: [UInt8], entity: EntityID, kind: EntityKind, timeMs: Int64,
        created: (lamport: Int64, author: String, index: Int64)?, winners: [Winner], lamport: UInt64,
        authorKey: String
    ) -> (sql: String, values: [SQLValue]) {
        var columns = "doc, id, kind, updated_ms, created_lamport, created_author, created_index, created_ms, stamps"
        var values = "?, ?, ?, ?, ?, ?, ?, ?, ?"
        let data = winners.isEmpty ? nil : newData(winners)
        if data != nil {
            columns += ", data"
            values += ", ?"
        } else if !winners.isEmpty {
            columns += ", data"
            values += ", json_set('{}', " + winners.map { _ in "?, json(?)" }.joined(separator: ", ") + ")"
        }
        let promoted = winners.compactMap { winner in promotedColumns[winner.field].map { ($0, winner) } }
        for (column, _) in promoted {
            columns += ", " + column
            values += ", ?"
        }
        let stamps = winners.map { ($0.field, Stamp(lamport: lamport, author: authorKey, index: $0.index)) }
        var bound: [SQLValue] = [
            .blob(doc), .text(entity), .text(kind.rawValue), .int(timeMs), SQLValue(created?.lamport),
            SQLValue(created?.author), SQLValue(created?.index), SQLValue(created.map { _ in timeMs }),
            .text(Stamps.encode(stamps)),
        ]
        if let data {
            bound.append(.text(data))
        } else {
            for winner in winners {
                bound.append(.text(path(winner.field)))
                bound.append(.text(winner.value.jsonText))
            }
        }
        for (_, winner) in promoted { bound.append(Self.promoted(field: winner.field, value: winner.value)) }
        return ("INSERT INTO entity(\(columns)) VALUES (\(values)) ON CONFLICT(doc, id) DO NOTHING", bound)
    }

    /// Merges an op's changes into an existing entity's row: the kind, the last update time,
    /// the earliest create when `created` is earlier than the row's, and the winning sets
    /// (values, promoted columns and stamps).
    private static func updateEntity(
        _ db: Database, doc: [UInt8], entity: EntityID, kind: EntityKind, timeMs: Int64,
        created: (lamport: Int64, author: String, index: Int64)?, order: [String], winners: Winners,
        stamps: [String: Stamp]
    ) throws {
        var assignments = ["kind = min(kind, ?)", "updated_ms = max(coalesce(updated_ms, 0), ?)"]
        if created != nil {
            assignments += ["created_lamport = ?", "created_author = ?", "created_index = ?", "created_ms = ?"]
        }
        if !order.isEmpty {
            assignments.append(
                "data = json_set(data, " + order.map { _ in "?, json(?)" }.joined(separator: ", ") + ")")
            for field in order {
                if let column = promotedColumns[field] { assignments.append("\(column) = ?") }
            }
            assignments.append("stamps = ?")
        }
        var update = try RawStatement(
            db, "UPDATE entity SET \(assignments.joined(separator: ", ")) WHERE doc = ? AND id = ?")
        update.bind(kind.rawValue)
        update.bind(timeMs)
        if let created {
            update.bind(created.lamport)
            update.bind(created.author)
            update.bind(created.index)
            update.bind(timeMs)
        }
        if !order.isEmpty {
            for field in order {
                update.bind(path(field))
                update.bind(winners[field]!.value.jsonText)
            }
            for field in order where promotedColumns[field] != nil {
                update.bind(promoted(field: field, value: winners[field]!.value))
            }
            update.bind(Stamps.encode(stamps))
        }
        update.bind(doc)
        update.bind(entity)
        try update.execute(db)
    }

    /// One activity row per create, and per field write on an entity not created in the
    /// same op (those fields are part of "created"). Derived from the op alone, so every
    /// replica and every rebuild records the same lines.
    private static func activityRows(opID: [UInt8], header: OpHeader, authorKey: String, body: OpBody)
        -> [[SQLValue]]
    {
        // What the op says of each entity it touches, and the slot of each change's entity.
        var entities = SlotIndex<EntityID>()
        var facts = [(created: Bool, admitted: Bool, name: String?)]()
        var slots = [Int]()
        slots.reserveCapacity(body.changes.count)
        for change in body.changes {
            let slot: Int
            if let found = entities.slot(of: change.entity) {
                slot = found
            } else {
                slot = entities.add(change.entity)
                facts.append((false, false, nil))
            }
            slots.append(slot)
            switch change {
            case .create: facts[slot].created = true
            // A member written with a token in this op: a join through a link (own or admitted).
            case .set(_, .member, "token", _, _): facts[slot].admitted = true
            case .set(_, let kind, "name", .string(let n), _) where kind != .member: facts[slot].name = n
            case .set(_, .member, "role", .string(let r), _), .set(_, .link, "role", .string(let r), _):
                facts[slot].name = r
            default: break
            }
        }
        var rows = [[SQLValue]]()
        // A device's certificate and revocations, and the person's own tables mirrored into
        // the library (friends, contacts, saved trips, settings), are housekeeping, not activity.
        for (index, change) in body.changes.enumerated() where !change.kind.isHousekeeping {
            let fact = facts[slots[index]]
            let row: (action: ActivityAction, field: String?, old: String?, new: String?)
            switch change {
            case .create(let entity, let kind):
                let action: ActivityAction =
                    switch kind {
                    case .member: entity == authorKey || fact.admitted ? .joined : .shared
                    case .link: .shared
                    default: .created
                    }
                row = (action, nil, nil, fact.name.map { JSONValue.string($0).jsonText })
            case .set(_, .view, _, _, _):
                row = (.viewed, nil, nil, nil)
            case .set(_, let kind, let field, let value, let old):
                guard !fact.created else { continue }
                row = (
                    ActivityAction.ofSet(kind: kind, field: field, value: value), field, old?.jsonText, value.jsonText
                )
            }
            rows.append([
                .blob(opID), .int(Int64(index)), .blob(header.doc.bytes), .int(body.timeMs),
                .int(Int64(header.lamport)),
                .text(authorKey), .text(row.action.rawValue), .text(change.entity), .text(change.kind.rawValue),
                SQLValue(row.field), SQLValue(row.old), SQLValue(row.new),
            ])
        }
        return rows
    }
}
