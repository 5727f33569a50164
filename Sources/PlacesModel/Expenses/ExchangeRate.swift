/// An exchange rate as an exact decimal: 1 unit of one currency = `rate` units of another
/// (major units: the rate 0.92 from USD to EUR means 1 USD = 0.92 EUR). Never a floating-point number:
/// the value is `significand / 10^scale`, both integers (`Protocol/expenses.md` §3).
///
/// Bounds: greater than 0 and at most 10^9; at most 12 digits after the point and at most 18
/// significant digits. Written in ASCII digits with an optional point and fraction ("150",
/// "1.0834", "0.0061"); no sign, exponent, grouping or other digits.
public struct ExchangeRate: Hashable, Sendable, CustomStringConvertible {
    /// The digits without the point, leading and trailing zeros removed: 10834 for "1.0834".
    public let significand: Int64
    /// The number of digits after the point: 4 for "1.0834" (0…12).
    public let scale: Int

    /// The most digits after the point.
    public static let maxScale = 12
    /// The most significant digits.
    public static let maxSignificantDigits = 18
    /// The largest rate: 10^9.
    public static let maxValue: Int64 = 1_000_000_000
    /// The largest converted amount in minor units (as for every amount): 10^12.
    public static let maxConvertedMinor: Int64 = 1_000_000_000_000

    /// Reads a rate written as decimal text ("1.0834", "0.0061", "150"). Leading zeros and
    /// trailing zeros after the point are accepted and dropped (`description` is the canonical
    /// form). Errors name the field `rate`.
    public init(_ text: String) throws(FieldError) {
        let field = "rate"
        let bytes = Array(text.utf8)
        // Longer text is never a rate a person typed; refusing it first bounds the work.
        guard !bytes.isEmpty, bytes.count <= 64 else {
            throw FieldError(field, "a rate is a decimal number such as 1.0834, of at most 64 characters")
        }
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(point ?? bytes.endIndex)]
        let fraction = point.map { bytes[($0 + 1)...] } ?? []
        let isDigit: (UInt8) -> Bool = { (48...57).contains($0) }
        if bytes.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) {
            throw FieldError(field, "a rate is written without a sign: '\(text)' is not a rate; write e.g. 1.0834")
        }
        if bytes.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            throw FieldError(field, "a rate is written in plain digits without an exponent: '\(text)' is not a rate")
        }
        guard !whole.isEmpty, whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit),
            point == nil || !fraction.isEmpty
        else {
            throw FieldError(
                field, "'\(text)' is not a rate: write digits 0-9 with at most one decimal point, such as 1.0834")
        }
        // Drop trailing zeros of the fraction and leading zeros of the whole number.
        var fractionDigits = Array(fraction)
        while fractionDigits.last == UInt8(ascii: "0") { fractionDigits.removeLast() }
        guard fractionDigits.count <= ExchangeRate.maxScale else {
            throw FieldError(
                field, "'\(text)' has \(fractionDigits.count) digits after the point; a rate has at most 12")
        }
        var digits = Array(whole) + fractionDigits
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        guard !digits.isEmpty else { throw FieldError(field, "a rate must be greater than 0") }
        // Significant digits: from the first non-zero digit to the last digit of the canonical text.
        guard digits.count <= ExchangeRate.maxSignificantDigits else {
            throw FieldError(field, "'\(text)' has \(digits.count) significant digits; a rate has at most 18")
        }
        var value: Int64 = 0
        for d in digits { value = value * 10 + Int64(d - 48) }  // < 10^18: no overflow
        significand = value
        scale = fractionDigits.count
        guard Int128(significand) <= Int128(ExchangeRate.maxValue) * ExchangeRate.power(scale) else {
            throw FieldError(field, "the rate \(text) is too large: a rate is at most 1000000000")
        }
    }

    /// The canonical text: no leading zeros (one `0` before a point), no trailing zeros after
    /// the point, no point for a whole number: "1.0834", "0.0061", "150".
    public var description: String {
        let digits = String(significand)
        guard scale > 0 else { return digits }
        if digits.count > scale {
            let cut = digits.index(digits.endIndex, offsetBy: -scale)
            return "\(digits[..<cut]).\(digits[cut...])"
        }
        return "0." + String(repeating: "0", count: scale - digits.count) + digits
    }

    /// `amountMinor` minor units of `from` converted at this rate to minor units of `to`,
    /// rounded half away from zero (exact integer arithmetic); nil when either currency has no
    /// minor unit in `CurrencyTable` or the result's magnitude exceeds 10^12.
    ///
    /// result = amountMinor × significand × 10^digits(to) / (10^scale × 10^digits(from)).
    public func convert(_ amountMinor: Int64, from: String, to: String) -> Int64? {
        guard let fromDigits = CurrencyTable.minorDigits(from), let toDigits = CurrencyTable.minorDigits(to) else {
            return nil
        }
        // Magnitudes: |Int64| × 10^18 × 10^4 can exceed Int128; an overflow means the quotient
        // (divided by at most 10^16) is far above 10^12, so nil is the right answer.
        let (product, overflow) = Int128(amountMinor.magnitude).multipliedReportingOverflow(
            by: Int128(significand) * ExchangeRate.power(toDigits))
        guard !overflow else { return nil }
        let divisor = ExchangeRate.power(scale + fromDigits)
        var quotient = product / divisor
        let remainder = product % divisor
        if remainder * 2 >= divisor { quotient += 1 }
        guard quotient <= Int128(ExchangeRate.maxConvertedMinor) else { return nil }
        return amountMinor < 0 ? -Int64(quotient) : Int64(quotient)
    }

    /// 10^n for 0 ≤ n ≤ 30.
    static func power(_ n: Int) -> Int128 {
        var p: Int128 = 1
        for _ in 0..<n { p *= 10 }
        return p
    }
}
