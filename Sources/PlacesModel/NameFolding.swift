import Foundation

/// The one way Places compares names: `NameFolding.fold("São Paulo") == "sao paulo"`.
///
/// Lowercase, diacritics removed (é→e, ü→u, ß→ss, æ→ae, ø→o, ł→l, đ→d, þ→th, œ→oe, ı→i),
/// apostrophes removed ("Côte d'Ivoire" → "cote divoire"), every other run of punctuation,
/// symbols and whitespace → one space, trimmed. The daemon, the gazetteer's index and the
/// CLI all use it, so a name typed anywhere matches the same things.
///
/// Latin script (below U+0250) goes through a table over the UTF-8 bytes, because the index
/// folds every name and alternate name of the gazetteer when it is built; other scripts
/// fall back to Foundation's case, diacritic and width folding. Any string is accepted (it
/// never traps) and the result holds at most ``maxOutputBytes`` bytes of UTF-8.
public enum NameFolding {
    /// The longest result, in bytes of UTF-8: a longer one is cut at a character boundary.
    public static let maxOutputBytes = 1024

    /// `s` folded (see ``NameFolding``).
    public static func fold(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(min(s.utf8.count, maxOutputBytes))
        fold(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` folded into `out` (emptied first) as UTF-8: what the index uses to avoid a String
    /// per name.
    public static func fold(_ s: String, into out: inout [UInt8]) {
        var s = s  // `withUTF8` needs it mutable (it makes a bridged string contiguous)
        s.withUTF8 { fold(utf8: $0, into: &out) }
    }

    /// `utf8` (any bytes; invalid UTF-8 is repaired first) folded into `out` (emptied
    /// first): what the index uses to fold names straight from the gazetteer's buffer.
    public static func fold(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard foldOnce(bytes, into: &out) else { return }
        // Other scripts go through Foundation, whose folding of a folded string can still
        // change it (a letter whose lowercase folds further, a mark that lost its base):
        // folded again until nothing changes, so that a fold is always a fixed point (what
        // the index, popularity and the CLI compare). ASCII output is always stable.
        var next = [UInt8]()
        for _ in 0..<4 where out.contains(where: { $0 >= 0x80 }) {
            _ = out.withUnsafeBufferPointer { foldOnce($0, into: &next) }
            if next == out { return }
            swap(&out, &next)
        }
    }

    /// One pass: the table over Latin text, Foundation for anything else; returns whether
    /// Foundation was needed.
    private static func foldOnce(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        let latin = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxOutputBytes + 2) { buffer in
            let written = table.withUnsafeBufferPointer { foldLatin(bytes, table: $0, into: buffer) }
            guard written >= 0 else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<written]))
            return true
        }
        if !latin {
            foldWithFoundation(String(decoding: bytes, as: UTF8.self), into: &out)
        }
        trimTrailingSpace(&out)
        return !latin
    }

    /// The fast path over UTF-8 bytes into `buffer` (at least `maxOutputBytes + 2` bytes):
    /// the number of bytes written, or -1 as soon as a scalar at or above U+0250 shows up,
    /// which only the slow path folds.
    private static func foldLatin(
        _ bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>,
        into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var i = 0
        var o = 0
        var last: UInt8 = 0x20  // so that leading separators are dropped
        let n = bytes.count
        while i < n, o < maxOutputBytes {
            let b = bytes[i]
            var v: Int
            if b < 0x80 {
                v = Int(b)
                i &+= 1
            } else if b >= 0xC2, b <= 0xCD, i + 1 < n {
                v = (Int(b & 0x1F) << 6) | Int(bytes[i + 1] & 0x3F)
                i &+= 2
                if v >= 0x250 {
                    if v >= 0x300 { continue }  // a combining accent (U+0300…U+036F): dropped
                    return -1
                }
            } else {
                return -1
            }
            let a = table[2 &* v]
            switch a {
            case 0x00:
                continue
            case 0x20:
                if last != 0x20 {
                    buffer[o] = 0x20
                    o &+= 1
                    last = 0x20
                }
            case 0xFF:
                return -1  // a rare letter kept as its own lowercase form: the slow path does that
            default:
                buffer[o] = a
                o &+= 1
                let second = table[2 &* v &+ 1]
                if second != 0 {
                    buffer[o] = second
                    o &+= 1
                }
                last = a
            }
        }
        return o
    }

    /// One scalar below U+0250 through the table.
    @inline(__always)
    private static func appendTable(_ v: Int, _ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let a = table[2 &* v]
        let b = table[2 &* v &+ 1]
        switch a {
        case 0x00:
            return
        case 0x20:
            if let last = out.last, last != 0x20 { out.append(0x20) }
        case 0xFF:
            appendOwnLowercase(scalar, to: &out)
        default:
            out.append(a)
            if b != 0 { out.append(b) }
        }
    }

    /// The slow path: the whole string through Foundation's folding, then each scalar
    /// through the table (Foundation turns full-width Latin into ASCII) or kept when it is
    /// a letter, mark or number of another script.
    private static func foldWithFoundation(_ s: String, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        let folded = s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        for scalar in folded.unicodeScalars {
            let v = scalar.value
            if v < 0x250 {
                appendTable(Int(v), scalar, to: &out)
            } else if isLatinCombining(v) || isApostrophe(v) || isInvisible(scalar) {
                continue
            } else if let upper = latinUppercase(scalar) {
                // A lowercase letter above U+0250 whose capital the table folds (ʒ, from Ʒ):
                // folded as its capital, as the fast path folds the capital.
                appendTable(Int(upper.value), upper, to: &out)
            } else {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    // A mark belongs to the letter before it; one with none (at the start, or
                    // after a separator) is dropped, or a second fold would join it to the space.
                    guard let last = out.last, last != 0x20 else { continue }
                    appendOwnLowercase(scalar, to: &out)
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .decimalNumber, .letterNumber, .otherNumber:
                    appendOwnLowercase(scalar, to: &out)
                default:
                    if let last = out.last, last != 0x20 { out.append(0x20) }
                }
            }
            if out.count >= maxOutputBytes { break }
        }
        if out.count > maxOutputBytes {
            // Cut at a scalar boundary: back up over UTF-8 continuation bytes.
            var end = maxOutputBytes
            while end > 0, out[end] & 0xC0 == 0x80 { end -= 1 }
            out.removeSubrange(end...)
        }
    }

    @inline(__always)
    private static func appendOwnLowercase(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        for lower in scalar.properties.lowercaseMapping.unicodeScalars {
            UTF8.encode(lower) { out.append($0) }
        }
    }

    private static func trimTrailingSpace(_ out: inout [UInt8]) {
        while out.last == 0x20 { out.removeLast() }
        if out.count > maxOutputBytes {
            var end = maxOutputBytes
            while end > 0, out[end] & 0xC0 == 0x80 { end -= 1 }
            out.removeSubrange(end...)
            while out.last == 0x20 { out.removeLast() }
        }
    }

    /// Combining marks that only put accents on Latin letters (a name typed decomposed).
    @inline(__always)
    private static func isLatinCombining(_ v: UInt32) -> Bool {
        (0x300..<0x370).contains(v) || (0x1AB0..<0x1B00).contains(v) || (0x1DC0..<0x1E00).contains(v)
            || (0x20D0..<0x2100).contains(v) || (0xFE20..<0xFE30).contains(v)
    }

    /// The capital below U+0250 of a letter above it, when the table folds that capital to
    /// ASCII; nil otherwise.
    private static func latinUppercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let mapping = scalar.properties.uppercaseMapping.unicodeScalars
        guard mapping.count == 1, let upper = mapping.first, upper.value < 0x250, upper != scalar else { return nil }
        let a = table[2 * Int(upper.value)]
        return a == 0x00 || a == 0x20 || a == 0xFF ? nil : upper
    }

    /// Characters that are not seen: format characters (zero-width space and joiners, word
    /// joiner, byte-order mark) and variation selectors. Dropped, so that "lis\u{200B}boa"
    /// pasted from the web is "lisboa" and folding twice changes nothing.
    @inline(__always)
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return scalar.properties.generalCategory == .format || (0xFE00...0xFE0F).contains(v)
            || (0xE0100...0xE01EF).contains(v)
    }

    /// Apostrophe look-alikes above U+0250 (’ ‘ ʼ ʻ ′ and friends): dropped like `'`.
    @inline(__always)
    private static func isApostrophe(_ v: UInt32) -> Bool {
        v == 0x2018 || v == 0x2019 || v == 0x201B || v == 0x02BC || v == 0x02BB || v == 0x02B9 || v == 0x02BE
            || v == 0x02BF || v == 0x2032 || v == 0xFF07
    }
}
