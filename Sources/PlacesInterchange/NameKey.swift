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
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var pendingSpace = false
        func keep(_ bytes: some Sequence<UInt8>) {
            if pendingSpace { out.append(0x20) }
            pendingSpace = false
            out.append(contentsOf: bytes)
        }
        for u in name.unicodeScalars {
            let v = u.value
            if v < 0x80 {
                switch v {
                case 0x41...0x5A: keep(CollectionOfOne(UInt8(v) | 0x20))
                case 0x61...0x7A, 0x30...0x39: keep(CollectionOfOne(UInt8(v)))
                case 0x27: continue  // apostrophes: "Joe's" = "Joes"
                default: pendingSpace = !out.isEmpty
                }
            } else if (0xC0...0x17F).contains(v) {
                let base = latin[Int(v) - 0xC0]
                if base.isEmpty { pendingSpace = !out.isEmpty } else { keep(base.utf8) }
            } else {
                let properties = u.properties
                // Accents written as combining marks, and typographic apostrophes.
                if properties.generalCategory == .nonspacingMark || v == 0x2019 { continue }
                if properties.isAlphabetic || properties.numericType != nil {
                    keep(properties.lowercaseMapping.utf8)
                } else {
                    pendingSpace = !out.isEmpty
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
