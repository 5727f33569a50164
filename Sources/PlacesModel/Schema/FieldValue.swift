/// A Swift type a field holds, with its register form. The register form is exactly what a
/// local write stores (numbers canonical, money as `{"amountMinor", "currency"}`), so a typed
/// write produces the same op bytes as the hand-built `JSONValue` it replaces.
public protocol FieldValue: Sendable {
    /// The value as a register value.
    var jsonValue: JSONValue { get }
    /// Reads a register value; nil when it has another shape.
    init?(jsonValue: JSONValue)
}

extension String: FieldValue {
    public var jsonValue: JSONValue { .string(self) }
    public init?(jsonValue: JSONValue) {
        guard let s = jsonValue.stringValue else { return nil }
        self = s
    }
}

extension Double: FieldValue {
    /// Canonical: a whole number is written as an integer (`JSONValue.number`).
    public var jsonValue: JSONValue { .number(self) }
    public init?(jsonValue: JSONValue) {
        guard let d = jsonValue.doubleValue else { return nil }
        self = d
    }
}

extension Int64: FieldValue {
    public var jsonValue: JSONValue { .int(self) }
    public init?(jsonValue: JSONValue) {
        guard let i = jsonValue.intValue else { return nil }
        self = i
    }
}

extension Bool: FieldValue {
    public var jsonValue: JSONValue { .bool(self) }
    public init?(jsonValue: JSONValue) {
        guard case .bool(let b) = jsonValue else { return nil }
        self = b
    }
}

extension Money: FieldValue {
    public init?(jsonValue: JSONValue) { self.init(jsonValue) }
}

extension [String]: FieldValue {
    public var jsonValue: JSONValue { .array(map(JSONValue.string)) }
    public init?(jsonValue: JSONValue) {
        guard case .array(let items) = jsonValue else { return nil }
        self = items.compactMap(\.stringValue)
    }
}

extension JSONValue: FieldValue {
    public var jsonValue: JSONValue { self }
    public init?(jsonValue: JSONValue) { self = jsonValue }
}
