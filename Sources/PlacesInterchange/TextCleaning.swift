/// The text clean-up every imported field goes through: no control characters, no
/// surrounding whitespace, and cut to the library's length with an ellipsis.
enum TextCleaning {
    /// One line: every run of whitespace or control characters becomes one space, and the
    /// ends are trimmed (names, addresses, categories).
    static func line(_ s: String) -> String {
        if isCleanLine(s) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var pendingSpace = false
        for u in s.unicodeScalars {
            if isWhitespace(u) || isControl(u) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                append(u, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `line` would return `s` unchanged, decided on its bytes: no control
    /// character, no whitespace but single spaces between other characters. The UTF-8 forms
    /// of the non-ASCII spaces and controls are looked for byte by byte.
    private static func isCleanLine(_ s: String) -> Bool {
        var previousSpace = true
        var b1: UInt8 = 0  // the byte before
        var b2: UInt8 = 0  // and the one before that
        for b in s.utf8 {
            defer {
                b2 = b1
                b1 = b
            }
            if b == 0x20 {
                if previousSpace { return false }
                previousSpace = true
                continue
            }
            if b < 0x20 || b == 0x7F { return false }
            previousSpace = false
            guard b >= 0x80 else { continue }
            if b1 == 0xC2 && b <= 0xA0 { return false }  // U+0080…U+00A0: C1 controls, NEL, NBSP
            if b2 == 0xE1 && b1 == 0x9A && b == 0x80 { return false }  // U+1680
            if b2 == 0xE2 && b1 == 0x80 && (b <= 0x8A || b == 0xA8 || b == 0xA9 || b == 0xAF) { return false }
            if b2 == 0xE2 && b1 == 0x81 && b == 0x9F { return false }  // U+205F
            if b2 == 0xE3 && b1 == 0x80 && b == 0x80 { return false }  // U+3000
            if b2 == 0xEF && b1 == 0xBF && b >= 0xBE { return false }  // U+FFFE, U+FFFF
        }
        return !previousSpace || s.isEmpty
    }

    /// Several lines: line breaks kept (CR LF and CR become LF), other control characters
    /// dropped, at most two empty lines in a row, spaces at line ends and starts and the
    /// whole text's ends trimmed (notes).
    static func text(_ s: String) -> String {
        if isCleanLine(s) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var newlines = 0
        var spaces: [UInt8] = []
        var previousCR = false
        for u in s.unicodeScalars {
            defer { previousCR = u == "\r" }
            if u == "\n" || u == "\r" {
                if u == "\n" && previousCR { continue }
                spaces.removeAll(keepingCapacity: true)
                if !out.isEmpty { newlines += 1 }
            } else if isWhitespace(u) {
                if u == "\t" { spaces.append(0x20) } else { append(u, to: &spaces) }
            } else if isControl(u) {
                continue
            } else {
                if newlines > 0 {
                    for _ in 0..<min(newlines, 3) { out.append(0x0A) }
                    newlines = 0
                } else if !out.isEmpty {
                    out.append(contentsOf: spaces)
                }
                spaces.removeAll(keepingCapacity: true)
                append(u, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Unicode's White_Space characters (what `Unicode.Scalar.Properties.isWhitespace`
    /// says, without its table lookup).
    @inline(__always)
    static func isWhitespace(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x80 { return v == 0x20 || (0x09...0x0D).contains(v) }
        return v == 0x85 || v == 0xA0 || v == 0x1680 || (0x2000...0x200A).contains(v) || v == 0x2028
            || v == 0x2029 || v == 0x202F || v == 0x205F || v == 0x3000
    }

    @inline(__always)
    static func append(_ u: Unicode.Scalar, to out: inout [UInt8]) {
        let v = u.value
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(v >> 6))
            out.append(0x80 | UInt8(v & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(v >> 12))
            out.append(0x80 | UInt8((v >> 6) & 0x3F))
            out.append(0x80 | UInt8(v & 0x3F))
        default:
            out.append(0xF0 | UInt8(v >> 18))
            out.append(0x80 | UInt8((v >> 12) & 0x3F))
            out.append(0x80 | UInt8((v >> 6) & 0x3F))
            out.append(0x80 | UInt8(v & 0x3F))
        }
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
            while let last = head.unicodeScalars.last, isWhitespace(last) {
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
        guard let first = scalars.firstIndex(where: { !TextCleaning.isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !TextCleaning.isWhitespace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
