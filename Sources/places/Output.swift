import ArgumentParser
import Foundation
import PlacesModel

/// Plain-text tables: columns padded to the widest cell, two spaces apart.
struct Table {
    /// How a column's cells line up.
    enum Alignment { case left, right }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ headers: String..., alignments: [Alignment] = []) {
        self.headers = headers
        self.alignments = alignments + Array(repeating: .left, count: max(0, headers.count - alignments.count))
    }

    mutating func append(_ row: String...) { rows.append(row) }

    /// The table as lines, header first; trailing spaces trimmed.
    func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                let isLast = i == cells.count - 1
                switch alignments[i] {
                case .left: out += cell + (isLast ? "" : pad)
                case .right: out += pad + cell
                }
                if !isLast { out += "  " }
            }
            while out.last == " " { out.removeLast() }
            return out
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }

    func print() { Swift.print(render()) }
}

/// A `key: value` block with the values aligned; nil values are left out.
struct Fields {
    private var entries: [(String, String)] = []

    subscript(key: String) -> String? {
        get { entries.first { $0.0 == key }?.1 }
        set { if let newValue { entries.append((key, newValue)) } }
    }

    func render() -> String {
        let width = entries.map { $0.0.count }.max() ?? 0
        return entries.map { key, value in
            key + ":" + String(repeating: " ", count: width - key.count + 1) + value
        }.joined(separator: "\n")
    }

    func print() { Swift.print(render()) }
}

/// Human renderings shared by the commands.
enum Format {
    /// The first 8 hex digits of a 32-digit id (the daemon accepts any unique prefix of 4+).
    static func shortID(_ id: String) -> String {
        let isHex = id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
        // A post's id is its own 32 digits then its author's key: its start is the post's.
        return (id.count == 32 || id.count == 96) && isHex ? String(id.prefix(8)) : id
    }

    /// An RFC 3339 timestamp in the local time zone, to the minute ("2025-06-01 14:03").
    static func time(_ rfc3339: String) -> String {
        guard let date = parseTime(rfc3339) else { return rfc3339 }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    static func parseTime(_ rfc3339: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: rfc3339) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: rfc3339)
    }

    /// "2025-06-01 → 2025-06-07", one end, or "—".
    static func dateRange(_ start: String?, _ end: String?) -> String {
        switch (start, end) {
        case (let s?, let e?): s == e ? s : "\(s) → \(e)"
        case (let s?, nil): "from \(s)"
        case (nil, let e?): "until \(e)"
        case (nil, nil): "—"
        }
    }

    /// "12.50 EUR + 3000 JPY", or "—" when nothing is priced.
    static func money(_ amounts: [Money]) -> String {
        amounts.isEmpty ? "—" : amounts.map(\.description).joined(separator: " + ")
    }

    /// "48.85837, 2.29448".
    static func coordinates(_ latitude: Double, _ longitude: Double) -> String {
        String(format: "%.5f, %.5f", latitude, longitude)
    }

    /// "$$" for price level 2.
    static func priceLevel(_ level: Int?) -> String? {
        level.map { String(repeating: "$", count: max(1, min(4, $0))) }
    }

    /// "4.5" without a trailing ".0" noise for whole ratings ("4").
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// "1.2 km" or "850 m".
    static func distance(meters: Double) -> String {
        meters >= 1000 ? String(format: "%.1f km", meters / 1000) : String(format: "%.0f m", meters)
    }

    /// "1 h 05 min", "12 min" or "40 s".
    static func duration(seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total) s" }
        let minutes = (total + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return String(format: "%d h %02d min", minutes / 60, minutes % 60)
    }
}

/// Parses a decimal amount such as "12.5" into exact minor units of `currency`.
///
/// Never goes through Double: "0.1" is 10 cents, not 9.999… Rejects more fraction digits
/// than the currency has (ISO 4217 minor unit, via ``Money/minorDigits(_:)``).
func parseMoney(_ text: String, currency: String, option: String) throws -> Money {
    let digits = Money.minorDigits(currency)
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let isDigits: (Substring) -> Bool = { $0.utf8.allSatisfy { (48...57).contains($0) } }
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, isDigits(whole),
        parts.count == 1 || (!parts[1].isEmpty && isDigits(parts[1]))
    else {
        throw ValidationError("\(option) '\(text)' is not an amount like 12 or 12.50")
    }
    let fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= digits else {
        throw ValidationError(
            digits == 0
                ? "\(option) '\(text)' has decimals; \(currency) has no minor unit"
                : "\(option) '\(text)' has more decimals than \(currency) allows (\(digits))")
    }
    let padded = fraction + String(repeating: "0", count: digits - fraction.count)
    guard let amount = Int64(whole + padded) else {
        throw ValidationError("\(option) '\(text)' is too large")
    }
    return Money(amountMinor: amount, currency: currency)
}

/// Checks a `YYYY-MM-DD` date option.
func validateDate(_ text: String?, option: String) throws {
    guard let text else { return }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    guard text.count == 10, let date = formatter.date(from: text), formatter.string(from: date) == text else {
        throw ValidationError("\(option) '\(text)' is not a date like 2025-06-01")
    }
}
