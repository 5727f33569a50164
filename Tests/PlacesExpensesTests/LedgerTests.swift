import Testing

@testable import PlacesExpenses

@Suite struct LedgerTests {
    static let ana = "a1"
    static let bruno = "b2"
    static let carla = "c3"
    static let dinner = LedgerEntry(
        id: "00000000aaaa", amountMinor: 8450, settlement: "EUR", paidBy: [.init(traveller: ana, weight: 8450)],
        among: [ana, bruno, carla].map { .init(traveller: $0, weight: 1) }, category: "food")

    func balance(_ ledger: Ledger, _ traveller: String) -> TravellerBalance? {
        ledger.balances.first { $0.traveller == traveller }
    }

    @Test func dinnerPaidByAnaSplitThreeWays() throws {
        let ledger = try Ledger(currency: "EUR", entries: [Self.dinner])
        #expect(ledger.currency == "EUR")
        #expect(ledger.balances.map(\.traveller) == [Self.ana, Self.bruno, Self.carla])
        #expect(ledger.balances.map(\.paidMinor) == [8450, 0, 0])
        #expect(ledger.balances.map(\.shareMinor) == [2817, 2817, 2816])
        #expect(ledger.balances.map(\.balanceMinor) == [5633, -2817, -2816])
        #expect(balance(ledger, Self.bruno)?.byCategory == ["food": 2817])
        #expect(try Ledger.shares(of: Self.dinner).map(\.minor) == [2817, 2817, 2816])
    }

    @Test func aTransferMovesTheBalanceAndIsNotSpending() throws {
        let payment = LedgerEntry(
            id: "11111111", kind: .transfer, amountMinor: 2817, settlement: "EUR",
            paidBy: [.init(traveller: Self.bruno, weight: 2817)], among: [.init(traveller: Self.ana, weight: 2817)])
        let ledger = try Ledger(currency: "EUR", entries: [Self.dinner, payment])
        #expect(ledger.balances.map(\.balanceMinor) == [2816, 0, -2816])
        #expect(balance(ledger, Self.ana)?.byCategory == ["food": 2817])
        #expect(balance(ledger, Self.bruno)?.byCategory == ["food": 2817])
        let plan = try ledger.settlement()
        #expect(plan.transfers == [Transfer(from: Self.carla, to: Self.ana, amountMinor: 2816)])
        #expect(plan.optimal)
    }

    @Test func aForeignExpenseNetsToZeroInTheSettlementCurrency() throws {
        // 100.00 USD at 0.92 = 92.00 EUR, paid 33.33 + 66.67 USD, split 1:1:1: the converted
        // payments and shares are apportioned from 92.00 EUR and each side sums to it.
        let taxi = LedgerEntry(
            id: "00000002", amountMinor: 10_000, settlement: "EUR", settledMinor: 9200,
            paidBy: [.init(traveller: Self.ana, weight: 3333), .init(traveller: Self.bruno, weight: 6667)],
            among: [Self.ana, Self.bruno, Self.carla].map { .init(traveller: $0, weight: 1) }, category: "transport")
        let ledger = try Ledger(currency: "EUR", entries: [taxi])
        #expect(ledger.balances.map(\.paidMinor).reduce(0, +) == 9200)
        #expect(ledger.balances.map(\.shareMinor).reduce(0, +) == 9200)
        #expect(ledger.balances.map(\.balanceMinor).reduce(0, +) == 0)
        // 3333 and 6667 of 10000 of 9200: 3066.36 and 6133.64 → 3066 and 6134.
        #expect(ledger.balances.map(\.paidMinor) == [3066, 6134, 0])
        // Shares in USD 3334, 3333, 3333 (offset 2 → carla first): carla 3334 → 3067.28 → 3067 …
        #expect(ledger.balances.map(\.shareMinor).sorted() == [3066, 3067, 3067])
    }

    @Test func expensesSettledInAnotherCurrencyAreListedNotCounted() throws {
        var yen = Self.dinner
        yen.id = "ff"
        yen.settlement = "JPY"
        let ledger = try Ledger(currency: "EUR", entries: [yen, Self.dinner])
        #expect(ledger.unconverted == ["ff"])
        #expect(ledger.balances.map(\.balanceMinor) == [5633, -2817, -2816])
        // Without a currency the one most expenses use wins (ties: alphabetical), whatever the order.
        #expect(try Ledger(currency: nil, entries: [yen, Self.dinner]).currency == "EUR")
        #expect(try Ledger(currency: nil, entries: [Self.dinner, yen]).currency == "EUR")
        #expect(try Ledger(currency: nil, entries: []).currency == nil)
    }

    @Test func pairwiseDebtsFollowWhoPaid() throws {
        // Ana paid 60, Bruno 30 of a 90 dinner for the three: each owes Ana 20 and Bruno 10.
        let dinner = LedgerEntry(
            id: "0", amountMinor: 9000, settlement: "EUR",
            paidBy: [.init(traveller: Self.ana, weight: 6000), .init(traveller: Self.bruno, weight: 3000)],
            among: [Self.ana, Self.bruno, Self.carla].map { .init(traveller: $0, weight: 1) })
        let ledger = try Ledger(currency: "EUR", entries: [dinner])
        #expect(
            try ledger.debts() == [
                Transfer(from: Self.bruno, to: Self.ana, amountMinor: 1000),
                Transfer(from: Self.carla, to: Self.ana, amountMinor: 2000),
                Transfer(from: Self.carla, to: Self.bruno, amountMinor: 1000),
            ])
        // Settle-up simplifies: Bruno is even, Carla pays Ana.
        #expect(try ledger.settlement().transfers == [Transfer(from: Self.carla, to: Self.ana, amountMinor: 3000)])
    }

    @Test func tooMuchMoneyIsReportedNotTrapped() throws {
        // Ten expenses of 10^18 (far beyond the 10^12 a peer may send, as 10^7 of them would add up).
        let huge = (0..<10).map { index in
            LedgerEntry(
                id: "\(index)", amountMinor: 1_000_000_000_000_000_000, settlement: "EUR",
                paidBy: [.init(traveller: Self.ana, weight: 1_000_000_000_000_000_000)],
                among: [.init(traveller: Self.bruno, weight: 1)])
        }
        #expect {
            try Ledger(currency: "EUR", entries: huge)
        } throws: { error in
            (error as? LedgerError)?.code == .overflow
        }
        #expect(throws: LedgerError.self) {
            try Settlement.plan(["a": .max, "b": .max, "c": .min])
        }
        #expect(throws: LedgerError.self) { try Settlement.plan(["a": 5, "b": -4]) }
    }

    @Test func anExpenseWithNothingToSplitByIsRefusedInWords() {
        let empty = LedgerEntry(
            id: "e", amountMinor: 100, settlement: "EUR", paidBy: [.init(traveller: Self.ana, weight: 100)], among: [])
        #expect {
            try Ledger(currency: "EUR", entries: [empty])
        } throws: { error in
            (error as? LedgerError)?.code == .invalidExpense && "\(error)".contains("e cannot be split")
        }
    }
}
