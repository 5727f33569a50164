extension Settlement {
    /// The largest number of disjoint zero-sum groups of `people` (which sum to zero), by dynamic
    /// programming over subsets: best[m] = max over i in m of best[m − i], plus 1 when m sums to
    /// zero. O(2^n · n) time, 2^n bytes. Ties are broken towards the lowest index, so the same
    /// balances always give the same groups.
    static func exactGroups(_ people: [Balance]) -> [[Balance]] {
        let n = people.count
        guard n > 0 else { return [] }
        guard n > 3 else { return [people] }  // no pairs left, so ≤ 3 balances form one group
        // Subset sums from two half tables (2 × 2^(n/2) entries instead of 2^n). No overflow:
        // checkBalanced proved the positive balances, hence any subset, sum within 64 bits.
        let lowBits = n / 2
        let lowMask = (1 << lowBits) - 1
        let lowSums = halfSums(people[0..<lowBits].map(\.minor))
        let highSums = halfSums(people[lowBits...].map(\.minor))
        func sum(_ mask: Int) -> Int64 { lowSums[mask & lowMask] &+ highSums[mask >> lowBits] }
        let full = (1 << n) - 1
        var best = [UInt8](repeating: 0, count: full + 1)
        best.withUnsafeMutableBufferPointer { best in
            guard let start = best.baseAddress else { return }  // never nil: 2^n ≥ 16 entries
            fillBest(start, count: n, isZeroSum: { sum($0) == 0 })
        }
        // Walk back down from the full set: the zero-sum sets on the way cut it into the groups.
        var groups = [[Balance]]()
        var current = [Balance]()
        var mask = full
        while mask != 0 {
            let bump: UInt8 = sum(mask) == 0 ? 1 : 0
            var chosen = mask.trailingZeroBitCount
            for index in 0..<n where mask & (1 << index) != 0 && best[mask ^ (1 << index)] + bump == best[mask] {
                chosen = index
                break
            }
            current.append(people[chosen])
            mask ^= 1 << chosen
            if sum(mask) == 0 {
                groups.append(current)
                current = []
            }
        }
        return groups
    }

    /// best[m] = max over i in m of best[m − i], + 1 when m sums to zero, for every mask m.
    /// Masks go in blocks of 64 that differ in their low 6 bits: removing a higher bit reads a
    /// whole earlier block, which the compiler does 16 or 32 bytes at a time; only the low bits
    /// are removed one mask at a time. Same answer as the plain loop, about 4 times faster.
    private static func fillBest(_ best: UnsafeMutablePointer<UInt8>, count n: Int, isZeroSum: (Int) -> Bool) {
        let blockBits = min(6, n)
        let block = 1 << blockBits
        var most = [UInt8](repeating: 0, count: block)
        most.withUnsafeMutableBufferPointer { most in
            guard let most = most.baseAddress else { return }  // never nil: block ≥ 1 entry
            for start in stride(from: 0, to: 1 << n, by: block) {
                for j in 0..<block { most[j] = 0 }
                var high = start
                while high != 0 {
                    let bit = high & -high
                    let earlier = best + (start ^ bit)
                    for j in 0..<block { most[j] = max(most[j], earlier[j]) }
                    high ^= bit
                }
                for j in 0..<block {
                    let mask = start | j
                    guard mask != 0 else { continue }
                    var value = most[j]
                    var low = j
                    while low != 0 {
                        let bit = low & -low
                        let without = best[mask ^ bit]
                        if without > value { value = without }
                        low ^= bit
                    }
                    best[mask] = isZeroSum(mask) ? value + 1 : value
                }
            }
        }
    }

    /// A subset other than none and all of `people` (which sum to zero) that sums to zero, as
    /// membership flags, or nil when there is none: a subset sum of the first half meets the
    /// opposite of one of the second half (meet in the middle, 2 × 2^(n/2) sums).
    static func properZeroSumSubset(_ people: [Balance]) -> [Bool]? {
        let half = people.count / 2
        let first = halfSums(people[0..<half].map(\.minor))
        let second = halfSums(people[half...].map(\.minor))
        var masks = [Int64: (Int, Int?)]()  // sum → up to two subsets of the second half with it
        for (mask, sum) in second.enumerated() {
            if let known = masks[sum] {
                if known.1 == nil { masks[sum] = (known.0, mask) }
            } else {
                masks[sum] = (mask, nil)
            }
        }
        for (mask, sum) in first.enumerated() {
            guard let found = masks[0 &- sum] else { continue }
            // Not none of both, not all of both.
            let excluded = mask == 0 ? 0 : mask == first.count - 1 ? second.count - 1 : -1
            guard let other = found.0 != excluded ? found.0 : found.1 else { continue }
            return people.indices.map { index in
                index < half ? mask & (1 << index) != 0 : other & (1 << (index - half)) != 0
            }
        }
        return nil
    }

    /// Splits `people` (summing to zero, at most `provableLimit`) at any zero-sum subset, again
    /// and again, down to groups that cannot be split (or that the exact search then takes).
    static func splitGroups(_ people: [Balance], exactLimit: Int) -> [[Balance]] {
        if people.count <= exactLimit { return exactGroups(people) }
        guard let inside = properZeroSumSubset(people) else { return [people] }
        let part = people.indices.filter { inside[$0] }.map { people[$0] }
        let rest = people.indices.filter { !inside[$0] }.map { people[$0] }
        return splitGroups(part, exactLimit: exactLimit) + splitGroups(rest, exactLimit: exactLimit)
    }

    /// Every subset sum of `values`, indexed by the subset's bit mask.
    private static func halfSums(_ values: [Int64]) -> [Int64] {
        var sums = [Int64](repeating: 0, count: 1 << values.count)
        for mask in 1..<sums.count {
            let low = mask.trailingZeroBitCount
            sums[mask] = sums[mask & (mask - 1)] &+ values[low]
        }
        return sums
    }

    /// Beyond the exact limit: take zero-sum triples, then quadruples, while the search stays
    /// quadratic and small; search what is left exactly if it fits the limit, split it at zero-sum
    /// subsets if it is small enough, else settle it as one group (one transfer fewer than its size).
    static func heuristicGroups(_ people: [Balance], exactLimit: Int) -> [[Balance]] {
        var groups = [[Balance]]()
        var rest = people
        if rest.count <= 1000 { rest = takeTriples(rest, into: &groups) }
        if rest.count <= 400 { rest = takeQuadruples(rest, into: &groups) }
        if rest.count <= exactLimit {
            groups += exactGroups(rest)
        } else if rest.count <= provableLimit {
            groups += splitGroups(rest, exactLimit: exactLimit)
        } else if !rest.isEmpty {
            groups.append(rest)
        }
        return groups
    }

    /// Greedily takes disjoint triples a + b + c = 0, in reference order.
    private static func takeTriples(_ people: [Balance], into groups: inout [[Balance]]) -> [Balance] {
        var byAmount = [Int64: [Int]]()
        for (index, person) in people.enumerated() { byAmount[person.minor, default: []].append(index) }
        var used = [Bool](repeating: false, count: people.count)
        for a in people.indices where !used[a] {
            search: for b in (a + 1)..<people.count where !used[b] && !used[a] {
                let (sum, overflow) = people[a].minor.addingReportingOverflow(people[b].minor)
                guard !overflow, sum != .min, let candidates = byAmount[-sum] else { continue }
                for c in candidates where c != a && c != b && !used[c] {
                    used[a] = true
                    used[b] = true
                    used[c] = true
                    groups.append([people[a], people[b], people[c]])
                    break search
                }
            }
        }
        return people.indices.filter { !used[$0] }.map { people[$0] }
    }

    /// Greedily takes disjoint quadruples a + b + c + d = 0 through a table of pair sums.
    private static func takeQuadruples(_ people: [Balance], into groups: inout [[Balance]]) -> [Balance] {
        let n = people.count
        var pairsBySum = [Int64: [(Int, Int)]]()
        for a in 0..<n {
            for b in (a + 1)..<max(a + 1, n) {
                let (sum, overflow) = people[a].minor.addingReportingOverflow(people[b].minor)
                if !overflow { pairsBySum[sum, default: []].append((a, b)) }
            }
        }
        var used = [Bool](repeating: false, count: n)
        for a in 0..<n where !used[a] {
            search: for b in (a + 1)..<max(a + 1, n) where !used[b] && !used[a] {
                let (sum, overflow) = people[a].minor.addingReportingOverflow(people[b].minor)
                guard !overflow, sum != .min, let pairs = pairsBySum[-sum] else { continue }
                for (c, d) in pairs where c != a && c != b && d != a && d != b && !used[c] && !used[d] {
                    for index in [a, b, c, d] { used[index] = true }
                    groups.append([people[a], people[b], people[c], people[d]])
                    break search
                }
            }
        }
        return people.indices.filter { !used[$0] }.map { people[$0] }
    }
}
