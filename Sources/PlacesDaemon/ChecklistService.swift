import PlacesCrypto
import PlacesModel
import PlacesStore

/// The itinerary's shared checklist (packing, to do): lines with a checked state, an
/// optional list name and an optional assignee among the members. Requests are checked and
/// turned into edits; the engine commits them.
struct ChecklistService {
    let store: Store
    let doc: Store.DocumentRecord

    /// The live lines, in list order.
    func lines() throws -> [Store.EntityRecord] {
        try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: .checklistItem) }
    }

    /// The API object of a line (`ChecklistItem`).
    static func json(_ record: Store.EntityRecord, position: Int, displayName: (PublicKey) -> String?) -> JSONValue {
        let f = Views.fields(record)
        typealias C = ChecklistItemFields
        var o: [String: JSONValue] = [
            "id": .string(record.id), "text": .string(f[C.text] ?? ""), "checked": .bool(f[C.checked] ?? false),
            "position": .int(Int64(position)), "createdAt": .string(RFC3339.string(ms: record.createdMs ?? 0)),
        ]
        if let list = f[C.list] { o["list"] = .string(list) }
        if let hex = f[C.assignee], let key = Engine.publicKey(hex: hex) {
            o["assignee"] = .string(key.humanID)
            if let name = displayName(key) { o["assigneeName"] = .string(name) }
        }
        if let updated = record.updatedMs { o["updatedAt"] = .string(RFC3339.string(ms: updated)) }
        return .object(o)
    }

    func add(_ body: [String: JSONValue]) throws -> (edit: Edit, id: String) {
        var object = body
        if object[ChecklistItemFields.checked.name] == nil { object[ChecklistItemFields.checked.name] = .bool(false) }
        try resolveAssignee(&object)
        let fields = try validated(object, creating: true)
        let id = EntityLookup.newID()
        var changes: [Change] = [.create(entity: id, kind: .checklistItem)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id, kind: .checklistItem, field: field, value: value, old: nil))
        }
        let key = try ItemService.keyAtEnd(of: try lines().compactMap(\.position))
        changes.append(.set(ChecklistItemFields.position, of: id, to: key))
        return (Edit(doc: doc.id, changes: changes, summary: "checklist item added"), id)
    }

    func update(_ reference: String, _ body: [String: JSONValue]) throws -> Edit? {
        let record = try line(reference)
        var object = body
        try resolveAssignee(&object)
        let fields = try validated(object, creating: false)
        let current = Views.fields(record)
        let changes: [Change] = fields.compactMap { field, value in
            let old = current[field] ?? .null
            guard old != value else { return nil }
            return .set(entity: record.id, kind: .checklistItem, field: field, value: value, old: old)
        }
        guard !changes.isEmpty else { return nil }
        return Edit(doc: doc.id, changes: changes, summary: "checklist item edited")
    }

    func remove(_ reference: String) throws -> Edit {
        let record = try line(reference)
        return Edit(
            doc: doc.id, changes: [.tombstone(entity: record.id, kind: .checklistItem)],
            summary: "checklist item removed")
    }

    func move(_ reference: String, to position: Int) throws -> Edit? {
        let record = try line(reference)
        let others = try lines().filter { $0.id != record.id }
        let key = try ItemService.valid(try EntityLookup.positionKey(at: position, among: others), at: position)
        guard key != record.position else { return nil }
        return Edit(
            doc: doc.id,
            changes: [.set(ChecklistItemFields.position, of: record.id, to: key, old: record.position)],
            summary: "checklist item moved")
    }

    func line(_ reference: String) throws -> Store.EntityRecord {
        try ItemService.find(reference, in: try lines(), what: "checklist item of this itinerary")
    }

    /// `assignee` as given (a member's human id or 64 hex) becomes the stored key hex; it
    /// must be the owner or an active member.
    private func resolveAssignee(_ object: inout [String: JSONValue]) throws {
        guard let value = object["assignee"], !value.isNull else { return }
        guard let text = value.stringValue else {
            throw ServiceError.invalid("assignee", "'assignee' must be a member's id (or null)")
        }
        let key: PublicKey
        if let k = Engine.publicKey(hex: text.lowercased()) {
            key = k
        } else {
            do { key = try HumanID.decode(text) } catch {
                throw ServiceError.invalid("assignee", "'\(text.prefix(80))' is not a valid id: \(error.message)")
            }
        }
        let role = try ServiceError.storing { () throws(StoreError) in try store.currentRole(of: key, in: doc.id) }
        guard let role, role == "owner" || Store.activeRoles.contains(role) else {
            throw ServiceError.invalid("assignee", "\(key.humanID.prefix(15))… is not a member of this itinerary")
        }
        object["assignee"] = .string(key.hex)
    }

    private func validated(_ object: [String: JSONValue], creating: Bool) throws -> [(String, JSONValue)] {
        do {
            return try ChecklistItemFields.schema.validatedFields(object, creating: creating)
        } catch {
            throw ServiceError.invalid(error.field, error.message)
        }
    }
}
