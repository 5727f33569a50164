import PlacesModel

/// The field stamps of an entity as kept in its row (`entity.stamps`): a JSON object from
/// field name to `[lamport, author, index]`, keys in byte order, no spaces, e.g.
/// `{"name":[12,"ab…",1],"position":[9,"ab…",2]}` (what SQLite's `json_group_object`
/// and `json_array` write, which the v4 migration used to move them out of the old `field`
/// table). The text is a pure function of the stamps, so rebuilt tables compare byte for byte.
enum Stamps {
    static func encode(_ stamps: [String: Stamp]) -> String { encode(stamps.map { ($0.key, $0.value) }) }

    /// As `encode(_:)`, from the stamps of distinct fields in any order.
    static func encode(_ stamps: [(name: String, stamp: Stamp)]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(stamps.count * 96 + 2)
        out.append(UInt8(ascii: "{"))
        let sorted = stamps.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for (i, (name, stamp)) in sorted.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, to: &out)
            out += ":[".utf8
            out += String(stamp.lamport).utf8
            out.append(UInt8(ascii: ","))
            JSONValue.writeString(stamp.author, to: &out)
            out.append(UInt8(ascii: ","))
            out += String(stamp.index).utf8
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The stamps of an `encode`d text (empty for text in any other shape: it is only ever
    /// written by `encode` or the migration).
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [String: Stamp] {
        var parser = Parser(bytes: text)
        var stamps = [String: Stamp]()
        guard parser.take(UInt8(ascii: "{")) else { return [:] }
        if parser.take(UInt8(ascii: "}")) { return [:] }
        repeat {
            guard let name = parser.string(), parser.take(UInt8(ascii: ":")), parser.take(UInt8(ascii: "[")),
                let lamport = parser.integer(), parser.take(UInt8(ascii: ",")), let author = parser.string(),
                parser.take(UInt8(ascii: ",")), let index = parser.integer(), parser.take(UInt8(ascii: "]"))
            else { return [:] }
            stamps[name] = Stamp(lamport: UInt64(lamport), author: author, index: Int(index))
        } while parser.take(UInt8(ascii: ","))
        return stamps
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        mutating func integer() -> Int64? {
            var value: Int64 = 0
            let start = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = value &* 10 &+ Int64(bytes[i] - 0x30)
                i += 1
            }
            return i > start ? value : nil
        }

        /// A JSON string literal (with escapes).
        mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = i
            while i < bytes.count, bytes[i] != 0x22, bytes[i] != 0x5C { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == 0x22 {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            var out = Array(bytes[start..<i])
            var scalars = [UInt16]()
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == 0x22 { return String(decoding: out, as: UTF8.self) }
                guard b == 0x5C else {
                    out.append(b)
                    continue
                }
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return nil }
                    scalars = [unit]
                    if (0xD800..<0xDC00).contains(unit), take(0x5C), take(UInt8(ascii: "u")), let low = hex4() {
                        scalars.append(low)
                    }
                    out += String(decoding: scalars, as: UTF16.self).utf8
                default: return nil
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt16? {
            guard i + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let digit: UInt8
                switch b {
                case 0x30...0x39: digit = b - 0x30
                case 0x61...0x66: digit = b - 0x61 + 10
                case 0x41...0x46: digit = b - 0x41 + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
                i += 1
            }
            return value
        }
    }
}
