/// A strict, bounded JSON (RFC 8259) reader: at most `ImportLimits.maxDepth` levels of
/// nesting and `ImportLimits.maxJSONValues` values, numbers finite, strings valid Unicode;
/// errors say `line L, column C` and what was expected.
struct JSONReader {
    private let text: SourceText
    private var bytes: [UInt8] { text.bytes }
    private var pos: Int
    private var values = 0

    /// Reads the one JSON value `text` holds.
    static func parse(_ text: SourceText) throws(ImportError) -> JSONNode {
        var reader = JSONReader(text: text, pos: text.start)
        reader.skipSpace()
        let value = try reader.value(depth: 1)
        reader.skipSpace()
        guard reader.pos == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private init(text: SourceText, pos: Int) {
        self.text = text
        self.pos = pos
    }

    private func error(_ message: String, at offset: Int? = nil) -> ImportError {
        ImportError(field: text.position(offset ?? pos), message: message)
    }

    private mutating func skipSpace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(ImportError) -> JSONNode {
        values += 1
        guard values <= ImportLimits.maxJSONValues else {
            throw error("the file holds more than \(ImportLimits.maxJSONValues) JSON values")
        }
        guard pos < bytes.count else { throw error("the file ends where a value was expected") }
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONNode) throws(ImportError) -> JSONNode {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard bytes.count - pos >= count, bytes[pos..<pos + count].elementsEqual(expected) else {
            throw error("expected a value (an object, array, string, number, true, false or null)")
        }
        pos += count
        return value
    }

    private mutating func object(depth: Int) throws(ImportError) -> JSONNode {
        guard depth <= ImportLimits.maxDepth else {
            throw error("arrays and objects are nested deeper than \(ImportLimits.maxDepth) levels")
        }
        pos += 1
        var members: [(key: String, value: JSONNode)] = []
        skipSpace()
        if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") {
            pos += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes")
            }
            let key = try string()
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw error("expected ':' after a name") }
            pos += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard pos < bytes.count else { throw error("the file ends inside an object (missing '}')") }
            if bytes[pos] == UInt8(ascii: ",") {
                pos += 1
            } else if bytes[pos] == UInt8(ascii: "}") {
                pos += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(ImportError) -> JSONNode {
        guard depth <= ImportLimits.maxDepth else {
            throw error("arrays and objects are nested deeper than \(ImportLimits.maxDepth) levels")
        }
        pos += 1
        var items: [JSONNode] = []
        skipSpace()
        if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") {
            pos += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard pos < bytes.count else { throw error("the file ends inside an array (missing ']')") }
            if bytes[pos] == UInt8(ascii: ",") {
                pos += 1
            } else if bytes[pos] == UInt8(ascii: "]") {
                pos += 1
                return .array(items)
            } else {
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func number() throws(ImportError) -> Double {
        let start = pos
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.pos
            while reader.pos < reader.bytes.count, (0x30...0x39).contains(reader.bytes[reader.pos]) { reader.pos += 1 }
            return reader.pos - from
        }
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        let intStart = pos
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("expected a digit in a number") }
        guard intDigits == 1 || bytes[intStart] != UInt8(ascii: "0") else {
            throw error("a number cannot start with 0", at: intStart)
        }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
        }
        if pos < bytes.count && (bytes[pos] | 0x20) == UInt8(ascii: "e") {
            pos += 1
            if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        let literal = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let d = Double(literal), d.isFinite else {
            throw error("the number \(literal.prefix(40)) is too large", at: start)
        }
        return d
    }

    private mutating func string() throws(ImportError) -> String {
        pos += 1
        let start = pos
        // Fast path: no escapes.
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: bytes[start..<pos], as: UTF8.self)
                pos += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            guard b >= 0x20 else { throw error("a control character must be escaped in a string") }
            pos += 1
        }
        var out = Array(bytes[start..<pos])
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard b >= 0x20 else { throw error("a control character must be escaped in a string") }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                pos += 1
                continue
            }
            let escapeStart = pos
            pos += 1
            guard pos < bytes.count else { break }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(escapeStart)
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes.count - pos >= 6, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u")
                    else { throw error("\\u escape of a lone surrogate", at: escapeStart) }
                    pos += 2
                    let low = try hex4(escapeStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("\\u escape of a lone surrogate", at: escapeStart)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else {
                    throw error("\\u escape of a lone surrogate", at: escapeStart)
                }
                out.append(contentsOf: String(Character(u)).utf8)
            default: throw error("unknown escape in a string", at: escapeStart)
            }
        }
        throw error("the file ends inside a string (missing '\"')", at: start - 1)
    }

    private mutating func hex4(_ escapeStart: Int) throws(ImportError) -> UInt32 {
        guard bytes.count - pos >= 4 else { throw error("a \\u escape needs four hex digits", at: escapeStart) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[pos]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: throw error("a \\u escape needs four hex digits", at: escapeStart)
            }
            v = v << 4 | UInt32(d)
            pos += 1
        }
        return v
    }
}
