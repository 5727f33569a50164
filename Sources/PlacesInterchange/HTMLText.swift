/// The text of a KML `<description>`, which tools write as HTML (Google My Maps: `<br>`
/// between lines; Organic Maps: CDATA with markup): tags removed, `<br>`, `<p>`, `<div>` and
/// `<li>` as line breaks, character references decoded, other text kept as it is. Text with
/// a lone `<` (not followed by a letter, `/` or `!`) keeps it.
enum HTMLText {
    private static let breaking: Set<String> = ["br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "ul", "ol"]
    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "#39": "'",
    ]

    static func plain(_ html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return html }
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        let n = bytes.count
        // The first `>` at or after the last place looked from: each byte is scanned once.
        var nextClose = -1
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "<") && nextClose < i {
                nextClose = bytes[i...].firstIndex(of: UInt8(ascii: ">")) ?? n
            }
            if b == UInt8(ascii: "<"), nextClose < n, i + 1 < n, opensTag(bytes[i + 1]) {
                var nameStart = i + 1
                if bytes[nameStart] == UInt8(ascii: "/") { nameStart += 1 }
                var nameEnd = nameStart
                while nameEnd < nextClose && isASCIILetterOrDigit(bytes[nameEnd]) { nameEnd += 1 }
                let tag = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self).lowercased()
                if breaking.contains(tag) { out.append(0x0A) }
                i = nextClose + 1
            } else if b == UInt8(ascii: "&"),
                let semicolon = bytes[i..<min(n, i + 10)].firstIndex(of: UInt8(ascii: ";")),
                let decoded = decode(String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self))
            {
                out.append(contentsOf: decoded.utf8)
                i = semicolon + 1
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isASCIILetterOrDigit(_ b: UInt8) -> Bool {
        (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }

    /// What may follow `<` for it to start a tag: a letter, `/` or `!`.
    private static func opensTag(_ b: UInt8) -> Bool {
        (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || b == UInt8(ascii: "/")
            || b == UInt8(ascii: "!")
    }

    private static func decode(_ entity: String) -> String? {
        if let s = named[entity] { return s }
        guard entity.hasPrefix("#"), !entity.contains("+"), !entity.contains("-") else { return nil }
        let value =
            entity.hasPrefix("#x") || entity.hasPrefix("#X")
            ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst(), radix: 10)
        guard let value, let u = Unicode.Scalar(value) else { return nil }
        return String(Character(u))
    }

    /// `text` as HTML that `plain` reads back to it: `&`, `<` and `>` escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for u in text.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
