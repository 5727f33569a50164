/// Exact cycle solver by dynamic programming over subsets (Held & Karp 1962).
///
/// O(2ⁿ·n²) time and O(2ⁿ·n) memory: 15 nodes take about a millisecond in release builds
/// (see docs/routes.md), which is why ``RouteSolver`` uses it only up to
/// ``SolveOptions/exactNodeLimit``.
enum HeldKarp {
    /// The largest cycle this implementation accepts (memory: 2¹⁹·20 Ints ≈ 80 MB).
    static let hardLimit = 20

    /// An optimal Hamiltonian cycle through nodes `0..<m` of the row-major matrix `w`,
    /// starting at node 0. `w` entries must be ≥ 0 and small enough that sums of `m` of
    /// them do not overflow.
    static func solveCycle(_ w: [Int], count m: Int) -> [Int] {
        precondition(m >= 1 && m <= hardLimit, "Held-Karp is limited to \(hardLimit) nodes")
        if m <= 2 { return Array(0..<m) }
        let k = m - 1  // nodes 1...k are encoded as bits 0..<k
        let full = (1 << k) - 1
        let infinity = Int.max / 4
        var dp = [Int](repeating: infinity, count: (full + 1) * k)
        var parent = [UInt8](repeating: UInt8.max, count: (full + 1) * k)
        w.withUnsafeBufferPointer { w in
            dp.withUnsafeMutableBufferPointer { dp in
                parent.withUnsafeMutableBufferPointer { parent in
                    for j in 0..<k { dp[(1 << j) * k + j] = w[j + 1] }
                    for mask in 1...full {
                        let base = mask * k
                        var rest = mask
                        while rest != 0 {
                            let j = rest.trailingZeroBitCount
                            rest &= rest - 1
                            let current = dp[base + j]
                            if current >= infinity { continue }
                            let row = (j + 1) * m + 1
                            var free = full & ~mask
                            while free != 0 {
                                let t = free.trailingZeroBitCount
                                free &= free - 1
                                let candidate = current &+ w[row + t]
                                let index = (mask | (1 << t)) * k + t
                                if candidate < dp[index] {
                                    dp[index] = candidate
                                    parent[index] = UInt8(truncatingIfNeeded: j)
                                }
                            }
                        }
                    }
                }
            }
        }
        var bestLast = 0
        var bestCost = infinity
        for j in 0..<k {
            let total = dp[full * k + j] &+ w[(j + 1) * m]
            if total < bestCost {
                bestCost = total
                bestLast = j
            }
        }
        var order = [Int](repeating: 0, count: m)
        var mask = full
        var node = bestLast
        for slot in stride(from: m - 1, through: 1, by: -1) {
            order[slot] = node + 1
            let previous = parent[mask * k + node]
            mask &= ~(1 << node)
            // `previous` is UInt8.max only for the first node after 0, reached when mask is empty.
            if previous == UInt8.max { break }
            node = Int(previous)
        }
        return order
    }
}
