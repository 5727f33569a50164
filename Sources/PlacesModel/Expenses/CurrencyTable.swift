/// The ISO 4217 currencies a trip's money may be in: the active codes of ISO 4217 List One
/// with their minor-unit exponents (JPY 0, EUR 2, BHD 3, CLF 4) and English names.
///
/// The data is `CurrencyTable+Data.swift`, written by `scripts/gen-currency-table.py` from the
/// ISO 4217 table itself (see the comment there for the sources and cross-checks). Every device
/// must accept the same ops, so the table changes only with a release and only grows: a code ISO
/// withdraws later stays accepted, or ops already stored would be refused by newer peers
/// (`Protocol/expenses.md`).
public enum CurrencyTable {
    /// One currency: its minor-unit exponent (nil where ISO 4217 says "N.A.": gold, the SDR,
    /// the testing code) and its English name as ISO 4217 writes it.
    struct Entry: Sendable {
        let minorDigits: Int?
        let name: String

        init(_ minorDigits: Int?, _ name: String) {
            self.minorDigits = minorDigits
            self.name = name
        }
    }

    /// The number of minor-unit digits of `code` (JPY 0, EUR 2, BHD 3); nil when `code` is not
    /// an active ISO 4217 code (exactly three uppercase letters) or has no minor unit (XAU, XXX).
    public static func minorDigits(_ code: String) -> Int? {
        entries[code]?.minorDigits
    }

    /// The English name of `code` ("Euro", "Yen"); nil when it is not an active ISO 4217 code.
    public static func name(_ code: String) -> String? {
        entries[code]?.name
    }

    /// Whether `code` is an ISO 4217 code in this table (with or without a minor unit).
    public static func contains(_ code: String) -> Bool {
        entries[code] != nil
    }

    /// Every code money can be kept in (those with a minor unit), sorted.
    public static var codes: [String] {
        entries.filter { $0.value.minorDigits != nil }.keys.sorted()
    }
}
