/// The bytes of an export file being written, with the escaping each format needs done on
/// UTF-8 bytes (the characters to escape are all ASCII).
struct ExportBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Markup, as is.
    mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// XML character data or attribute value: `& < > " '` escaped, CR as a reference (so
    /// that it survives line-end normalization), characters XML 1.0 cannot carry dropped.
    mutating func xml(_ s: String) {
        let safe = s.utf8.contains(0xEF) ? TextCleaning.xmlSafe(s) : s
        for b in safe.utf8 {
            switch b {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&apos;")
            case 0x0D: raw("&#13;")
            case 0x09, 0x0A: bytes.append(b)
            case 0..<0x20: continue
            default: bytes.append(b)
            }
        }
    }

    /// A JSON string literal: `"` `\` and control characters escaped, the rest as UTF-8.
    mutating func json(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(b >> 4)])
                bytes.append(hex[Int(b & 0xF)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
