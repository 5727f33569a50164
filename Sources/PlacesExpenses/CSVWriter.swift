/// Writes CSV as RFC 4180 says (fields with a comma, a quote, CR or LF quoted, quotes doubled,
/// CRLF line ends), guarded against formula injection: a text cell that a spreadsheet would run
/// as a formula (starting with `=`, `+`, `-`, `@`, a tab or CR) gets a leading `'`. Titles and
/// names come from peers, so every text cell is guarded; amounts are marked as numbers and, when
/// they really are plain decimal numbers like `-12.50`, written as they are.
public enum CSVWriter {
    /// One field of a row.
    public enum Cell: Hashable, Sendable, ExpressibleByStringLiteral {
        /// Any text: quoted when needed, and defused when it would start a formula.
        case text(String)
        /// A decimal number such as `84.50` or `-12.50`. Text that is not a plain decimal number
        /// (digits, at most one `.`, an optional leading `-`) is written as `.text` would be.
        case number(String)

        public init(stringLiteral value: String) { self = .text(value) }

        /// A number of minor units written as a decimal with `digits` decimals: 8450, 2 → "84.50".
        public static func minor(_ amountMinor: Int64, digits: Int) -> Cell {
            let sign = amountMinor < 0 ? "-" : ""
            var text = String(amountMinor.magnitude)
            guard digits > 0 else { return .number(sign + text) }
            if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
            return .number(sign + text.dropLast(digits) + "." + text.suffix(digits))
        }
    }

    /// The document: a header row, then the rows, each line ending in CRLF.
    public static func document(header: [String], rows: [[Cell]]) -> String {
        var out = line(header.map(Cell.text))
        for row in rows { out += line(row) }
        return out
    }

    /// One line, ending in CRLF.
    public static func line(_ cells: [Cell]) -> String {
        cells.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field as it is written between the commas.
    public static func field(_ cell: Cell) -> String {
        switch cell {
        case .number(let text) where isPlainNumber(text):
            return text
        case .text(let text), .number(let text):
            var value = text
            if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
                value = "'" + value
            }
            let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
            guard needsQuotes else { return value }
            return "\"" + value.replacing("\"", with: "\"\"") + "\""
        }
    }

    /// Digits with at most one dot, an optional leading minus, and a digit on each side of the dot.
    static func isPlainNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.allSatisfy { (48...57).contains($0) } }
    }
}
