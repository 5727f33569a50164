/// Candidate neighbours for the local search: for each node, its nearest nodes by cost
/// plus its α-nearest ones (Helsgaun's α from the minimum spanning tree), sorted by cost.
///
/// Why α: on clustered instances every node's nearest nodes lie in its own cluster, so
/// moves over nearest-neighbour lists can never rewire the edges between clusters, and
/// the search stays several percent off when the construction linked the clusters badly.
/// α(i, j) = c(i, j) − (the largest edge on the spanning-tree path from i to j) is zero for
/// tree edges, and the tree's edges include the cheapest links between clusters.
/// Asymmetric matrices use the round-trip cost c(i, j) + c(j, i) as the key.
enum CandidateSet {
    /// How many α-nearest nodes join each list (LKH's default candidate count).
    static let alphaCount = 5

    /// A flat `m × k` array: row `v` holds `k` distinct nodes ≠ `v`, ascending by key.
    /// O(m²) time and O(m) extra memory besides the result.
    static func build(m: Int, k: Int, alphaCount: Int = alphaCount, key: (Int, Int) -> Int) -> [Int] {
        if alphaCount == 0 {
            var result = [Int](repeating: 0, count: m * k)
            for v in 0..<m {
                for (slot, x) in smallest(k, of: m, excluding: v, rank: { (key(v, $0), $0) }).enumerated() {
                    result[v * k + slot] = x
                }
            }
            return result
        }
        let tree = spanningTree(m: m, key: key)
        var adjacency = [[Int]](repeating: [], count: m)
        for v in 1..<m where tree[v] >= 0 {
            adjacency[v].append(tree[v])
            adjacency[tree[v]].append(v)
        }
        var result = [Int](repeating: 0, count: m * k)
        var alpha = [Int](repeating: 0, count: m)
        var stack: [Int] = []
        var beta = [Int](repeating: 0, count: m)
        var seen = [Int](repeating: -1, count: m)
        for v in 0..<m {
            // β(v, x): the largest edge on the tree path from v, by depth-first traversal.
            beta[v] = 0
            seen[v] = v
            stack.append(v)
            while let x = stack.popLast() {
                for y in adjacency[x] where seen[y] != v {
                    seen[y] = v
                    beta[y] = max(beta[x], key(x, y))
                    stack.append(y)
                }
            }
            for x in 0..<m { alpha[x] = x == v ? Int.max : key(v, x) &- beta[x] }
            let byAlpha = smallest(alphaCount, of: m, excluding: v) { (alpha[$0], key(v, $0)) }
            var chosen = byAlpha
            if chosen.count < k {
                let byCost = smallest(k, of: m, excluding: v) { (key(v, $0), 0) }
                for x in byCost where chosen.count < k && !chosen.contains(x) { chosen.append(x) }
            }
            chosen.sort { (key(v, $0), $0) < (key(v, $1), $1) }
            for (slot, x) in chosen.prefix(k).enumerated() { result[v * k + slot] = x }
        }
        return result
    }

    /// Prim's algorithm on the dense matrix: `parent[v]` (−1 for the root, node 0).
    private static func spanningTree(m: Int, key: (Int, Int) -> Int) -> [Int] {
        var parent = [Int](repeating: -1, count: m)
        var best = [Int](repeating: Int.max, count: m)
        var inTree = [Bool](repeating: false, count: m)
        best[0] = 0
        for _ in 0..<m {
            var u = -1
            for v in 0..<m where !inTree[v] && (u < 0 || best[v] < best[u]) { u = v }
            if u < 0 { break }
            inTree[u] = true
            for v in 0..<m where !inTree[v] {
                let cost = key(u, v)
                if cost < best[v] {
                    best[v] = cost
                    parent[v] = u
                }
            }
        }
        return parent
    }

    /// The `count` nodes other than `excluded` with the smallest `rank`, ascending.
    private static func smallest(
        _ count: Int, of m: Int, excluding excluded: Int, rank: (Int) -> (Int, Int)
    ) -> [Int] {
        var chosen: [(rank: (Int, Int), node: Int)] = []
        chosen.reserveCapacity(count + 1)
        for x in 0..<m where x != excluded {
            let r = rank(x)
            if chosen.count == count, let last = chosen.last, !(r < last.rank) { continue }
            var index = chosen.count
            while index > 0 && r < chosen[index - 1].rank { index -= 1 }
            chosen.insert((r, x), at: index)
            if chosen.count > count { chosen.removeLast() }
        }
        return chosen.map(\.node)
    }
}
