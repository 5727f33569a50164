/// One entity's merged state: its kind and a last-writer-wins register per field.
public struct EntityState: Hashable, Sendable {
    /// The entity's kind (if two creates disagree, the smaller raw value wins, everywhere).
    public var kind: EntityKind
    /// Current value of each field.
    public var fields: [String: JSONValue] = [:]
    /// The stamp of the write that set each field.
    public var stamps: [String: Stamp] = [:]
    /// The earliest create of this entity (nil when only field writes were seen).
    public var created: Stamp?

    public init(kind: EntityKind) { self.kind = kind }

    /// Whether the tombstone register says deleted.
    public var isDeleted: Bool { fields["deleted"] == .bool(true) }
    /// The fractional index, if the entity is a list item.
    public var position: String? { fields["position"]?.stringValue }
}

/// The merge rules of Places, as a pure state machine: the state of a document is a
/// deterministic function of the *set* of ops applied, whatever their order (a state-based
/// CRDT of LWW registers). `PlacesStore` materializes the same rules into SQLite; property
/// tests check this type, and store tests check the store against it.
public struct DocumentState: Hashable, Sendable {
    /// Every entity ever created or written, including tombstoned ones.
    public private(set) var entities: [EntityID: EntityState] = [:]

    public init() {}

    /// Applies the changes of one op with the given Lamport time and author.
    public mutating func apply(lamport: UInt64, author: AuthorKey, changes: [Change]) {
        for (index, change) in changes.enumerated() {
            let stamp = Stamp(lamport: lamport, author: author, index: index)
            var entity = entities[change.entity] ?? EntityState(kind: change.kind)
            entity.kind = DocumentState.mergeKind(entity.kind, change.kind)
            switch change {
            case .create:
                if entity.created.map({ stamp < $0 }) ?? true { entity.created = stamp }
            case .set(_, _, let field, let value, _):
                if DocumentState.wins(stamp, over: entity.stamps[field]) {
                    entity.fields[field] = value
                    entity.stamps[field] = stamp
                }
            }
            entities[change.entity] = entity
        }
    }

    /// The LWW rule: a write wins when no write was seen yet or its stamp is greater.
    @inlinable
    public static func wins(_ stamp: Stamp, over current: Stamp?) -> Bool {
        guard let current else { return true }
        return current < stamp
    }

    /// The rule for two creates that disagree on an entity's kind (only a faulty or hostile
    /// author does that): the smaller raw value, so that every daemon picks the same.
    public static func mergeKind(_ a: EntityKind, _ b: EntityKind) -> EntityKind {
        a.rawValue <= b.rawValue ? a : b
    }

    /// Live (not deleted) entities of `kind`, list items in list order: by fractional
    /// index, ties (concurrent inserts at one spot) broken by entity id.
    public func items(of kind: EntityKind) -> [(id: EntityID, state: EntityState)] {
        entities.filter { $0.value.kind == kind && !$0.value.isDeleted }
            .map { (id: $0.key, state: $0.value) }
            .sorted { a, b in
                let pa = a.state.position ?? "", pb = b.state.position ?? ""
                return pa != pb ? pa < pb : a.id < b.id
            }
    }
}
