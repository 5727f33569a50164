/// The text clean-up every imported field goes through: no control characters, no
/// surrounding whitespace, and cut to the library's length with an ellipsis.
enum TextCleaning {
    /// One line: every run of whitespace or control characters becomes one space, and the
    /// ends are trimmed (names, addresses, categories).
    static func line(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for u in s.unicodeScalars {
            if u.properties.isWhitespace || isControl(u) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(u)
            }
        }
        return String(out)
    }

    /// Several lines: line breaks kept (CR LF and CR become LF), other control characters
    /// dropped, at most two empty lines in a row, spaces at line ends and the whole
    /// text's ends trimmed (notes).
    static func text(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var newlines = 0
        var spaces = String.UnicodeScalarView()
        var previousCR = false
        for u in s.unicodeScalars {
            defer { previousCR = u == "\r" }
            if u == "\n" || u == "\r" {
                if u == "\n" && previousCR { continue }
                spaces.removeAll()
                if !out.isEmpty { newlines += 1 }
            } else if u.properties.isWhitespace || u == "\t" {
                spaces.append(u == "\t" ? " " : u)
            } else if isControl(u) {
                continue
            } else {
                if newlines > 0 {
                    for _ in 0..<min(newlines, 3) { out.append("\n") }
                    spaces.removeAll()
                    newlines = 0
                } else if !out.isEmpty {
                    out.append(contentsOf: spaces)
                }
                spaces.removeAll()
                out.append(u)
            }
        }
        return String(out)
    }

    /// Drops the characters XML 1.0 cannot carry at all (control characters other than tab,
    /// line feed and carriage return; U+FFFE and U+FFFF), for the exporters.
    static func xmlSafe(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { !isXMLChar($0) }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars where isXMLChar(u) { out.append(u) }
        return String(out)
    }

    static func isXMLChar(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0xFFFE || u.value == 0xFFFF
    }

    /// `s` cut to at most `limit` characters (grapheme clusters, as the library counts),
    /// ending in "…" when cut.
    static func truncated(_ s: String, to limit: Int) -> String {
        // A character is at least one byte: a string of at most `limit` bytes needs no count.
        if s.utf8.count <= limit || s.count <= limit { return s }
        var keep = limit - 1
        while keep > 0 {
            var head = String(s.prefix(keep))
            while let last = head.unicodeScalars.last, last.properties.isWhitespace {
                head.unicodeScalars.removeLast()
            }
            head += "…"
            if head.count <= limit { return head }
            keep -= 1
        }
        return "…"
    }
}

extension String {
    /// Without whitespace and line breaks at either end.
    var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
