import Testing

@testable import PlacesExpenses

/// Properties over seeded random trips (LedgerBenchFixture with small sizes: every split mode,
/// several payers, conversions, transfers).
@Suite struct LedgerPropertyTests {
    static let seeds: [UInt64] = Array(1...40)

    static func trip(_ seed: UInt64) -> LedgerBenchFixture {
        LedgerBenchFixture(travellers: 3 + Int(seed % 8), expenses: 5 + Int(seed * 7 % 60), seed: seed)
    }

    @Test(arguments: seeds) func balancesSumToZeroAndEachIsPaidMinusShare(seed: UInt64) throws {
        let ledger = try Ledger(currency: "EUR", entries: Self.trip(seed).entries)
        #expect(ledger.balances.map(\.balanceMinor).reduce(0, +) == 0)
        #expect(ledger.balances.allSatisfy { $0.balanceMinor == $0.paidMinor - $0.shareMinor })
        #expect(ledger.balances.map(\.traveller) == ledger.balances.map(\.traveller).sorted())
        let settledTotal = Self.trip(seed).entries.map(\.settledMinor).reduce(0, +)
        #expect(ledger.balances.map(\.paidMinor).reduce(0, +) == settledTotal)
    }

    @Test(arguments: seeds) func anyOrderOfTheSameExpensesGivesTheSameAnswer(seed: UInt64) throws {
        let entries = Self.trip(seed).entries
        var random = SplitMix64(seed: seed &* 31)
        let ledger = try Ledger(currency: "EUR", entries: entries)
        for _ in 0..<3 {
            let shuffled = try Ledger(currency: "EUR", entries: entries.shuffled(using: &random))
            #expect(shuffled.balances == ledger.balances)
            #expect(try shuffled.debts() == ledger.debts())
            #expect(try shuffled.settlement() == ledger.settlement())
        }
    }

    @Test(arguments: seeds) func theSuggestedTransfersSettleEveryBalance(seed: UInt64) throws {
        let ledger = try Ledger(currency: "EUR", entries: Self.trip(seed).entries)
        let plan = try ledger.settlement()
        #expect(plan.transfers.applied(to: ledger.balanceByTraveller).values.allSatisfy { $0 == 0 })
        #expect(plan.optimal)
        // Recording them as transfer expenses brings every balance to zero.
        let payments = plan.transfers.enumerated().map { index, transfer in
            LedgerEntry(
                id: "p\(index)", kind: .transfer, amountMinor: transfer.amountMinor, settlement: "EUR",
                paidBy: [.init(traveller: transfer.from, weight: transfer.amountMinor)],
                among: [.init(traveller: transfer.to, weight: transfer.amountMinor)])
        }
        let settled = try Ledger(currency: "EUR", entries: Self.trip(seed).entries + payments)
        #expect(settled.balances.allSatisfy { $0.balanceMinor == 0 })
        #expect(try settled.settlement().transfers.isEmpty)
    }

    @Test(arguments: seeds) func pairwiseDebtsNetToEachBalance(seed: UInt64) throws {
        let ledger = try Ledger(currency: "EUR", entries: Self.trip(seed).entries)
        let debts = try ledger.debts()
        #expect(debts.allSatisfy { $0.amountMinor > 0 && $0.from != $0.to })
        #expect(debts.applied(to: ledger.balanceByTraveller).values.allSatisfy { $0 == 0 })
        // One debt at most per pair of travellers.
        let pairs = Set(debts.map { [$0.from, $0.to].sorted() })
        #expect(pairs.count == debts.count)
    }

    @Test(arguments: seeds) func everyExpenseNetsToZeroInTheSettlementCurrency(seed: UInt64) throws {
        for entry in Self.trip(seed).entries {
            let ledger = try Ledger(currency: "EUR", entries: [entry])
            #expect(ledger.balances.map(\.balanceMinor).reduce(0, +) == 0)
            #expect(ledger.balances.map(\.shareMinor).reduce(0, +) == entry.settledMinor)
            #expect(try Ledger.shares(of: entry).map(\.minor).reduce(0, +) == entry.amountMinor)
        }
    }
}
