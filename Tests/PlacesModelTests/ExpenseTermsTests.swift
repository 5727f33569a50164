import Testing

@testable import PlacesModel

/// Every rule of an expense's money (`Protocol/expenses.md` §5), each broken once: the user
/// sees a 400 naming the field and saying exactly what is wrong, and nothing is stored.
@Suite struct ExpenseTermsTests {
    static let ana = String(repeating: "a", count: 64)  // a member (public key)
    static let bruno = String(repeating: "b", count: 64)
    static let carla = String(repeating: "c", count: 32)  // a named traveller (entity id)
    static let leo = String(repeating: "d", count: 32)
    var ana: String { Self.ana }
    var bruno: String { Self.bruno }
    var carla: String { Self.carla }

    func eur(_ cents: Int64) -> Money { Money(amountMinor: cents, currency: "EUR") }

    /// Dinner at Ramiro: 84.50 EUR paid by Ana, split equally among three.
    func dinner(
        kind: ExpenseTerms.Kind = .expense, amount: Money? = nil, paidBy: [ExpenseTerms.Payer]? = nil,
        mode: ExpenseTerms.Mode = .equal, among: [ExpenseTerms.Part]? = nil, settlement: String = "EUR",
        rate: String? = nil
    ) throws -> ExpenseTerms {
        try ExpenseTerms(
            kind: kind, amount: amount ?? eur(8_450),
            paidBy: paidBy ?? [.init(traveller: ana, amountMinor: (amount ?? eur(8_450)).amountMinor)],
            mode: mode, among: among ?? [ana, bruno, carla].map { .init(traveller: $0, weight: 1) },
            settlement: settlement, rate: try rate.map { try ExchangeRate($0) })
    }

    func expectRefusal(
        _ field: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ make: () throws -> ExpenseTerms
    ) {
        #expect(throws: FieldError(field, message), sourceLocation: sourceLocation) { _ = try make() }
    }

    @Test func aValidDinner() throws {
        let terms = try dinner()
        #expect(terms.settledMinor == 8_450)
        #expect(terms.travellers == [ana, bruno, carla])
        #expect(terms.rate == nil)
        #expect(terms.among.map(\.weight) == [1, 1, 1])
    }

    @Test func equalSplitsIgnoreWeights() throws {
        let terms = try dinner(among: [.init(traveller: ana, weight: 7), .init(traveller: bruno, weight: -3)])
        #expect(terms.among.map(\.weight) == [1, 1])
        #expect(terms == (try dinner(among: [.init(traveller: ana, weight: 1), .init(traveller: bruno, weight: 1)])))
    }

    @Test func theAmount() {
        expectRefusal("amount", "the amount must be more than zero and at most 10000000000.00 EUR; it is 0.00 EUR") {
            try dinner(amount: eur(0))
        }
        expectRefusal("amount", "the amount must be more than zero and at most 10000000000.00 EUR; it is -1.00 EUR") {
            try dinner(amount: eur(-100))
        }
        expectRefusal(
            "amount", "the amount must be more than zero and at most 10000000000.00 EUR; it is 10000000000.01 EUR"
        ) { try dinner(amount: eur(1_000_000_000_001)) }
        expectRefusal("amount", "the amount's currency 'ZZZ' is not an ISO 4217 currency code such as EUR or JPY") {
            try dinner(amount: Money(amountMinor: 100, currency: "ZZZ"), rate: "1")
        }
        expectRefusal("amount", "the amount's currency 'eur' is not an ISO 4217 currency code such as EUR or JPY") {
            try dinner(amount: Money(amountMinor: 100, currency: "eur"))
        }
        expectRefusal("amount", "the amount's currency XAU has no minor unit: money cannot be kept in it") {
            try dinner(amount: Money(amountMinor: 100, currency: "XAU"), rate: "1")
        }
    }

    @Test func theSettlementCurrency() {
        expectRefusal(
            "settlement", "the settlement currency 'EURO' is not an ISO 4217 currency code such as EUR or JPY"
        ) {
            try dinner(settlement: "EURO", rate: "1")
        }
        expectRefusal("settlement", "the settlement currency XXX has no minor unit: money cannot be kept in it") {
            try dinner(settlement: "XXX", rate: "1")
        }
    }

    @Test func thePayers() {
        expectRefusal("paidBy", "payers sum to 84.49 EUR but the amount is 84.50 EUR") {
            try dinner(paidBy: [.init(traveller: ana, amountMinor: 8_000), .init(traveller: bruno, amountMinor: 449)])
        }
        expectRefusal("paidBy", "payers sum to 84.51 EUR but the amount is 84.50 EUR") {
            try dinner(paidBy: [.init(traveller: ana, amountMinor: 8_000), .init(traveller: bruno, amountMinor: 451)])
        }
        expectRefusal("paidBy", "'paidBy' must list 1 to 100 travellers; it lists 0") { try dinner(paidBy: []) }
        let many = (0..<101).map { ExpenseTerms.Payer(traveller: String(format: "%032x", $0), amountMinor: 1) }
        expectRefusal("paidBy", "'paidBy' must list 1 to 100 travellers; it lists 101") {
            try dinner(amount: eur(101), paidBy: many)
        }
        expectRefusal("paidBy", "the traveller \(ana) is listed twice in 'paidBy'") {
            try dinner(paidBy: [.init(traveller: ana, amountMinor: 8_000), .init(traveller: ana, amountMinor: 450)])
        }
        expectRefusal("paidBy", "'Ana' in 'paidBy' is not a traveller (a member's key or a traveller id)") {
            try dinner(paidBy: [.init(traveller: "Ana", amountMinor: 8_450)])
        }
        expectRefusal(
            "paidBy", "'\(carla.uppercased())' in 'paidBy' is not a traveller (a member's key or a traveller id)"
        ) {
            try dinner(paidBy: [.init(traveller: carla.uppercased(), amountMinor: 8_450)])
        }
        expectRefusal(
            "paidBy",
            "the payer \(bruno) paid 0.00 EUR; a payer pays more than zero and at most the amount 84.50 EUR"
        ) { try dinner(paidBy: [.init(traveller: ana, amountMinor: 8_450), .init(traveller: bruno, amountMinor: 0)]) }
        expectRefusal(
            "paidBy",
            "the payer \(bruno) paid -1.00 EUR; a payer pays more than zero and at most the amount 84.50 EUR"
        ) {
            try dinner(paidBy: [.init(traveller: bruno, amountMinor: -100), .init(traveller: ana, amountMinor: 8_550)])
        }
    }

    @Test func whoItIsSplitAmong() {
        expectRefusal("split", "the split must list 1 to 100 travellers; it lists 0") { try dinner(among: []) }
        let many = (0..<101).map { ExpenseTerms.Part(traveller: String(format: "%032x", $0), weight: 1) }
        expectRefusal("split", "the split must list 1 to 100 travellers; it lists 101") { try dinner(among: many) }
        #expect(throws: Never.self) { try dinner(among: Array(many.prefix(100))) }
        expectRefusal("split", "the traveller \(carla) is listed twice in the split") {
            try dinner(among: [carla, ana, carla].map { .init(traveller: $0, weight: 1) })
        }
        expectRefusal("split", "'me' in the split is not a traveller (a member's key or a traveller id)") {
            try dinner(among: [.init(traveller: "me", weight: 1)])
        }
    }

    @Test func shares() throws {
        let terms = try dinner(
            mode: .shares, among: [.init(traveller: ana, weight: 2), .init(traveller: bruno, weight: 1)])
        #expect(terms.among.map(\.weight) == [2, 1])
        expectRefusal("split", "the traveller \(bruno) has 0 shares; shares are 1 to 1000000") {
            try dinner(mode: .shares, among: [.init(traveller: ana, weight: 2), .init(traveller: bruno, weight: 0)])
        }
        expectRefusal("split", "the traveller \(ana) has 1000001 shares; shares are 1 to 1000000") {
            try dinner(mode: .shares, among: [.init(traveller: ana, weight: 1_000_001)])
        }
    }

    @Test func exactAmountsOffByOneMinorUnit() throws {
        let parts = { (a: Int64, b: Int64) in
            [ExpenseTerms.Part(traveller: self.ana, weight: a), .init(traveller: self.bruno, weight: b)]
        }
        #expect(try dinner(mode: .exact, among: parts(8_450, 0)).among.map(\.weight) == [8_450, 0])
        expectRefusal("split", "the exact amounts sum to 84.49 EUR but the amount is 84.50 EUR") {
            try dinner(mode: .exact, among: parts(4_225, 4_224))
        }
        expectRefusal("split", "the exact amounts sum to 84.51 EUR but the amount is 84.50 EUR") {
            try dinner(mode: .exact, among: parts(4_226, 4_225))
        }
        let yen = Money(amountMinor: 3_001, currency: "JPY")
        expectRefusal("split", "the exact amounts sum to 3000 JPY but the amount is 3001 JPY") {
            try dinner(amount: yen, mode: .exact, among: parts(1_500, 1_500), settlement: "JPY")
        }
        expectRefusal("split", "the traveller \(bruno) has -0.01 EUR; an exact share is 0 to the amount 84.50 EUR") {
            try dinner(
                mode: .exact, among: [.init(traveller: bruno, weight: -1), .init(traveller: ana, weight: 8_451)])
        }
        expectRefusal("split", "the traveller \(ana) has 84.51 EUR; an exact share is 0 to the amount 84.50 EUR") {
            try dinner(mode: .exact, among: parts(8_451, 0))
        }
    }

    @Test func percentagesMustMakeExactlyAHundred() throws {
        let parts = { (w: [Int64]) in
            zip([self.ana, self.bruno, self.carla], w).map { ExpenseTerms.Part(traveller: $0, weight: $1) }
        }
        #expect(try dinner(mode: .percent, among: parts([3_334, 3_333, 3_333])).among.count == 3)
        expectRefusal("split", "the percentages sum to 99.99 % but must sum to exactly 100 %") {
            try dinner(mode: .percent, among: parts([3_333, 3_333, 3_333]))
        }
        expectRefusal("split", "the percentages sum to 100.01 % but must sum to exactly 100 %") {
            try dinner(mode: .percent, among: parts([3_335, 3_333, 3_333]))
        }
        expectRefusal("split", "the traveller \(carla) has 0 %; a percentage is more than 0 and at most 100") {
            try dinner(mode: .percent, among: parts([5_000, 5_000, 0]))
        }
        expectRefusal("split", "the traveller \(ana) has 100.5 %; a percentage is more than 0 and at most 100") {
            try dinner(mode: .percent, among: parts([10_050]))
        }
    }

    @Test func transfers() throws {
        let pay = try dinner(
            kind: .transfer, amount: eur(4_120), paidBy: [.init(traveller: bruno, amountMinor: 4_120)], mode: .exact,
            among: [.init(traveller: ana, weight: 4_120)])
        #expect(pay.kind == .transfer && pay.travellers == [ana, bruno])
        expectRefusal("paidBy", "a transfer has exactly one payer; this one has 2") {
            try dinner(
                kind: .transfer,
                paidBy: [.init(traveller: ana, amountMinor: 8_000), .init(traveller: bruno, amountMinor: 450)],
                mode: .exact, among: [.init(traveller: carla, weight: 8_450)])
        }
        let toOne = "a transfer goes to exactly one traveller: split 'exact' with one traveller and the whole amount"
        expectRefusal("split", toOne) {
            try dinner(
                kind: .transfer, paidBy: [.init(traveller: bruno, amountMinor: 8_450)],
                among: [.init(traveller: ana, weight: 1)])
        }
        expectRefusal("split", toOne) {
            try dinner(
                kind: .transfer, paidBy: [.init(traveller: bruno, amountMinor: 8_450)], mode: .exact,
                among: [.init(traveller: ana, weight: 8_000), .init(traveller: carla, weight: 450)])
        }
        expectRefusal("split", "a transfer goes to a traveller other than the payer") {
            try dinner(
                kind: .transfer, paidBy: [.init(traveller: bruno, amountMinor: 8_450)], mode: .exact,
                among: [.init(traveller: bruno, weight: 8_450)])
        }
        // The exact amount must still be the whole amount.
        expectRefusal("split", "the exact amounts sum to 84.49 EUR but the amount is 84.50 EUR") {
            try dinner(
                kind: .transfer, paidBy: [.init(traveller: bruno, amountMinor: 8_450)], mode: .exact,
                among: [.init(traveller: ana, weight: 8_449)])
        }
    }

    @Test func foreignCurrencyNeedsItsRate() throws {
        let usd = Money(amountMinor: 10_000, currency: "USD")
        let terms = try dinner(amount: usd, rate: "0.92")
        #expect(terms.settledMinor == 9_200)
        #expect(terms.rate?.description == "0.92")
        let yen = try dinner(amount: Money(amountMinor: 15_000, currency: "JPY"), rate: "0.0061")
        #expect(yen.settledMinor == 9_150)
        let toYen = try dinner(settlement: "JPY", rate: "161.5")
        #expect(toYen.settledMinor == 13_647)
        expectRefusal("rate", "an expense in USD needs the rate from USD to the settlement currency EUR") {
            try dinner(amount: usd)
        }
        expectRefusal("rate", "an expense in the settlement currency EUR has no rate; leave 'rate' out") {
            try dinner(rate: "1")
        }
        expectRefusal("rate", "10000000000.00 EUR at the rate 1.5 is more than 10000000000.00 USD") {
            try dinner(
                amount: eur(1_000_000_000_000), paidBy: [.init(traveller: ana, amountMinor: 1_000_000_000_000)],
                settlement: "USD", rate: "1.5")
        }
        expectRefusal("rate", "1000000.00 EUR at the rate 10000000 is more than 1000000000000 KRW") {
            try dinner(
                amount: eur(100_000_000), paidBy: [.init(traveller: ana, amountMinor: 100_000_000)], settlement: "KRW",
                rate: "10000000")
        }
    }
}
