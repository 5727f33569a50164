/// One entity kind, declared once: its name, the shape of its ids, and its fields. Field
/// rules for local writes and for ops from peers, the store's promoted columns and the
/// activity wording are all read from these declarations (`Schema`).
public struct EntitySchema: Sendable {
    /// What an entity id of this kind looks like (`Protocol/op-format.md` §5).
    public enum IDShape: Sendable, Hashable {
        /// The root entity: its id is the document id in hex.
        case root
        /// A member's Ed25519 public key: 64 lowercase hex characters.
        case publicKey
        /// 16 random bytes: 32 lowercase hex characters other than the document id.
        case random
        /// One id for every entity of the kind (one per document): these 32 lowercase hex.
        case fixed(String)
        /// A message: in an outbox, 16 random bytes (`random`); in an itinerary (a trip's
        /// conversation), 24 bytes made of its author and nonce, 48 lowercase hex characters —
        /// a length no other kind's ids have, so no change declaring another kind can name a
        /// trip message (`Protocol/sync.md` §8.1).
        case message
    }

    /// The length of a trip message's id, in lowercase hex characters.
    public static let tripMessageIDLength = 48

    /// The kind's name in ops.
    public let kind: EntityKind
    /// The shape of its ids.
    public let id: IDShape
    /// The declared fields in declared order, then the tombstone `deleted` every kind has.
    public let fields: [FieldSpec]
    /// Every field by name, `deleted` included.
    public let fieldsByName: [String: FieldSpec]
    /// The rule of every field an op may write, `deleted` included.
    public let opRules: [String: FieldRule]
    /// The rules of the fields a request body may write: the declared fields without the
    /// tombstone (deletes write it) and list positions (moves write them).
    public let requestRules: [String: FieldRule]

    /// Declares a kind. `deleted` (a tombstone) is added: every kind carries it.
    public init(_ kind: EntityKind, id: IDShape, fields: [any FieldDeclaration]) {
        let declared = fields.map(\.spec)
        self.kind = kind
        self.id = id
        self.fields = declared + [FieldSpec.deleted]
        self.fieldsByName = Dictionary(self.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.opRules = fieldsByName.mapValues(\.rule)
        self.requestRules = Dictionary(
            declared.filter { $0.merge == .lww }.map { ($0.name, $0.rule) }, uniquingKeysWith: { first, _ in first })
    }

    /// The field named `name`, if the kind has it.
    public func field(_ name: String) -> FieldSpec? { fieldsByName[name] }

    /// How activity names field `name` (its declared label; the name itself when unknown).
    public func label(of name: String) -> String { fieldsByName[name]?.label ?? name }

    /// Why `entity` cannot be an id of this kind in the document whose id is `rootID` (of kind
    /// `documentKind`), nil when it can (op-format §5).
    public func idRefusal(_ entity: EntityID, rootID: String, documentKind: String = "") -> String? {
        switch id {
        case .message where documentKind == "itinerary":
            guard FieldRule.isLowerHex(entity, count: Self.tripMessageIDLength) else {
                return "a trip message's id must be \(Self.tripMessageIDLength) lowercase hex characters (sync.md §8.1)"
            }
        case .message:
            guard FieldRule.isLowerHex(entity, count: 32), entity != rootID else {
                return "a message's id must be 32 lowercase hex characters other than the document id"
            }
        case .root:
            guard entity == rootID else { return "a \(kind.rawValue) entity must be the root (id = document id)" }
        case .publicKey:
            guard FieldRule.isLowerHex(entity, count: 64) else {
                return "a \(kind.rawValue) entity id must be a public key in lowercase hex"
            }
        case .random:
            guard FieldRule.isLowerHex(entity, count: 32), entity != rootID else {
                return "a \(kind.rawValue) entity id must be 32 lowercase hex characters other than the document id"
            }
        case .fixed(let id):
            guard entity == id else { return "a \(kind.rawValue) entity id must be \(id)" }
        }
        return nil
    }

    /// Why a `set` of `field` to `value` (with the author's `old`) is refused, nil when it
    /// passes: the field is one of this kind's, and `value` (and `old` unless null) is
    /// exactly what a local write of that field stores.
    public func setRefusal(field: String, value: JSONValue, old: JSONValue?) -> String? {
        guard let rule = opRules[field] else {
            return "a \(kind.rawValue) has no field '\(field.prefix(64))'"
        }
        do throws(FieldError) {
            guard try rule.validate(field, value) == value else {
                return "'\(field)' is not written as a local write stores it"
            }
            if let old, !old.isNull, try rule.validate(field, old) != old {
                return "the old value of '\(field)' is not written as a local write stores it"
            }
        } catch {
            return error.message
        }
        return nil
    }

    /// Validates a request object against the request rules (see
    /// `FieldRule.validatedFields`): the stored fields in a stable order.
    public func validatedFields(_ object: [String: JSONValue], creating: Bool, ignoring: Set<String> = [])
        throws(FieldError) -> [(String, JSONValue)]
    {
        try FieldRule.validatedFields(object, rules: requestRules, creating: creating, ignoring: ignoring)
    }
}
