/// A JSON value as the GeoJSON importer reads it. Objects keep their members in file order
/// (they are small: a lookup scans them).
indirect enum JSONNode {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([(key: String, value: JSONNode)])

    /// The member `key` of an object (the first when a key repeats), or nil.
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The first of `keys` that is present and not null.
    func first(_ keys: String...) -> JSONNode? {
        for key in keys {
            if let value = self[key], !value.isNull { return value }
        }
        return nil
    }

    var isNull: Bool { if case .null = self { true } else { false } }

    var string: String? { if case .string(let s) = self { s } else { nil } }

    var array: [JSONNode]? { if case .array(let a) = self { a } else { nil } }

    var isObject: Bool { if case .object = self { true } else { false } }

    /// A number, or a string that holds a finite decimal number (old Takeout files write
    /// `"Latitude": "38.69"`).
    var looseNumber: Double? {
        switch self {
        case .number(let d): d
        case .string(let s): Double(s.trimmed).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// The JSON type, in words, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
