/// How concurrent writes of a field merge (`Protocol/op-format.md` §6). Every field is a
/// last-writer-wins register of the op's stamps; the rule says what the register means to
/// the rest of the system: which column the store promotes, how activity reads it, how a
/// list orders.
public enum MergeRule: String, Sendable, Hashable {
    /// A plain last-writer-wins register (§6.2).
    case lww
    /// The list position of an ordered item: a fractional index register (§6.4). Activity
    /// reads a write as "moved".
    case position
    /// The `deleted` register (§6.3): `true` hides the entity, a later `false` restores it.
    /// Activity reads a write as "deleted" or "restored".
    case tombstone
}

/// One field of an entity kind, declared once: its name in ops, the rule its values meet
/// (for local writes and for every `set` from a peer), how it merges, the store column it is
/// promoted to, and the words activity uses for it.
public struct FieldSpec: Sendable, Hashable {
    /// The register name in ops (`"lodging.checkIn"`, `"name"`).
    public let name: String
    /// What a value must be; `FieldRule.validate` applies it.
    public let rule: FieldRule
    /// How concurrent writes merge.
    public let merge: MergeRule
    /// The `entity` table column the store copies the value into as well as `data`, so
    /// lists sort and join without parsing JSON; nil for most fields. The store promotes by
    /// field name, so a name has the same column in every kind (a test checks it).
    public let column: String?
    /// How activity names the field ("changed <label> from … to …"); the name by default.
    public let label: String

    public init(
        _ name: String, _ rule: FieldRule, merge: MergeRule = .lww, column: String? = nil, label: String? = nil
    ) {
        self.name = name
        self.rule = rule
        self.merge = merge
        self.column = column
        self.label = label ?? name
    }

    /// The tombstone every kind carries (§6.3).
    public static let deleted = FieldSpec("deleted", .bool, merge: .tombstone, column: "deleted")
    /// The position of an ordered list item (§6.4).
    public static let position = FieldSpec("position", .position, merge: .position, column: "position")
    /// The library place a stop or favorite refers to (promoted to `ref` for joins).
    public static let placeID = FieldSpec("placeId", .entityID, column: "ref")

    /// The JSON shape a stored value has, derived from the rule (what views read).
    public var valueType: FieldValueType { rule.valueType }
}

/// The JSON shape of a stored field value.
public enum FieldValueType: String, Sendable, Hashable {
    case string, number, integer, bool, money, strings
    /// A JSON object other than money (a rate table, an expense's terms).
    case object
}

extension FieldRule {
    /// The JSON shape of the values this rule stores.
    public var valueType: FieldValueType {
        switch self {
        case .text, .url, .date, .position, .entityID, .key, .oneOf, .timestamp, .token, .username, .localDateTime,
            .timeZone, .currency, .gazetteerID, .signature, .hostPort:
            .string
        case .optional(let inner): inner.valueType
        case .latitude, .longitude, .rating: .number
        case .priceLevel, .count, .wholeNumber: .integer
        case .bool: .bool
        case .money: .money
        case .categories, .keys: .strings
        case .rateTable, .expenseTerms, .photos: .object
        }
    }
}
