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
        let scalars = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        let n = scalars.count
        // The first `>` at or after the last place looked from: each byte is scanned once.
        var nextClose = -1
        while i < n {
            let u = scalars[i]
            if nextClose < i { nextClose = scalars[i...].firstIndex(of: ">") ?? n }
            if u == "<", nextClose < n, i + 1 < n, HTMLText.opensTag(scalars[i + 1]) {
                let close = nextClose
                let tag = scalars[(i + 1)..<close].drop { $0 == "/" }.prefix {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0)
                }
                if breaking.contains(String(String.UnicodeScalarView(tag)).lowercased()) { out.append("\n") }
                i = close + 1
            } else if u == "&", let semicolon = scalars[i...].prefix(10).firstIndex(of: ";"),
                let decoded = decode(String(String.UnicodeScalarView(scalars[(i + 1)..<semicolon])))
            {
                out.append(contentsOf: decoded.unicodeScalars)
                i = semicolon + 1
            } else {
                out.append(u)
                i += 1
            }
        }
        return String(out)
    }

    private static func opensTag(_ u: Unicode.Scalar) -> Bool {
        u.properties.isAlphabetic || u == "/" || u == "!"
    }

    private static func decode(_ entity: String) -> String? {
        if let s = named[entity] { return s }
        guard entity.hasPrefix("#"), !entity.contains("+"), !entity.contains("-") else { return nil }
        let value = entity.hasPrefix("#x") || entity.hasPrefix("#X")
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
