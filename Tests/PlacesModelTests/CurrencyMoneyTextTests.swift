import Testing

@testable import PlacesModel

/// Amounts typed and shown in major units: "84.50 EUR" is 8450 cents, "1500 JPY" 1500 yen,
/// and a typo is refused rather than silently rounded.
@Suite struct CurrencyMoneyTextTests {
    @Test(
        arguments: [
            (8_450, "EUR", "84.50"), (5, "EUR", "0.05"), (0, "EUR", "0.00"), (-3_000, "BHD", "-3.000"),
            (5, "BHD", "0.005"),
            (1_500, "JPY", "1500"), (-7, "JPY", "-7"), (1, "CLF", "0.0001"), (1_250, "ZZZ", "12.50"),
            (1_250, "XAU", "12.50"),
            (Int64.min, "EUR", "-92233720368547758.08"), (Int64.max, "BHD", "9223372036854775.807"),
        ] as [(Int64, String, String)])
    func decimalTextUsesTheCurrencysExponent(minor: Int64, currency: String, text: String) {
        let money = Money(amountMinor: minor, currency: currency)
        #expect(money.decimalText == text)
        #expect(money.description == "\(text) \(currency)")
    }

    @Test(
        arguments: [
            ("84.5", "EUR", 8_450), ("84.50", "EUR", 8_450), ("84", "EUR", 8_400), ("0.05", "EUR", 5), ("0", "EUR", 0),
            ("007.5", "EUR", 750), ("1500", "JPY", 1_500), ("3.5", "BHD", 3_500), ("3.005", "BHD", 3_005),
            ("1.2345", "CLF", 12_345), ("10000000000", "EUR", 1_000_000_000_000),
            ("1000000000000", "JPY", 1_000_000_000_000),
        ] as [(String, String, Int64)])
    func parseReadsMajorUnits(text: String, currency: String, minor: Int64) throws {
        #expect(try Money.parse(text, currency: currency) == minor)
    }

    @Test func parseRefusesPreciselyNamingTheAmount() {
        let cases: [(String, String, String)] = [
            ("84.505", "EUR", "'84.505' has 3 decimals but EUR has only 2"),
            ("1500.5", "JPY", "'1500.5' has 1 decimal but JPY has none"),
            ("-84.50", "EUR", "an amount is written without a sign: '-84.50' is not an amount"),
            ("+84.50", "EUR", "an amount is written without a sign: '+84.50' is not an amount"),
            ("1e3", "EUR", "an amount is written in plain digits without an exponent: '1e3'"),
            ("10000000000.01", "EUR", "'10000000000.01' is too large: an amount is at most 10000000000.00 EUR"),
            (
                "99999999999999999999999", "EUR",
                "'99999999999999999999999' is too large: an amount is at most 10000000000.00 EUR"
            ),
            ("1000000000001", "JPY", "'1000000000001' is too large: an amount is at most 1000000000000 JPY"),
            (
                "84,50", "EUR",
                "'84,50' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50"
            ),
            ("١٢", "EUR", "'١٢' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50"),
            ("84.", "EUR", "'84.' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50"),
            (".5", "EUR", "'.5' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50"),
            (
                "1.2.3", "EUR",
                "'1.2.3' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50"
            ),
            (" 84", "EUR", "' 84' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50"),
            ("", "EUR", "an amount is a decimal number such as 84.50, of at most 64 characters"),
            ("84.50", "ZZZ", "'ZZZ' is not an ISO 4217 currency code such as EUR or JPY"),
            ("84.50", "eur", "'eur' is not an ISO 4217 currency code such as EUR or JPY"),
            ("1", "XAU", "XAU has no minor unit: money cannot be kept in it"),
        ]
        for (text, currency, message) in cases {
            #expect(throws: FieldError("amount", message), "\(text) \(currency)") {
                try Money.parse(text, currency: currency)
            }
        }
    }

    /// Every amount shown reads back as itself, in every currency of the table.
    @Test func decimalTextAndParseAreInverse() throws {
        var rng = SeededRandom(state: 4217)
        let codes = CurrencyTable.codes
        for _ in 0..<2_000 {
            let currency = codes.randomElement(using: &rng)!
            let minor = Int64.random(in: 0...1_000_000_000_000, using: &rng) >> Int.random(in: 0...40, using: &rng)
            let text = Money(amountMinor: minor, currency: currency).decimalText
            #expect(try Money.parse(text, currency: currency) == minor, "\(text) \(currency)")
        }
    }
}
