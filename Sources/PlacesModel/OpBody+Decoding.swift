extension OpBody {
    /// Reads a body written by `jsonBytes()` (the form placesd writes: compact, keys in that
    /// order), without a general JSON parser. Returns nil for anything else — other key
    /// orders, whitespace, unknown keys, escapes in strings, objects and arrays as values
    /// (unless `nesting` allows them),
    /// invalid UTF-8, an unknown kind — and the caller then reads the body with a JSON parser
    /// (`Protocol/op-format.md` §4 requires accepting any JSON spelling).
    ///
    /// When it returns a body, it is the body a JSON parser reads from the same bytes:
    /// strings are taken as they are (no escapes, valid UTF-8, no control characters),
    /// `true`/`false`/`null` and plain integers (at most 18 digits, no `-0`) as themselves. Any
    /// other number is handed to `number`, which must read it as the JSON parser would
    /// (nil to give up).
    ///
    /// A change's value (or old value) that is an object or an array is read by
    /// `JSONValue.parsePrefix` when it nests at most `nesting` levels (none by default): the
    /// values `JSONDecoder` gives (an expense's terms nest, and every read of a trip's
    /// expenses opened its ops).
    public init?(canonicalJSON bytes: [UInt8], nesting: Int = 0, number: ([UInt8]) -> JSONValue? = { _ in nil }) {
        let parsed: OpBody? = withoutActuallyEscaping(number) { number in
            bytes.withUnsafeBufferPointer { buffer in
                var reader = CanonicalReader(bytes: buffer, nesting: nesting, number: number)
                return reader.body()
            }
        }
        guard let parsed else { return nil }
        self = parsed
    }
}

/// The reader behind `OpBody(canonicalJSON:)`: every method returns nil (or false) at the
/// first byte that is not the canonical form.
private struct CanonicalReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let nesting: Int
    let number: ([UInt8]) -> JSONValue?
    var offset = 0

    mutating func body() -> OpBody? {
        guard literal(#"{"changes":["#) else { return nil }
        var changes = [Change]()
        if peek() != UInt8(ascii: "]") {
            while true {
                guard let change = change() else { return nil }
                changes.append(change)
                if peek() == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                break
            }
        }
        guard literal(#"],"timeMs":"#), case .int(let timeMs)? = integer(otherNumbers: false), literal("}"),
            offset == bytes.count
        else { return nil }
        return OpBody(timeMs: timeMs, changes: changes)
    }

    mutating func change() -> Change? {
        guard literal(#"{"entity":"#), let entity = string() else { return nil }
        if literal(#","kind":""#) {
            guard let kind = kind(), literal(#"","op":"create"}"#) else { return nil }
            return .create(entity: entity, kind: kind)
        }
        guard literal(#","field":"#), let field = string(), literal(#","kind":""#), let kind = kind(),
            literal(#"""#)
        else { return nil }
        var old: JSONValue?
        if literal(#","old":"#) {
            guard let value = value() else { return nil }
            old = value
        }
        guard literal(#","op":"set","value":"#), let value = value(), literal("}") else { return nil }
        return .set(entity: entity, kind: kind, field: field, value: value, old: old)
    }

    func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Consumes `text` if the bytes continue with it.
    mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - offset >= count else { return false }
        let start = text.utf8Start
        for i in 0..<count where bytes[offset + i] != start[i] { return false }
        offset += count
        return true
    }

    /// A kind name up to (not including) its closing quote.
    mutating func kind() -> EntityKind? {
        let start = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
            guard bytes[offset] >= UInt8(ascii: "a"), bytes[offset] <= UInt8(ascii: "z") else { return nil }
            offset += 1
        }
        return EntityKind(rawValue: String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    /// A string literal without escapes or control characters, in valid UTF-8.
    mutating func string() -> String? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        offset += 1
        let start = offset
        var ascii = true
        while offset < bytes.count {
            let b = bytes[offset]
            if b == UInt8(ascii: "\"") {
                let raw = bytes[start..<offset]
                offset += 1
                let text = String(decoding: raw, as: UTF8.self)
                // Decoding replaces invalid UTF-8; valid text re-encodes to the same bytes.
                guard ascii || text.utf8.elementsEqual(raw) else { return nil }
                return text
            }
            guard b >= 0x20, b != UInt8(ascii: "\\") else { return nil }
            if b >= 0x80 { ascii = false }
            offset += 1
        }
        return nil
    }

    mutating func value() -> JSONValue? {
        guard let first = peek() else { return nil }
        switch first {
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer(otherNumbers: true)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard nesting > 0, let (value, end) = JSONValue.parsePrefix(bytes, from: offset, maxDepth: nesting) else {
                return nil
            }
            offset = end
            return value
        default: return nil
        }
    }

    /// A plain integer (`-?(0|[1-9][0-9]{0,17})`), or any other number through `number`
    /// when `otherNumbers`.
    mutating func integer(otherNumbers: Bool) -> JSONValue? {
        let start = offset
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                offset += 1
            default:
                return integerValue(bytes[start..<offset], otherNumbers: otherNumbers)
            }
        }
        return integerValue(bytes[start..<offset], otherNumbers: otherNumbers)
    }

    private func integerValue(_ text: Slice<UnsafeBufferPointer<UInt8>>, otherNumbers: Bool) -> JSONValue? {
        var digits = text[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18, digits.first != UInt8(ascii: "0") || digits.count == 1,
            !(negative && digits.first == UInt8(ascii: "0")),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return otherNumbers && !text.isEmpty ? number(Array(text)) : nil }
        var value: Int64 = 0
        for d in digits { value = value * 10 + Int64(d - UInt8(ascii: "0")) }
        return .int(negative ? -value : value)
    }
}
