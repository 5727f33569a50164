import Testing

@testable import PlacesModel

/// The ISO 4217 table: what a user notices is an amount shown with the wrong number of
/// decimals, or a currency refused (or a made-up one accepted).
@Suite struct CurrencyTableTests {
    @Test(arguments: [
        ("EUR", 2), ("USD", 2), ("GBP", 2), ("JPY", 0), ("KRW", 0), ("ISK", 0), ("CLP", 0), ("VND", 0),
        ("XAF", 0), ("BHD", 3), ("KWD", 3), ("JOD", 3), ("OMR", 3), ("TND", 3), ("IQD", 3), ("LYD", 3),
        ("CLF", 4), ("UYW", 4),
    ])
    func exponentsAreISO4217s(code: String, digits: Int) {
        #expect(CurrencyTable.minorDigits(code) == digits)
        #expect(Money.minorDigits(code) == digits)
    }

    @Test(arguments: ["XAU", "XAG", "XDR", "XXX", "XTS", "XBA", "XPT", "XSU", "XUA"])
    func codesWithoutAMinorUnitAreKnownButHoldNoMoney(code: String) {
        #expect(CurrencyTable.contains(code))
        #expect(CurrencyTable.name(code) != nil)
        #expect(CurrencyTable.minorDigits(code) == nil)
        #expect(!CurrencyTable.codes.contains(code))
        // Existing prices in such a code keep their two-decimal display.
        #expect(Money.minorDigits(code) == 2)
    }

    @Test(arguments: ["EUR ", " EUR", "eur", "Eur", "ZZZ", "EU", "EURO", "", "E\u{0301}UR", "ＥＵＲ", "HRK"])
    func madeUpOrMisspelledCodesAreRefused(code: String) {
        #expect(CurrencyTable.minorDigits(code) == nil)
        #expect(CurrencyTable.name(code) == nil)
        #expect(!CurrencyTable.contains(code))
        #expect(throws: FieldError.self) { try FieldRule.currency.validate("settlementCurrency", .string(code)) }
    }

    @Test func namesComeFromISO4217() {
        #expect(CurrencyTable.name("EUR") == "Euro")
        #expect(CurrencyTable.name("JPY") == "Yen")
        #expect(CurrencyTable.name("BHD") == "Bahraini Dinar")
        #expect(CurrencyTable.name("CHF") == "Swiss Franc")
    }

    @Test func theTableHoldsEveryActiveCodeOnce() {
        // ISO 4217 List One of 2026-01-01 has 165 codes with a minor unit.
        let codes = CurrencyTable.codes
        #expect(codes.count == 165)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { Money.isValidCurrency($0) })
        for code in ["EUR", "USD", "JPY", "BHD", "CHF", "BRL", "INR", "CNY", "ZAR", "MXN"] {
            #expect(codes.contains(code), "\(code) is missing")
        }
    }

    @Test func theCurrencyRuleNamesWhatIsWrong() throws {
        #expect(try FieldRule.currency.validate("settlementCurrency", .string("JPY")) == .string("JPY"))
        #expect(try FieldRule.currency.validate("settlementCurrency", .null) == .null)
        #expect(
            throws: FieldError(
                "settlementCurrency", "'settlementCurrency' 'ZZZ' is not an ISO 4217 currency code such as EUR or JPY")
        ) { try FieldRule.currency.validate("settlementCurrency", .string("ZZZ")) }
        #expect(
            throws: FieldError(
                "settlementCurrency", "'settlementCurrency' XAU has no minor unit: money cannot be kept in it")
        ) { try FieldRule.currency.validate("settlementCurrency", .string("XAU")) }
        #expect(
            throws: FieldError(
                "settlementCurrency", "'settlementCurrency' must be an ISO 4217 currency code such as EUR")
        ) { try FieldRule.currency.validate("settlementCurrency", .int(978)) }
    }
}
