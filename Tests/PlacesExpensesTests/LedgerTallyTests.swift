import Testing

@testable import PlacesExpenses

/// The tally kept as expenses come and go answers exactly what a ledger counted anew from the
/// same expenses answers: balances, spending by category, unconverted expenses, pairwise debts
/// and settle-up, over seeded random sequences of adds, edits and removals.
@Suite struct LedgerTallyTests {
    static let seeds: [UInt64] = Array(1...30)

    /// Expenses of a random trip, a few of them settled in another currency.
    static func pool(_ seed: UInt64) -> [LedgerEntry] {
        let trip = LedgerBenchFixture(travellers: 3 + Int(seed % 9), expenses: 120, seed: seed)
        return trip.entries.enumerated().map { number, entry in
            var entry = entry
            if number % 9 == 4 { entry.settlement = "USD" }
            return entry
        }
    }

    /// The tally's answers against `Ledger(currency:entries:)`'s for `held`.
    static func expectSame(_ tally: LedgerTally, _ held: [LedgerEntry], given: String?) throws {
        let full = try Ledger(currency: given, entries: held)
        let counted = try #require(tally.ledger { held })
        #expect(counted.currency == full.currency)
        #expect(counted.balances == full.balances)
        #expect(counted.unconverted == full.unconverted)
        #expect(try counted.debts() == full.debts())
        let (a, b) = (try counted.settlement(), try full.settlement())
        #expect(a.transfers == b.transfers && a.optimal == b.optimal)
    }

    @Test(arguments: seeds) func incrementalEqualsCountingAnew(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &* 7_919)
        let pool = Self.pool(seed)
        // Every other seed leaves the currency to the expenses (the most used one counts).
        let given: String? = seed % 2 == 0 ? "EUR" : nil
        var held = Array(pool.prefix(20))
        var tally = LedgerTally(currency: given, entries: held)
        var next = 20
        for step in 0..<150 {
            let roll = random.next() % 4
            if roll < 2 && next < pool.count {
                tally.add(pool[next])
                held.append(pool[next])
                next += 1
            } else if roll == 2 && !held.isEmpty {
                // An edit: the old terms go, the new ones (another expense's, under this id) come.
                let at = Int(random.next() % UInt64(held.count))
                var edited = pool[Int(random.next() % UInt64(pool.count))]
                edited.id = held[at].id
                tally.remove(held[at])
                tally.add(edited)
                held[at] = edited
            } else if !held.isEmpty {
                let at = Int(random.next() % UInt64(held.count))
                tally.remove(held.remove(at: at))
            }
            // What the daemon's book does when the most used currency changes: count anew.
            if tally.resolvedCurrency != tally.currency { tally = LedgerTally(currency: given, entries: held) }
            if step % 5 == 0 || step == 149 { try Self.expectSame(tally, held, given: given) }
        }
    }

    @Test func removingEverythingLeavesAnEmptyLedger() throws {
        let pool = Self.pool(3)
        var tally = LedgerTally(currency: "EUR", entries: pool)
        for entry in pool.reversed() { tally.remove(entry) }
        let ledger = try #require(tally.ledger { [] })
        #expect(ledger.balances.isEmpty && ledger.unconverted.isEmpty)
        #expect(try ledger.debts().isEmpty && ledger.settlement().transfers.isEmpty)
    }

    @Test func aSumPastSixtyFourBitsMakesTheTallyInexactAndTheFullCountSaysWhy() throws {
        let huge = LedgerEntry(
            id: "aaaaaaaa", amountMinor: .max, settlement: "EUR", paidBy: [.init(traveller: "ana", weight: .max)],
            among: [.init(traveller: "bruno", weight: 1)])
        let second = {
            var copy = huge
            copy.id = "bbbbbbbb"
            return copy
        }()
        var tally = LedgerTally(currency: "EUR", entries: [huge])
        #expect(tally.isExact && tally.ledger { [huge] } != nil)
        tally.add(second)
        #expect(!tally.isExact && tally.ledger { [huge, second] } == nil)
        #expect(throws: LedgerError.self) { try Ledger(currency: "EUR", entries: [huge, second]) }
    }

    @Test func anEntryThatCannotBeSplitMakesTheTallyInexact() {
        let broken = LedgerEntry(
            id: "cccccccc", amountMinor: 100, settlement: "EUR", paidBy: [.init(traveller: "ana", weight: 100)],
            among: [.init(traveller: "bruno", weight: 0)])
        let tally = LedgerTally(currency: "EUR", entries: [broken])
        #expect(!tally.isExact)
        #expect(throws: LedgerError.self) { try Ledger(currency: "EUR", entries: [broken]) }
    }
}
