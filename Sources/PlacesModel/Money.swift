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

    /// Minor-unit digits per currency: 2 unless ISO 4217 says otherwise.
    public static func minorDigits(_ currency: String) -> Int {
        switch currency {
        case "JPY", "KRW", "ISK", "CLP", "VND", "XAF", "XOF", "PYG", "UGX", "RWF": 0
        case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD": 3
        default: 2
        }
    }

    /// "12.50 EUR".
    public var description: String {
        let digits = Money.minorDigits(currency)
        guard digits > 0 else { return "\(amountMinor) \(currency)" }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let sign = amountMinor < 0 ? "-" : ""
        let magnitude = amountMinor.magnitude
        let whole = magnitude / UInt64(scale)
        var fraction = String(magnitude % UInt64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return "\(sign)\(whole).\(fraction) \(currency)"
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
