/// A person's role in a shared itinerary, with the raw strings ops, the store and the control
/// API use. `owner` is never written in an op (the owner is the document's creator);
/// `removed` and `left` end a membership. "No role" is `nil`; the API writes it `"none"`
/// (`Role.noneText`).
public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    case owner, editor, viewer, removed, left

    /// The roles a `member` entity's `role` field may hold (op-format §5).
    public static let memberValues: [Role] = [.editor, .viewer, .removed, .left]
    /// The roles a `link` entity's `role` field may hold.
    public static let linkValues: [Role] = [.editor, .viewer]
    /// The roles of a current member other than the owner.
    public static let active: Set<Role> = [.editor, .viewer]

    /// How the API writes "no role".
    public static let noneText = "none"

    /// The API text of an optional role: its raw value, or `"none"`.
    public static func text(_ role: Role?) -> String { role?.rawValue ?? noneText }

    /// Whether this role may edit an itinerary's content.
    public var canEdit: Bool { self == .owner || self == .editor }
}

extension FieldRule {
    /// `oneOf` the raw values of `roles`.
    public static func oneOf(_ roles: [Role]) -> FieldRule { .oneOf(Set(roles.map(\.rawValue))) }
}

extension Role: FieldValue {
    public var jsonValue: JSONValue { .string(rawValue) }
    public init?(jsonValue: JSONValue) {
        guard let s = jsonValue.stringValue, let role = Role(rawValue: s) else { return nil }
        self = role
    }
}
