import Testing

@testable import PlacesExpenses

/// Pure timings on the benchmark trip (20 travellers, 10,000 expenses). They print
/// figures and assert only correctness: timings depend on the machine and the build.
@Suite(.serialized) struct LedgerBenchTests {
    static func milliseconds(_ runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, worst: Double) {
        var times = [Double]()
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let elapsed = try clock.measure(body)
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        times.sort()
        return (times[times.count / 2], times[times.count - 1])
    }

    @Test func balancesAndExactSettlementOfTheBenchmarkTrip() throws {
        let fixture = LedgerBenchFixture()
        #expect(fixture.entries.count == 10_000)
        var ledger = try Ledger(currency: fixture.currency, entries: fixture.entries)
        let balances = try Self.milliseconds(5) {
            ledger = try Ledger(currency: fixture.currency, entries: fixture.entries)
        }
        #expect(ledger.balances.count == 20)
        #expect(ledger.balances.map(\.balanceMinor).reduce(0, +) == 0)
        var plan = try ledger.settlement()
        let settlement = try Self.milliseconds(5) { plan = try ledger.settlement() }
        #expect(plan.optimal)
        let debts = try Self.milliseconds(3) { _ = try ledger.debts() }
        print(
            "bench: 10,000 expenses, 20 travellers: balances \(balances) ms, settlement \(settlement) ms "
                + "(\(plan.transfers.count) transfers), debts \(debts) ms")
    }

    @Test(arguments: [16, 20]) func exactSearchOnBalancesWithoutShortcuts(count: Int) throws {
        var random = SplitMix64(seed: UInt64(count))
        let balances = randomBalances(count, range: 1_000_000, &random)
        var plan = try Settlement.plan(balances, exactLimit: count)
        let time = try Self.milliseconds(3) { plan = try Settlement.plan(balances, exactLimit: count) }
        #expect(plan.optimal)
        print("bench: exact settlement of \(count) balances: \(time) ms (\(plan.transfers.count) transfers)")
    }
}
