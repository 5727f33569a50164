/// A JSON text read straight from its UTF-8 bytes, without `Codable`: stored entities are
/// read on every request (an expense's terms, a trip item's fields), and `JSONDecoder`
/// spends most of such a read in its generic containers. The result is what decoding
/// `JSONValue` with `JSONDecoder` gives; nil for anything that is not strict JSON (callers
/// fall back to `JSONDecoder`, whose errors stay the ones reported). Imported files have
/// their own reader (`PlacesInterchange.JSONReader`): it keeps line and column for its
/// errors and reads every number as a Double; this one gives `JSONDecoder`'s values.
extension JSONValue {
    /// Nesting deeper than this is left to `JSONDecoder` (nil here).
    static let maxParseDepth = 256

    public static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8(parse(buffer:))
    }

    /// The same from UTF-8 bytes (a request body); bytes that are not UTF-8 give nil.
    public static func parse(utf8 bytes: [UInt8]) -> JSONValue? { bytes.withUnsafeBufferPointer(parse(buffer:)) }

    private static func parse(buffer bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    /// The value that starts at `start` in `bytes`, nesting at most `maxDepth` arrays and
    /// objects, and the index just after it; nil when no strict JSON value starts there or it
    /// nests deeper. For readers of a larger text (an op body's change values).
    static func parsePrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int) -> (
        value: JSONValue, end: Int
    )? {
        var parser = Parser(bytes: bytes, maxDepth: min(maxDepth, maxParseDepth))
        parser.index = start
        guard let value = parser.value(depth: 0) else { return nil }
        return (value, parser.index)
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONValue.maxParseDepth) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
        }

        private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for k in 0..<count where bytes[index + k] != word.utf8Start[k] { return nil }
            index += count
            return value
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard let b = current else { return nil }
            switch b {
            case UInt8(ascii: "{"): return depth < maxDepth ? object(depth: depth + 1) : nil
            case UInt8(ascii: "["): return depth < maxDepth ? array(depth: depth + 1) : nil
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var out = [String: JSONValue]()
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(out)
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard current == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let value = value(depth: depth) else { return nil }
                // A repeated key keeps its first value, as with JSONDecoder.
                if out[key] == nil { out[key] = value }
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(out)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var out = [JSONValue]()
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(out)
            }
            while true {
                guard let value = value(depth: depth) else { return nil }
                out.append(value)
                skipSpace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(out)
                default: return nil
                }
            }
        }

        /// A string from its opening quote; escapes decoded, control characters refused.
        mutating func string() -> String? {
            index += 1
            let start = index
            // The common case: no escape, the bytes are the string.
            while let b = current, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") {
                guard b >= 0x20 else { return nil }
                index += 1
            }
            guard let stop = current else { return nil }
            if stop == UInt8(ascii: "\"") {
                index += 1
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            }
            var scalars = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while let b = current {
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(validating: scalars, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return nil }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        scalars += Array(String(Character(scalar)).utf8)
                    default: return nil
                    }
                default:
                    guard b >= 0x20 else { return nil }
                    scalars.append(b)
                }
            }
            return nil
        }

        /// The scalar of a `\u` escape (after the `u`), a surrogate pair read whole.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[index]
                let digit: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// A number in strict JSON syntax: an integer that fits Int64 is `.int`, as is a
        /// fraction or exponent whose value is a whole number Int64 holds exactly (what
        /// `JSONDecoder` gives `JSONValue`); any other a `.double`.
        private mutating func number() -> JSONValue? {
            let start = index
            var integral = true
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if current == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard skipDigits() > 0 else { return nil }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                integral = false
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if integral, let int = Int64(text) { return .int(int) }
            guard let double = Double(text), double.isFinite else { return nil }
            if let int = Int64(exactly: double) { return .int(int) }
            return .double(double)
        }

        @discardableResult
        private mutating func skipDigits() -> Int {
            let start = index
            while let b = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { index += 1 }
            return index - start
        }
    }
}
