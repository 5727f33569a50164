/// A place name as duplicates are compared: case and accents ignored, whitespace and
/// punctuation runs as one space, apostrophes dropped ("Café  Central" = "cafe central" =
/// "CAFE-CENTRAL").
enum NameKey {
    /// Base letters of U+00C0…U+017F (Latin-1 Supplement and Latin Extended-A), lowercase;
    /// "" for the two signs (× ÷) that are not letters.
    private static let latin: [String] = {
        let runs: [(String, Int)] = [
            // U+00C0…U+00FF
            ("a", 6), ("ae", 1), ("c", 1), ("e", 4), ("i", 4), ("d", 1), ("n", 1), ("o", 5), ("", 1), ("o", 1),
            ("u", 4), ("y", 1), ("th", 1), ("ss", 1),
            ("a", 6), ("ae", 1), ("c", 1), ("e", 4), ("i", 4), ("d", 1), ("n", 1), ("o", 5), ("", 1), ("o", 1),
            ("u", 4), ("y", 1), ("th", 1), ("y", 1),
            // U+0100…U+017F
            ("a", 6), ("c", 8), ("d", 4), ("e", 10), ("g", 8), ("h", 4), ("i", 10), ("ij", 2), ("j", 2), ("k", 3),
            ("l", 10), ("n", 9), ("o", 6), ("oe", 2), ("r", 6), ("s", 8), ("t", 6), ("u", 12), ("w", 2), ("y", 3),
            ("z", 6), ("s", 1),
        ]
        return runs.flatMap { Array(repeating: $0.0, count: $0.1) }
    }()

    static func of(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for u in name.unicodeScalars {
            let properties = u.properties
            // Accents written as combining marks, and apostrophes ("Joe's" = "Joes").
            if properties.generalCategory == .nonspacingMark || u == "'" || u == "\u{2019}" { continue }
            if !properties.isAlphabetic && properties.numericType == nil {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            if (0xC0...0x17F).contains(u.value) {
                out.append(contentsOf: latin[Int(u.value) - 0xC0].unicodeScalars)
            } else if u.isASCII {
                out.append(Unicode.Scalar(UInt8(u.value) | (u.value >= 0x41 && u.value <= 0x5A ? 0x20 : 0)))
            } else {
                out.append(contentsOf: properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(out)
    }
}
