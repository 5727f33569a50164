import Testing

@testable import PlacesModel

/// Exchange rates are exact decimals: a user typing 0.0061 gets exactly 0.0061, a converted
/// amount is the same cent on every device, and nonsense is refused with a reason.
@Suite struct ExchangeRateTests {
    @Test(arguments: [
        ("1.0834", "1.0834"), ("0.0061", "0.0061"), ("150", "150"), ("150.000", "150"), ("001.50", "1.5"),
        ("1.0834000", "1.0834"), ("0.000000000001", "0.000000000001"), ("1000000000", "1000000000"),
        ("123456.123456789012", "123456.123456789012"), ("10", "10"), ("0.5", "0.5"),
    ])
    func ratesReadAndWriteCanonically(text: String, canonical: String) throws {
        let rate = try ExchangeRate(text)
        #expect(rate.description == canonical)
        #expect(try ExchangeRate(canonical) == rate)
    }

    @Test(arguments: [
        "1e3", "1E3", "-1", "+1", "0", "0.0", "000", "1.2.3", "١٢", "１", "", " 1", "1 ", ".5", "5.", "1,5", "0x10",
        "0.0000000000001", "1000000000.1", "1000000001", "1234567.123456789012", "NaN", "inf", "1_000",
        String(repeating: "1", count: 65),
    ])
    func nonsenseIsRefusedNamingTheRate(text: String) {
        #expect(throws: FieldError.self) { try ExchangeRate(text) }
        do { _ = try ExchangeRate(text) } catch { #expect(error.field == "rate") }
    }

    @Test func refusalsSayWhatIsWrong() {
        #expect(throws: FieldError("rate", "a rate must be greater than 0")) { try ExchangeRate("0.000") }
        #expect(throws: FieldError("rate", "a rate is written without a sign: '-1' is not a rate; write e.g. 1.0834")) {
            try ExchangeRate("-1")
        }
        #expect(
            throws: FieldError("rate", "a rate is written in plain digits without an exponent: '1e3' is not a rate")
        ) { try ExchangeRate("1e3") }
        #expect(throws: FieldError("rate", "'0.0000000000001' has 13 digits after the point; a rate has at most 12")) {
            try ExchangeRate("0.0000000000001")
        }
        #expect(throws: FieldError("rate", "'1234567.123456789012' has 19 significant digits; a rate has at most 18")) {
            try ExchangeRate("1234567.123456789012")
        }
        #expect(throws: FieldError("rate", "the rate 1000000000.5 is too large: a rate is at most 1000000000")) {
            try ExchangeRate("1000000000.5")
        }
        #expect(
            throws: FieldError(
                "rate", "'1.2.3' is not a rate: write digits 0-9 with at most one decimal point, such as 1.0834")
        ) { try ExchangeRate("1.2.3") }
    }

    @Test func yenToEuroAndEuroToDinar() throws {
        // 15,000 JPY at 0.0061 EUR per yen = 91.50 EUR.
        #expect(try ExchangeRate("0.0061").convert(15_000, from: "JPY", to: "EUR") == 9_150)
        // 1,234 JPY = 7.5274 EUR → 7.53 EUR.
        #expect(try ExchangeRate("0.0061").convert(1_234, from: "JPY", to: "EUR") == 753)
        // 100.00 EUR at 0.41 BHD per euro = 41.000 BHD (three decimals).
        #expect(try ExchangeRate("0.41").convert(10_000, from: "EUR", to: "BHD") == 41_000)
        // 0.01 EUR = 0.0041 BHD → 0.004 BHD.
        #expect(try ExchangeRate("0.41").convert(1, from: "EUR", to: "BHD") == 4)
        // 84.50 EUR at 161.5 JPY per euro = 13,646.75 → 13,647 JPY.
        #expect(try ExchangeRate("161.5").convert(8_450, from: "EUR", to: "JPY") == 13_647)
        // Unidad de Fomento has four decimals: 1 CLF at 1 = 1.0000 CLF.
        #expect(try ExchangeRate("1").convert(100, from: "USD", to: "CLF") == 10_000)
        #expect(try ExchangeRate("1").convert(8_450, from: "EUR", to: "EUR") == 8_450)
    }

    @Test func halvesRoundAwayFromZero() throws {
        let half = try ExchangeRate("0.5")
        #expect(half.convert(1, from: "EUR", to: "USD") == 1)  // 0.005 USD → 0.01
        #expect(half.convert(3, from: "EUR", to: "USD") == 2)  // 0.015 → 0.02
        #expect(half.convert(5, from: "EUR", to: "USD") == 3)  // 0.025 → 0.03 (not to even)
        #expect(half.convert(-3, from: "EUR", to: "USD") == -2)
        #expect(half.convert(2, from: "EUR", to: "USD") == 1)
        #expect(try ExchangeRate("0.4999").convert(1, from: "EUR", to: "USD") == 0)
        #expect(try ExchangeRate("0.005").convert(1, from: "JPY", to: "EUR") == 1)  // 0.5 cent
        #expect(try ExchangeRate("0.00499").convert(1, from: "JPY", to: "EUR") == 0)
    }

    @Test func resultsBeyondTenToTheTwelveAreNil() throws {
        #expect(try ExchangeRate("1").convert(1_000_000_000_000, from: "EUR", to: "USD") == 1_000_000_000_000)
        #expect(try ExchangeRate("1.01").convert(1_000_000_000_000, from: "EUR", to: "USD") == nil)
        #expect(try ExchangeRate("1").convert(-1_000_000_000_001, from: "EUR", to: "USD") == nil)
        #expect(try ExchangeRate("1000000000").convert(Int64.max, from: "JPY", to: "CLF") == nil)
        #expect(try ExchangeRate("1000000000").convert(Int64.min, from: "JPY", to: "CLF") == nil)
        #expect(try ExchangeRate("123456.123456789012").convert(Int64.max, from: "EUR", to: "BHD") == nil)
        #expect(try ExchangeRate("0.000000000001").convert(Int64.max, from: "CLF", to: "JPY") == 922)
        #expect(try ExchangeRate("1").convert(100, from: "XAU", to: "EUR") == nil)
        #expect(try ExchangeRate("1").convert(100, from: "EUR", to: "ZZZ") == nil)
    }

    /// Seeded random rates and amounts: the result is the exact quotient rounded half away
    /// from zero, checked by cross-multiplication rather than by the division `convert` does.
    @Test func conversionIsTheExactQuotientRounded() throws {
        var rng = SeededRandom(state: 14)
        let currencies = ["EUR", "JPY", "BHD", "CLF", "USD", "KRW"]
        for _ in 0..<5_000 {
            let scale = Int.random(in: 0...12, using: &rng)
            let digits = Int.random(in: 1...18, using: &rng)
            let significand = Int64.random(in: 1..<Int64(10).power(digits), using: &rng)
            guard let rate = try? ExchangeRate(ExchangeRateTests.text(significand, scale)) else {
                continue
            }
            let amount = Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng)
            let from = currencies.randomElement(using: &rng)!
            let to = currencies.randomElement(using: &rng)!
            let f = CurrencyTable.minorDigits(from)!
            let t = CurrencyTable.minorDigits(to)!
            // exact = amount × significand × 10^t / 10^(scale + f)
            let numerator = Int128(amount) * Int128(rate.significand) * ExchangeRate.power(t)
            let denominator = ExchangeRate.power(rate.scale + f)
            let result = rate.convert(amount, from: from, to: to)
            guard let result else {
                // nil only when the rounded magnitude is over 10^12.
                let rounded = (numerator.magnitude * 2 + denominator.magnitude) / (denominator.magnitude * 2)
                #expect(rounded > 1_000_000_000_000, "\(amount) \(from) at \(rate) → nil")
                continue
            }
            let error = numerator - Int128(result) * denominator  // exact − result, times the denominator
            #expect(error.magnitude * 2 <= denominator.magnitude, "\(amount) \(from) at \(rate) → \(result) \(to)")
            if error.magnitude * 2 == denominator.magnitude {
                // A tie: the result lies further from zero than the exact value.
                #expect(result.magnitude > 0 && (error < 0) == (amount > 0))
            }
        }
    }

    static func text(_ significand: Int64, _ scale: Int) -> String {
        let digits = String(significand)
        guard scale > 0 else { return digits }
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let cut = padded.index(padded.endIndex, offsetBy: -scale)
        return "\(padded[..<cut]).\(padded[cut...])"
    }
}

extension Int64 {
    fileprivate func power(_ n: Int) -> Int64 {
        var p: Int64 = 1
        for _ in 0..<n { p *= self }
        return p
    }
}
