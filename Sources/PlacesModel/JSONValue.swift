/// A JSON value as stored in a field register. Integers and doubles are kept apart so that
/// money and price levels stay exact.
public enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// A number in its canonical form: whole numbers that fit an Int64 are `.int`, others
    /// `.double`. JSON text does not keep `45.0` apart from `45`, so register values always use
    /// this form and decode back to exactly what was written.
    public static func number(_ d: Double) -> JSONValue {
        if d == d.rounded(), abs(d) < 9.0e15 { return .int(Int64(d)) }
        return .double(d)
    }

    /// The string payload, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// The numeric payload as a Double, for ints and doubles.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    /// The integer payload, if this is an int.
    public var intValue: Int64? { if case .int(let i) = self { i } else { nil } }
    /// Whether this is JSON null.
    public var isNull: Bool { self == .null }

    /// A short human rendering for activity lines ("old → new").
    public var description: String {
        switch self {
        case .null: "—"
        case .bool(let b): b ? "yes" : "no"
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .string(let s): s
        case .array(let a): a.map(\.description).joined(separator: ", ")
        case .object(let o):
            if let amount = o["amountMinor"]?.intValue, let currency = o["currency"]?.stringValue {
                Money(amountMinor: amount, currency: currency).description
            } else {
                o.keys.sorted().map { "\($0): \(o[$0]!.description)" }.joined(separator: ", ")
            }
        }
    }
}
