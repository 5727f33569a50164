@testable import PlacesExpenses

/// Independent oracles for small cases: every set partition of the balances, no DP, no pairing.
enum BruteForce {
    /// Every partition of `values.indices` into blocks that each sum to zero.
    static func zeroSumPartitions(_ values: [Int64]) -> [[[Int]]] {
        var found = [[[Int]]]()
        var blocks = [[Int]]()
        func place(_ index: Int) {
            if index == values.count {
                if blocks.allSatisfy({ block in block.reduce(Int64(0)) { $0 + values[$1] } == 0 }) {
                    found.append(blocks)
                }
                return
            }
            for block in blocks.indices {
                blocks[block].append(index)
                place(index + 1)
                blocks[block].removeLast()
            }
            blocks.append([index])
            place(index + 1)
            blocks.removeLast()
        }
        place(0)
        return found
    }

    /// The fewest transfers that settle non-zero `values`: n − the most zero-sum blocks.
    static func minimumTransfers(_ values: [Int64]) -> Int {
        let most = zeroSumPartitions(values).map(\.count).max() ?? 0
        return values.count - most
    }

    /// Whether only one partition reaches the most zero-sum blocks.
    static func bestPartitionIsUnique(_ values: [Int64]) -> Bool {
        let partitions = zeroSumPartitions(values)
        let most = partitions.map(\.count).max() ?? 0
        return partitions.count { $0.count == most } == 1
    }
}

extension [Transfer] {
    /// The balances left after every transfer is paid.
    func applied(to balances: [String: Int64]) -> [String: Int64] {
        var left = balances
        for transfer in self {
            left[transfer.from, default: 0] += transfer.amountMinor
            left[transfer.to, default: 0] -= transfer.amountMinor
        }
        return left
    }
}

/// Random balances for `count` travellers t0…, non-zero, summing to zero, from a small range so
/// that zero-sum subsets are common.
func randomBalances(_ count: Int, range: Int64, _ random: inout SplitMix64) -> [String: Int64] {
    var values = [Int64]()
    while values.count < count - 1 {
        let value = Int64(random.next() % UInt64(2 * range + 1)) - range
        if value != 0 { values.append(value) }
    }
    let last = -values.reduce(0, +)
    if last == 0 { values.append(1); values[0] -= 1 } else { values.append(last) }
    if values.contains(0) { return randomBalances(count, range: range, &random) }
    return Dictionary(uniqueKeysWithValues: values.enumerated().map { ("t\($0.offset)", $0.element) })
}
