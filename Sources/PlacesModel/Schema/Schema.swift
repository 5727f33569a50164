/// The declared schema: every document kind, the entity kinds each holds and their fields
/// (`Protocol/op-format.md` §5). Everything that used to restate the fields by hand reads
/// them from here: the rules for local writes (`FieldRule.place`, `.itinerary`) and for ops
/// from peers (`FieldRule.fields`, `OpRules`), the store's promoted columns
/// (`promotedColumns`), activity labels and the views.
///
/// `Schema.shipped` is what this build accepts from peers. Tests may build other schemas
/// (a kind not shipped yet) and check them the same way.
public struct Schema: Sendable {
    /// The document kinds, in declared order.
    public let documents: [DocumentSchema]
    /// Every entity kind once, in the order the documents declare them.
    public let entities: [EntitySchema]
    /// Entity kinds by name.
    public let kindsByName: [String: EntityKind]
    /// The entity kinds a document of each kind holds, by the document kind's name.
    public let kindsByDocument: [String: Set<EntityKind>]
    /// The store column each promoted field (by name) is copied into.
    public let promotedColumns: [String: String]
    private let byKind: [EntityKind: EntitySchema]

    public init(_ documents: [DocumentSchema]) {
        self.documents = documents
        var entities = [EntitySchema]()
        var byKind = [EntityKind: EntitySchema]()
        var columns = [String: String]()
        for entity in documents.flatMap(\.entities) where byKind[entity.kind] == nil {
            entities.append(entity)
            byKind[entity.kind] = entity
            for field in entity.fields {
                if let column = field.column { columns[field.name] = column }
            }
        }
        self.entities = entities
        self.byKind = byKind
        self.kindsByName = Dictionary(entities.map { ($0.kind.rawValue, $0.kind) }, uniquingKeysWith: { a, _ in a })
        self.kindsByDocument = Dictionary(
            documents.map { ($0.name, Set($0.entities.map(\.kind))) }, uniquingKeysWith: { a, b in a.union(b) })
        self.promotedColumns = columns
    }

    /// The declaration of `kind`; nil when this schema does not hold it.
    public func entity(_ kind: EntityKind) -> EntitySchema? { byKind[kind] }

    /// The declaration of the document kind named `name`.
    public func document(_ name: String) -> DocumentSchema? { documents.first { $0.name == name } }

    /// The rule of every field each kind's ops may write, `deleted` included.
    public var fieldRules: [EntityKind: [String: FieldRule]] { byKind.mapValues(\.opRules) }

    /// Why one change is refused, nil when it passes (op-format §5): its kind is one the
    /// document's kind holds, its entity id has the shape of its kind, and a `set` names a
    /// field of that kind with a value (and `old` unless null) exactly as a local write
    /// stores it.
    public func refusal(of change: Change, rootID: String, documentKind: String) -> String? {
        let kind = change.kind
        // Scans of a few entries rather than hashed lookups: this runs for every change of
        // every op from a peer.
        guard let document = documents.firstIndex(where: { $0.name == documentKind }),
            let index = documents[document].entities.firstIndex(where: { $0.kind == kind })
        else {
            return "a \(documentKind) document holds no \(kind.rawValue) entities"
        }
        let entity = documents[document].entities[index]
        if let why = entity.idRefusal(change.entity, rootID: rootID, documentKind: documentKind) { return why }
        guard case .set(_, _, let field, let value, let old) = change else { return nil }
        return entity.setRefusal(field: field, value: value, old: old)
    }
}
