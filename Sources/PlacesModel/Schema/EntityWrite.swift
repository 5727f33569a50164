/// The changes of one write to one entity of kind `Entity`, built from typed field keys so
/// that a field name, its kind and its value type come from the declaration. The changes are
/// exactly the `create` and `set` changes a hand-built op would hold, in the order written.
///
///     var stop = EntityWrite<StopFields>.create(id)
///     stop.set(StopFields.placeID, to: place.id)
///     stop.set(StopFields.position, to: key)
///     changes += stop.changes
public struct EntityWrite<Entity: EntityDeclaration>: Sendable {
    /// The entity written.
    public let entity: EntityID
    /// The changes so far.
    public private(set) var changes: [Change]

    /// The kind written.
    public var kind: EntityKind { Entity.schema.kind }

    private init(entity: EntityID, changes: [Change]) {
        self.entity = entity
        self.changes = changes
    }

    /// A new entity: starts with its `create`.
    public static func create(_ entity: EntityID) -> EntityWrite {
        EntityWrite(entity: entity, changes: [.create(entity: entity, kind: Entity.schema.kind)])
    }

    /// Writes to an existing entity (no `create`).
    public static func update(_ entity: EntityID) -> EntityWrite { EntityWrite(entity: entity, changes: []) }

    /// Sets a field; `nil` clears it (writes JSON null). `old` is the value the author saw,
    /// for activity; nil leaves it out.
    public mutating func set<Value>(_ key: FieldKey<Entity, Value>, to value: Value?, old: Value? = nil) {
        changes.append(.set(key, of: entity, to: value, old: old))
    }

    /// Sets a field from a register value already validated (a request's fields, by name).
    public mutating func set(_ field: String, to value: JSONValue, old: JSONValue? = nil) {
        changes.append(.set(entity: entity, kind: kind, field: field, value: value, old: old))
    }

    /// Sets the tombstone: `deleted` = true, seen as false.
    public mutating func delete() { changes.append(.tombstone(entity: entity, kind: kind)) }
}

extension Change {
    /// A `create` of an entity of the declared kind.
    public static func create<Entity: EntityDeclaration>(_: Entity.Type, _ entity: EntityID) -> Change {
        .create(entity: entity, kind: Entity.schema.kind)
    }

    /// A `set` of a typed field: `nil` writes JSON null; `old` (the value the author saw) is
    /// left out when nil.
    public static func set<Entity, Value>(
        _ key: FieldKey<Entity, Value>, of entity: EntityID, to value: Value?, old: Value? = nil
    ) -> Change {
        .set(
            entity: entity, kind: Entity.schema.kind, field: key.name, value: value?.jsonValue ?? .null,
            old: old?.jsonValue)
    }

    /// The tombstone write (`Protocol/op-format.md` §6.3): `deleted` = true, seen as false.
    public static func tombstone(entity: EntityID, kind: EntityKind) -> Change {
        .set(entity: entity, kind: kind, field: FieldSpec.deleted.name, value: .bool(true), old: .bool(false))
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A typed field of an entity's stored fields; nil when absent, null or of another shape.
    public subscript<Entity, Field>(key: FieldKey<Entity, Field>) -> Field? {
        guard let value = self[key.name], !value.isNull else { return nil }
        return Field(jsonValue: value)
    }
}
