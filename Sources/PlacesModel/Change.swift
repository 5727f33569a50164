/// One change inside an op. Every change names the entity's kind, so that applying changes
/// never depends on having seen the entity's creation first (ops may arrive in any order).
public enum Change: Hashable, Sendable, Codable {
    /// Creates an entity (idempotent: a second create of the same id is a no-op).
    case create(entity: EntityID, kind: EntityKind)
    /// Sets one field of an entity, a last-writer-wins register. `old` is the value the
    /// author saw, kept for the activity log ("old → new"); it plays no part in merging.
    /// The field `deleted` (a Bool) is the tombstone, `position` (a fractional index
    /// string) orders list items.
    case set(entity: EntityID, kind: EntityKind, field: String, value: JSONValue, old: JSONValue?)

    /// The entity this change touches.
    public var entity: EntityID {
        switch self {
        case .create(let e, _), .set(let e, _, _, _, _): e
        }
    }

    /// The kind of the entity this change touches.
    public var kind: EntityKind {
        switch self {
        case .create(_, let k), .set(_, let k, _, _, _): k
        }
    }

    private enum CodingKeys: String, CodingKey { case op, entity, kind, field, value, old }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let entity = try c.decode(EntityID.self, forKey: .entity)
        let kind = try c.decode(EntityKind.self, forKey: .kind)
        switch try c.decode(String.self, forKey: .op) {
        case "create":
            self = .create(entity: entity, kind: kind)
        case "set":
            self = .set(
                entity: entity, kind: kind, field: try c.decode(String.self, forKey: .field),
                value: try c.decode(JSONValue.self, forKey: .value),
                // An explicit null `old` (the field was empty) differs from an absent one.
                old: c.contains(.old) ? try c.decode(JSONValue.self, forKey: .old) : nil)
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .op, in: c, debugDescription: "unknown change '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .create(let entity, let kind):
            try c.encode("create", forKey: .op)
            try c.encode(entity, forKey: .entity)
            try c.encode(kind, forKey: .kind)
        case .set(let entity, let kind, let field, let value, let old):
            try c.encode("set", forKey: .op)
            try c.encode(entity, forKey: .entity)
            try c.encode(kind, forKey: .kind)
            try c.encode(field, forKey: .field)
            try c.encode(value, forKey: .value)
            try c.encodeIfPresent(old, forKey: .old)
        }
    }
}

/// The plaintext of an op: when the author made it (milliseconds since the Unix epoch, the
/// author's clock, for activity only) and its changes, applied in order.
public struct OpBody: Hashable, Sendable, Codable {
    /// Author's wall-clock time in milliseconds since 1970-01-01T00:00:00Z.
    public var timeMs: Int64
    /// The changes, applied in order.
    public var changes: [Change]

    public init(timeMs: Int64, changes: [Change]) {
        self.timeMs = timeMs
        self.changes = changes
    }
}

extension OpBody {
    /// The body's JSON text, written directly (keys sorted, compact): the bytes that are
    /// encrypted into an op. Much faster than `JSONEncoder`, and `JSONDecoder` reads it back
    /// to the same value (tests check both).
    public func jsonBytes() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(64 + changes.count * 96)
        out += #"{"changes":["#.utf8
        for (i, change) in changes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            switch change {
            case .create(let entity, let kind):
                out += #"{"entity":"#.utf8
                JSONValue.writeString(entity, to: &out)
                out += #","kind":""#.utf8
                out += kind.rawValue.utf8
                out += #"","op":"create"}"#.utf8
            case .set(let entity, let kind, let field, let value, let old):
                out += #"{"entity":"#.utf8
                JSONValue.writeString(entity, to: &out)
                out += #","field":"#.utf8
                JSONValue.writeString(field, to: &out)
                out += #","kind":""#.utf8
                out += kind.rawValue.utf8
                out.append(UInt8(ascii: "\""))
                if let old {
                    out += #","old":"#.utf8
                    old.write(to: &out)
                }
                out += #","op":"set","value":"#.utf8
                value.write(to: &out)
                out.append(UInt8(ascii: "}"))
            }
        }
        out += #"],"timeMs":"#.utf8
        out += String(timeMs).utf8
        out.append(UInt8(ascii: "}"))
        return out
    }
}
