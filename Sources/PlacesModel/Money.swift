/// An amount of money in integer minor units (cents) with its ISO 4217 currency code.
/// Never a Double.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount in the currency's minor unit (1250 = 12.50 EUR).
    public var amountMinor: Int64
    /// ISO 4217 alphabetic code, three uppercase letters.
    public var currency: String

    public init(amountMinor: Int64, currency: String) {
        self.amountMinor = amountMinor
        self.currency = currency
    }

    /// Whether `currency` looks like an ISO 4217 code (three letters A–Z).
    public static func isValidCurrency(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (65...90).contains($0) }
    }

    /// Minor-unit digits of `currency` for display and parsing: its ISO 4217 exponent from
    /// `CurrencyTable` (JPY 0, EUR 2, BHD 3); 2 for a code the table does not know or one
    /// without a minor unit (XAU), so a price stored in such a code still reads as before.
    public static func minorDigits(_ currency: String) -> Int {
        CurrencyTable.minorDigits(currency) ?? 2
    }

    /// "12.50 EUR", "1500 JPY", "-3.000 BHD".
    public var description: String { "\(decimalText) \(currency)" }

    /// The amount in major units as decimal text, without the currency: "84.50", "1500" for
    /// JPY, "-3.000" for BHD (`minorDigits` digits after the point).
    public var decimalText: String {
        let digits = Money.minorDigits(currency)
        let sign = amountMinor < 0 ? "-" : ""
        let magnitude = String(amountMinor.magnitude)
        guard digits > 0 else { return sign + magnitude }
        let padded = String(repeating: "0", count: max(0, digits + 1 - magnitude.count)) + magnitude
        let cut = padded.index(padded.endIndex, offsetBy: -digits)
        return "\(sign)\(padded[..<cut]).\(padded[cut...])"
    }

    /// Reads an amount typed in major units ("84.5", "84.50", "1500") as minor units of
    /// `currency` (8450 for EUR). Refuses a sign, an exponent, grouping, digits other than
    /// ASCII 0-9, more decimals than the currency has, and more than 10^12 minor units. The
    /// currency must be in `CurrencyTable` with a minor unit. Errors name the field `amount`.
    public static func parse(_ text: String, currency: String) throws(FieldError) -> Int64 {
        let field = "amount"
        guard let digits = CurrencyTable.minorDigits(currency) else {
            if CurrencyTable.contains(currency) {
                throw FieldError(field, "\(currency) has no minor unit: money cannot be kept in it")
            }
            throw FieldError(field, "'\(currency.prefix(16))' is not an ISO 4217 currency code such as EUR or JPY")
        }
        let bytes = Array(text.utf8)
        let shown = String(text.prefix(32))
        guard !bytes.isEmpty, bytes.count <= 64 else {
            throw FieldError(field, "an amount is a decimal number such as 84.50, of at most 64 characters")
        }
        if bytes.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) {
            throw FieldError(field, "an amount is written without a sign: '\(shown)' is not an amount")
        }
        if bytes.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            throw FieldError(field, "an amount is written in plain digits without an exponent: '\(shown)'")
        }
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(point ?? bytes.endIndex)]
        let fraction = point.map { bytes[($0 + 1)...] } ?? []
        let isDigit: (UInt8) -> Bool = { (48...57).contains($0) }
        guard !whole.isEmpty, whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), point == nil || !fraction.isEmpty
        else {
            throw FieldError(
                field, "'\(shown)' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50")
        }
        guard fraction.count <= digits else {
            let has = "\(fraction.count) decimal\(fraction.count == 1 ? "" : "s")"
            throw FieldError(
                field, "'\(shown)' has \(has) but \(currency) has \(digits == 0 ? "none" : "only \(digits)")")
        }
        // Leading zeros dropped, more than 13 digits in all is over 10^12 in any currency, so
        // the accumulation below cannot overflow.
        let wholeDigits = whole.drop(while: { $0 == UInt8(ascii: "0") })
        let limit = FieldRule.maxAmountMinor
        let largest = Money(amountMinor: limit, currency: currency)
        let tooLarge = FieldError(field, "'\(shown)' is too large: an amount is at most \(largest)")
        guard wholeDigits.count + digits <= 13 else { throw tooLarge }
        var value: Int64 = 0
        for d in wholeDigits { value = value * 10 + Int64(d - 48) }
        for i in 0..<digits {
            let d = i < fraction.count ? Int64(fraction[fraction.startIndex + i] - 48) : 0
            value = value * 10 + d
        }
        guard value <= limit else { throw tooLarge }
        return value
    }

    /// This amount as a JSON register value.
    public var jsonValue: JSONValue {
        .object(["amountMinor": .int(amountMinor), "currency": .string(currency)])
    }

    /// Reads `{"amountMinor": Int, "currency": "EUR"}`.
    public init?(_ value: JSONValue) {
        guard case .object(let o) = value, let a = o["amountMinor"]?.intValue, let c = o["currency"]?.stringValue
        else { return nil }
        self.init(amountMinor: a, currency: c)
    }
}
