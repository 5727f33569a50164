/// What an activity row records (the store's `activity.action`, the API's
/// `ActivityEntry.action`), with the exact words stored.
public enum ActivityAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// An entity was created (its fields set in the same op are part of it).
    case created
    /// A field was written.
    case edited
    /// The tombstone was set (`deleted = true`).
    case deleted
    /// The tombstone was cleared.
    case restored
    /// A list item's position was written.
    case moved
    /// A member joined through a link (its own join, or one the owner let in).
    case joined
    /// A member was added by the owner, or a link was made.
    case shared
    /// A member was removed or a link revoked.
    case unshared
    /// A member left.
    case left
    /// A member recorded a view.
    case viewed

    /// The action of a `set` of `field` to `value` on an entity of `kind` that the same op
    /// did not create, by the field's merge rule and the sharing fields' meanings.
    public static func ofSet(kind: EntityKind, field: String, value: JSONValue, schema: Schema = .shipped)
        -> ActivityAction
    {
        switch (kind, field, value) {
        case (.member, "role", .string(Role.left.rawValue)): return .left
        case (.member, "role", .string(Role.removed.rawValue)), (.link, "revoked", .bool(true)): return .unshared
        default: break
        }
        switch schema.entity(kind)?.field(field)?.merge ?? FieldSpec.mergeByName(field) {
        case .tombstone: return value == .bool(true) ? .deleted : .restored
        case .position: return .moved
        case .lww: return .edited
        }
    }
}

extension FieldSpec {
    /// The merge rule a field name has in every kind (`deleted`, `position`), for fields the
    /// schema does not declare: the store records activity for every op it keeps.
    static func mergeByName(_ name: String) -> MergeRule {
        switch name {
        case FieldSpec.deleted.name: .tombstone
        case FieldSpec.position.name: .position
        default: .lww
        }
    }
}
