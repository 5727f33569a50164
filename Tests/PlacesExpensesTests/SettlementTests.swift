import Testing

@testable import PlacesExpenses

@Suite struct SettlementTests {
    @Test func theIssuesExampleNeedsFourTransfersWhereGreedyTakesFive() throws {
        let balances: [String: Int64] = ["a": -10, "b": -3, "c": -3, "d": 6, "e": 5, "f": 5]
        let plan = try Settlement.plan(balances)
        #expect(plan.transfers.count == 4)
        #expect(plan.optimal)
        #expect(plan.transfers.applied(to: balances).values.allSatisfy { $0 == 0 })
        // {−10, +5, +5} and {−3, −3, +6}.
        #expect(
            plan.transfers == [
                Transfer(from: "a", to: "e", amountMinor: 5), Transfer(from: "a", to: "f", amountMinor: 5),
                Transfer(from: "b", to: "d", amountMinor: 3), Transfer(from: "c", to: "d", amountMinor: 3),
            ])
        #expect(Self.greedy(balances) == 5)
    }

    /// The usual greedy: the largest debtor pays the largest creditor as much as possible.
    static func greedy(_ balances: [String: Int64]) -> Int {
        var left = balances.filter { $0.value != 0 }
        var count = 0
        while let debtor = left.min(by: { $0.value < $1.value }), let creditor = left.max(by: { $0.value < $1.value }),
            debtor.value < 0
        {
            let amount = min(-debtor.value, creditor.value)
            left[debtor.key]! += amount
            left[creditor.key]! -= amount
            left = left.filter { $0.value != 0 }
            count += 1
        }
        return count
    }

    @Test func beyondTheExactLimitOneGroupIsProvenWhenNoSmallerGroupExists() throws {
        var random = SplitMix64(seed: 21)
        // Huge amounts: no subset but all of them sums to zero, so 29 transfers are proven minimal.
        let wide = randomBalances(30, range: 100_000_000_000, &random)
        let plan = try Settlement.plan(wide)
        #expect(plan.optimal)
        #expect(plan.transfers.count == 29)
        #expect(plan.transfers.applied(to: wide).values.allSatisfy { $0 == 0 })
        // Amounts in cents: 2^30 subsets meet in a smaller range, so groups split off.
        let cents = randomBalances(30, range: 10_000_000, &random)
        let split = try Settlement.plan(cents)
        #expect(split.transfers.count < 29)
        #expect(split.transfers.applied(to: cents).values.allSatisfy { $0 == 0 })
        // The subset search agrees with brute force on small cases.
        for round in 0..<200 {
            let balances = randomBalances(4 + round % 5, range: 30, &random)
            let people = balances.keys.sorted().map { Settlement.Balance(traveller: $0, minor: balances[$0]!) }
            let values = people.map(\.minor)
            let subset = Settlement.properZeroSumSubset(people)
            #expect((subset != nil) == (BruteForce.minimumTransfers(values) < values.count - 1), "\(values)")
            if let subset {
                let chosen = people.indices.filter { subset[$0] }
                #expect(!chosen.isEmpty && chosen.count < people.count)
                #expect(chosen.map { values[$0] }.reduce(0, +) == 0)
            }
        }
    }

    @Test func exactOppositesArePairedAndZerosDropped() throws {
        let plan = try Settlement.plan(["a": 0, "b": -7, "c": 7, "d": -2, "e": 1, "f": 1])
        #expect(
            plan.transfers == [
                Transfer(from: "b", to: "c", amountMinor: 7), Transfer(from: "d", to: "e", amountMinor: 1),
                Transfer(from: "d", to: "f", amountMinor: 1),
            ])
        #expect(try Settlement.plan([:]).transfers.isEmpty)
        #expect(try Settlement.plan(["a": 0]).transfers.isEmpty)
    }

    @Test func countMatchesBruteForceOnSmallRandomCases() throws {
        var random = SplitMix64(seed: 7)
        for round in 0..<600 {
            let balances = randomBalances(2 + round % 7, range: round % 2 == 0 ? 6 : 40, &random)
            let plan = try Settlement.plan(balances)
            let values = balances.keys.sorted().map { balances[$0]! }
            #expect(plan.transfers.count == BruteForce.minimumTransfers(values), "\(balances)")
            #expect(plan.optimal)
            #expect(plan.transfers.applied(to: balances).values.allSatisfy { $0 == 0 }, "\(balances)")
            #expect(plan.transfers.allSatisfy { $0.amountMinor > 0 && $0.from != $0.to })
        }
    }

    @Test func theHeuristicSettlesExactlyAndSaysWhenItIsNotProven() throws {
        var random = SplitMix64(seed: 11)
        for count in [8, 12, 30, 60, 200] {
            let balances = randomBalances(count, range: 50_000, &random)
            let exact = try Settlement.plan(balances, exactLimit: min(count, 20))
            let heuristic = try Settlement.plan(balances, exactLimit: 4)
            #expect(heuristic.transfers.applied(to: balances).values.allSatisfy { $0 == 0 })
            if count <= 20 { #expect(heuristic.transfers.count >= exact.transfers.count) }
            let debtors = balances.values.count { $0 < 0 }
            let bound = max(debtors, count - debtors)
            if heuristic.transfers.count == bound { #expect(heuristic.optimal) }
            if heuristic.optimal && count <= 20 { #expect(heuristic.transfers.count == exact.transfers.count) }
        }
        // Many small balances: the heuristic finds the pairs, triples and quadruples.
        let small = randomBalances(300, range: 9, &random)
        let plan = try Settlement.plan(small)
        #expect(plan.transfers.applied(to: small).values.allSatisfy { $0 == 0 })
        #expect(plan.transfers.count < 299)
    }

    @Test func theSameBalancesGiveTheSameListWhateverTheirOrder() throws {
        var random = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let balances = randomBalances(10, range: 30, &random)
            var shuffled = [String: Int64]()
            for key in balances.keys.shuffled(using: &random) { shuffled[key] = balances[key] }
            #expect(try Settlement.plan(balances) == Settlement.plan(shuffled))
        }
    }

    @Test func payingOneSuggestionLeavesTheOthersWhenTheGroupingIsUnique() throws {
        var random = SplitMix64(seed: 5)
        var paid = 0
        var unchanged = 0
        var uniqueCases = 0
        for round in 0..<400 {
            let balances = randomBalances(3 + round % 6, range: round % 2 == 0 ? 8 : 100, &random)
            let unique = BruteForce.bestPartitionIsUnique(balances.keys.sorted().map { balances[$0]! })
            let plan = try Settlement.plan(balances)
            for suggestion in plan.transfers {
                let left = [suggestion].applied(to: balances)
                let after = try Settlement.plan(left)
                let others = plan.transfers.filter { $0 != suggestion }
                paid += 1
                if after.transfers == others { unchanged += 1 }
                // Unique before and after: the others stay, or a better plan appears.
                let values = left.keys.sorted().compactMap { left[$0] == 0 ? nil : left[$0] }
                if unique && BruteForce.bestPartitionIsUnique(values) {
                    uniqueCases += 1
                    #expect(
                        after.transfers == others || after.transfers.count < others.count,
                        "\(balances) paying \(suggestion)")
                }
            }
        }
        print("stability: \(unchanged) of \(paid) paid suggestions left the others unchanged (\(uniqueCases) unique)")
        #expect(unchanged * 100 >= paid * 95)
    }

    @Test func theExampleIsStableWhenAnySuggestionIsPaid() throws {
        let balances: [String: Int64] = ["a": -10, "b": -3, "c": -3, "d": 6, "e": 5, "f": 5]
        let plan = try Settlement.plan(balances)
        for suggestion in plan.transfers {
            let after = try Settlement.plan([suggestion].applied(to: balances))
            #expect(after.transfers == plan.transfers.filter { $0 != suggestion })
        }
    }

    @Test func balancesWithNoZeroSumSubsetGiveWhatTheExactSearchGives() throws {
        var random = SplitMix64(seed: 34)
        for round in 0..<200 {
            // Large ranges rarely hold a zero-sum subset (one group); small ones often do.
            let balances = randomBalances(4 + round % 17, range: round % 3 == 0 ? 9 : 5_000_000, &random)
            let people = balances.filter { $0.value != 0 }.map {
                Settlement.Balance(traveller: $0.key, minor: $0.value)
            }
            .sorted { $0.traveller < $1.traveller }
            let (pairs, rest) = Settlement.pairOpposites(people)
            var exact = (pairs + Settlement.exactGroups(rest)).flatMap(Settlement.northWestCorner)
            exact.sort { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to }
            let plan = try Settlement.plan(balances)
            #expect(plan.transfers == exact, "\(balances)")
            #expect(plan.optimal)
        }
    }
}
