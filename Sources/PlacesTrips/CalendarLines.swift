/// The content lines of an iCalendar stream (RFC 5545 §3.1) as they are written: each line
/// ended by CRLF and folded so that no physical line is longer than 75 octets, a fold never
/// falling inside a character's UTF-8 sequence.
struct CalendarLines {
    /// The longest physical line, in octets, without its CRLF (RFC 5545 §3.1).
    static let maxLineOctets = 75

    private(set) var bytes: [UInt8] = []

    /// Lines with room for about `capacity` octets.
    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// The stream as text (UTF-8, CRLF line endings).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `NAME;PARAMS:VALUE`. `value` is written as given: TEXT values go through
    /// `text(_:parameters:_:)`, which escapes them; the other value types (dates, offsets,
    /// URIs) are made here from characters that need no escaping.
    mutating func property(_ name: String, parameters: String = "", _ value: String) {
        write(name, parameters: parameters, value, escaping: false)
    }

    /// Appends a property of value type TEXT, escaped (RFC 5545 §3.3.11): backslash,
    /// semicolon and comma escaped, each line break (LF, CR or CRLF) written `\n`, and the
    /// other control characters, which TEXT may not hold, dropped.
    mutating func text(_ name: String, parameters: String = "", _ value: String) {
        write(name, parameters: parameters, value, escaping: true)
    }

    /// One pass over the UTF-8 of the line: escapes (all ASCII, so byte by byte) and folds
    /// before a character's first byte when the whole character would pass 75 octets.
    private mutating func write(_ name: String, parameters: String, _ value: String, escaping: Bool) {
        var width = 0
        func put(_ b: UInt8) {
            if b & 0xC0 != 0x80 {
                // The first byte of a character says how long it is (valid UTF-8: a String).
                let octets = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                if width + octets > CalendarLines.maxLineOctets {
                    // A fold is CRLF and one space; the space counts in the next line's width.
                    bytes.append(contentsOf: [13, 10, 32])
                    width = 1
                }
            }
            bytes.append(b)
            width += 1
        }
        for b in name.utf8 { put(b) }
        if !parameters.isEmpty {
            put(UInt8(ascii: ";"))
            for b in parameters.utf8 { put(b) }
        }
        put(UInt8(ascii: ":"))
        var afterCR = false
        for b in value.utf8 {
            defer { afterCR = b == 13 }
            guard escaping else {
                put(b)
                continue
            }
            switch b {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                put(UInt8(ascii: "\\"))
                put(b)
            case 13:
                put(UInt8(ascii: "\\"))
                put(UInt8(ascii: "n"))
            case 10:
                if !afterCR {
                    put(UInt8(ascii: "\\"))
                    put(UInt8(ascii: "n"))
                }
            case 9: put(b)
            case 0..<0x20, 0x7F: continue
            default: put(b)
            }
        }
        bytes.append(contentsOf: [13, 10])
    }
}
