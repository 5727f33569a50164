import ArgumentParser
import PlacesModel

/// Amounts as users type them ("84.50", "1200", "1.250"), read exactly into minor units
/// with the currency's ISO 4217 exponent; never through a floating-point number.
enum AmountText {
    /// Minor-unit digits of `currency` (EUR 2, JPY 0, BHD 3); nil when it is not a
    /// currency code the CLI can read amounts in.
    static func minorDigits(_ currency: String) -> Int? {
        CurrencyTable.minorDigits(currency)
    }

    /// The currency code in upper case, or a usage error naming `what`.
    static func currency(_ text: String, what: String = "CURRENCY") throws -> String {
        let code = text.uppercased()
        guard minorDigits(code) != nil else {
            throw ValidationError("\(what) '\(text)' is not an ISO 4217 currency code like EUR, USD or JPY")
        }
        return code
    }

    /// `text` in minor units of `currency`: "84.5" EUR → 8450, "1200" JPY → 1200, "1.250"
    /// BHD → 1250, read by `Money.parse`. Refuses signs, separators other than one dot, zero
    /// (unless `allowZero`), and more decimals than the currency has.
    static func minor(_ text: String, currency: String, what: String, allowZero: Bool = false) throws -> Int64 {
        guard minorDigits(currency) != nil else {
            throw ValidationError("\(currency) is not an ISO 4217 currency code like EUR, USD or JPY")
        }
        if text.contains(",") {
            throw ValidationError("\(what) '\(text)': write decimals with a dot (84.50), without thousands separators")
        }
        // The model's reading (the daemon's too): exact, at most 10^12 minor units, so a sum
        // of 100 of them (see TravellerEntry.parse) cannot overflow.
        let minor: Int64
        do {
            minor = try Money.parse(text, currency: currency)
        } catch {
            throw ValidationError("\(what): \(error.message)")
        }
        guard allowZero || minor > 0 else { throw ValidationError("\(what) '\(text)' must be more than zero") }
        return minor
    }

    /// `minor` in `currency` as typed back ("84.50 EUR").
    static func money(_ minor: Int64, _ currency: String) -> String {
        Money(amountMinor: minor, currency: currency).description
    }

    /// A percentage with at most two decimals ("33.33") in hundredths of a percent (3333).
    static func basisPoints(_ text: String, what: String) throws -> Int64 {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }
        guard parts.count <= 2, isDigits(parts[0]), parts.count == 1 || isDigits(parts[1]), parts[0].count <= 3
        else { throw ValidationError("\(what) '\(text)' is not a percentage like 25 or 33.33") }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 2 else {
            throw ValidationError("\(what) '\(text)' has more than 2 decimals (percentages go to 0.01)")
        }
        let value = Int64(String(parts[0]) + fraction + String(repeating: "0", count: 2 - fraction.count)) ?? 0
        guard (1...10_000).contains(value) else {
            throw ValidationError("\(what) '\(text)' must be more than 0 and at most 100")
        }
        return value
    }

    /// Basis points as the API's `percent` number (3333 → 33.33, 5000 → 50).
    static func percentJSON(_ basisPoints: Int64) -> JSONValue {
        basisPoints % 100 == 0 ? .int(basisPoints / 100) : .double(Double(basisPoints) / 100)
    }

    /// A rate as the API stores it: a plain positive decimal ("1.0834", "0.0061", "150").
    static func rate(_ text: String, what: String) throws -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }
        guard parts.count <= 2, isDigits(parts[0]), parts.count == 1 || isDigits(parts[1]),
            text.utf8.contains(where: { (49...57).contains($0) })
        else {
            throw ValidationError("\(what) '\(text)' is not a positive decimal rate like 1.0834")
        }
        return text
    }
}
