import PlacesModel
import Testing

@testable import PlacesExpenses

/// The ledger reading stored expense terms (PlacesModel's checked `ExpenseTerms`).
@Suite struct LedgerTermsTests {
    static let ana = String(repeating: "a", count: 64)
    static let bruno = String(repeating: "b", count: 32)
    static let carla = String(repeating: "c", count: 32)

    static func terms(
        _ amountMinor: Int64, _ currency: String = "EUR", mode: ExpenseTerms.Mode, among: [(String, Int64)],
        rate: String? = nil
    ) throws -> ExpenseTerms {
        try ExpenseTerms(
            kind: .expense, amount: Money(amountMinor: amountMinor, currency: currency),
            paidBy: [.init(traveller: ana, amountMinor: amountMinor)], mode: mode,
            among: among.map { .init(traveller: $0.0, weight: $0.1) }, settlement: "EUR",
            rate: try rate.map { try ExchangeRate($0) })
    }

    @Test func everySplitModeFromStoredTerms() throws {
        let people = [Self.ana, Self.bruno, Self.carla]
        let equal = try Self.terms(8450, mode: .equal, among: people.map { ($0, 1) })
        let shares = try Self.terms(8450, mode: .shares, among: zip(people, [2, 1, 1]).map { ($0, $1) })
        let exact = try Self.terms(8450, mode: .exact, among: zip(people, [4000, 4450, 0]).map { ($0, $1) })
        let percent = try Self.terms(8450, mode: .percent, among: zip(people, [5000, 2500, 2500]).map { ($0, $1) })
        let id = "00000000" + String(repeating: "0", count: 24)
        func split(_ terms: ExpenseTerms) throws -> [Int64] {
            try Ledger.shares(of: LedgerEntry(id: id, terms: terms, category: nil)).map(\.minor)
        }
        #expect(try split(equal) == [2817, 2817, 2816])
        #expect(try split(shares) == [4225, 2113, 2112])
        #expect(try split(exact) == [4000, 4450, 0])
        #expect(try split(percent) == [4225, 2113, 2112])
    }

    @Test func aDollarExpenseNetsToZeroInEuros() throws {
        let taxi = try Self.terms(
            10_001, "USD", mode: .equal, among: [Self.ana, Self.bruno, Self.carla].map { ($0, 1) }, rate: "0.9234")
        let ledger = try Ledger(currency: "EUR", entries: [LedgerEntry(id: "1", terms: taxi, category: "transport")])
        #expect(ledger.balances.map(\.paidMinor).reduce(0, +) == taxi.settledMinor)
        #expect(ledger.balances.map(\.shareMinor).reduce(0, +) == taxi.settledMinor)
        #expect(ledger.balances.map(\.balanceMinor).reduce(0, +) == 0)
        #expect(ledger.balances.allSatisfy { $0.byCategory.keys.sorted() == ["transport"] })
    }
}
