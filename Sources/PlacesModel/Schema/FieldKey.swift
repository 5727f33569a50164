/// A declaration namespace for one entity kind: its typed field keys and its `EntitySchema`
/// (`PlaceFields`, `StopFields`, …). The namespace is what typed writes and reads name.
public protocol EntityDeclaration {
    /// The kind's declaration: its fields, in declared order.
    static var schema: EntitySchema { get }
}

/// Anything that declares a field: a `FieldSpec` or a typed `FieldKey`.
public protocol FieldDeclaration: Sendable {
    var spec: FieldSpec { get }
}

extension FieldSpec: FieldDeclaration {
    public var spec: FieldSpec { self }
}

/// A typed field of entity kind `Entity` holding values of type `Value`: the one place a
/// field is declared. `Change.set(_:of:to:old:)` and `EntityWrite` write it, `EntityFields`
/// reads it, and `Entity.schema` lists it for validation, the store and activity.
public struct FieldKey<Entity: EntityDeclaration, Value: FieldValue>: FieldDeclaration {
    public let spec: FieldSpec

    /// Declares a field (see `FieldSpec` for the parts).
    public init(
        _ name: String, _ rule: FieldRule, merge: MergeRule = .lww, column: String? = nil, label: String? = nil
    ) {
        self.spec = FieldSpec(name, rule, merge: merge, column: column, label: label)
    }

    /// A field declared once and shared by several kinds (a stop copies a place's `name`).
    public init(_ spec: FieldSpec) { self.spec = spec }

    /// The field's register name.
    public var name: String { spec.name }
    /// The kind the field belongs to.
    public var kind: EntityKind { Entity.schema.kind }
}
