/// Orders a day whose timed stops must keep their (time) order, minimising the matrix
/// cost of the whole path; untimed stops go wherever they cost least.
///
/// - Exact when the state space is small (≤ ``exactStateLimit``): dynamic programming over
///   (set of untimed stops visited, number of timed stops visited, last stop).
/// - Otherwise cheapest insertion of each untimed stop into the chain of timed ones, then
///   local search until no move improves or the budget ends: 2-opt reversals of stretches
///   holding at most one timed stop (so timed stops keep their order) and Or-opt moves of
///   one to three consecutive untimed stops to their best position, in either orientation.
struct DaySequence {
    /// Largest DP table (states); about 10 untimed and 10 timed stops.
    static let exactStateLimit = 1 << 19

    private let cost: CostMatrix
    private let start: Int?
    private let end: Int?
    private let roundTrip: Bool
    private let timed: [Int]
    private let untimed: [Int]
    private let isTimed: [Bool]
    /// The path including its fixed ends (and the start again at the end of a round trip).
    private var path: [Int] = []

    init(cost: CostMatrix, start: Int?, end: Int?, roundTrip: Bool, timed: [Int], count: Int) {
        self.cost = cost
        self.start = start
        self.end = end
        self.roundTrip = roundTrip
        self.timed = timed
        var flags = [Bool](repeating: false, count: count)
        for node in timed { flags[node] = true }
        isTimed = flags
        untimed = (0..<count).filter { !flags[$0] && $0 != start && $0 != end }
    }

    /// Every node once, in visiting order (without repeating the start of a round trip).
    var order: [Int] { roundTrip ? Array(path.dropLast()) : path }

    /// Orders the day; returns `true` when the order is proven optimal.
    mutating func solve(timeBudget: Duration) -> Bool {
        let states = Self.stateCount(untimed: untimed.count, timed: timed.count)
        if let states, states <= Self.exactStateLimit {
            path = wrap(exactSequence())
            return true
        }
        path = wrap(insertionSequence())
        improve(deadline: ContinuousClock().now.advanced(by: timeBudget))
        return false
    }

    private var finalNode: Int? { end ?? (roundTrip ? start : nil) }

    private func wrap(_ sequence: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(sequence.count + 2)
        if let start { result.append(start) }
        result += sequence
        if let finalNode { result.append(finalNode) }
        return result
    }

    @inline(__always) private func c(_ a: Int?, _ b: Int?) -> Double {
        guard let a, let b else { return 0 }
        return cost[a, b]
    }

    static func stateCount(untimed u: Int, timed t: Int) -> Int? {
        guard u < 20 else { return nil }
        let (product, overflow) = (1 << u).multipliedReportingOverflow(by: (t + 1) * (u + 1))
        return overflow ? nil : product
    }

    // MARK: - Exact

    private func exactSequence() -> [Int] {
        let u = untimed.count
        let t = timed.count
        let slots = u + 1
        let layers = t + 1
        let size = (1 << u) * layers * slots
        var best = [Double](repeating: .infinity, count: size)
        var parent = [Int32](repeating: -1, count: size)
        func state(_ mask: Int, _ k: Int, _ last: Int) -> Int { (mask * layers + k) * slots + last }
        func node(_ k: Int, _ last: Int) -> Int? { last < u ? untimed[last] : (k > 0 ? timed[k - 1] : start) }
        best[state(0, 0, u)] = 0
        for mask in 0..<(1 << u) {
            for k in 0...t {
                for last in 0...u {
                    let here = state(mask, k, last)
                    let value = best[here]
                    if value == .infinity { continue }
                    let from = node(k, last)
                    for next in 0..<u where mask & (1 << next) == 0 {
                        let there = state(mask | (1 << next), k, next)
                        let candidate = value + c(from, untimed[next])
                        if candidate < best[there] {
                            best[there] = candidate
                            parent[there] = Int32(here)
                        }
                    }
                    if k < t {
                        let there = state(mask, k + 1, u)
                        let candidate = value + c(from, timed[k])
                        if candidate < best[there] {
                            best[there] = candidate
                            parent[there] = Int32(here)
                        }
                    }
                }
            }
        }
        let full = (1 << u) - 1
        var bestState = -1
        var bestValue = Double.infinity
        for last in 0...u {
            let here = state(full, t, last)
            let value = best[here] + c(node(t, last), finalNode)
            if value < bestValue {
                bestValue = value
                bestState = here
            }
        }
        var sequence: [Int] = []
        var here = bestState
        // The initial state (nothing visited) is the only reachable one without a parent.
        while here >= 0, parent[here] >= 0 {
            let last = here % slots
            let k = (here / slots) % layers
            if last < u {
                sequence.append(untimed[last])
            } else if k > 0 {
                sequence.append(timed[k - 1])
            }
            here = Int(parent[here])
        }
        return sequence.reversed()
    }

    // MARK: - Heuristic

    private func insertionSequence() -> [Int] {
        var sequence = timed
        for node in untimed {
            var bestIndex = 0
            var bestDelta = Double.infinity
            for index in 0...sequence.count {
                let before = index == 0 ? start : sequence[index - 1]
                let after = index == sequence.count ? finalNode : sequence[index]
                let delta = c(before, node) + c(node, after) - c(before, after)
                if delta < bestDelta {
                    bestDelta = delta
                    bestIndex = index
                }
            }
            sequence.insert(node, at: bestIndex)
        }
        return sequence
    }

    private var movable: ClosedRange<Int>? {
        let lo = start == nil ? 0 : 1
        let hi = path.count - 1 - (finalNode == nil ? 0 : 1)
        return lo <= hi ? lo...hi : nil
    }

    private mutating func improve(deadline: ContinuousClock.Instant) {
        guard movable != nil else { return }
        let clock = ContinuousClock()
        // Each accepted move lowers the cost, so this ends; the cap and the deadline bound it.
        for _ in 0..<1_000 {
            if clock.now >= deadline { return }
            if !twoOptPass() && !orOptPass() { return }
        }
    }

    private func edge(_ i: Int, _ j: Int) -> Double {
        guard i >= 0, j < path.count else { return 0 }
        return cost[path[i], path[j]]
    }

    /// First improving reversal of `path[i...j]` holding at most one timed stop.
    private mutating func twoOptPass() -> Bool {
        guard let range = movable else { return false }
        let n = path.count
        var forward = [Double](repeating: 0, count: n)
        var backward = [Double](repeating: 0, count: n)
        var timedBefore = [Int](repeating: 0, count: n + 1)
        for i in 0..<n {
            if i > 0 {
                forward[i] = forward[i - 1] + cost[path[i - 1], path[i]]
                backward[i] = backward[i - 1] + cost[path[i], path[i - 1]]
            }
            timedBefore[i + 1] = timedBefore[i] + (isTimed[path[i]] ? 1 : 0)
        }
        for i in range {
            for j in (i + 1)...max(i + 1, range.upperBound) where j <= range.upperBound {
                if timedBefore[j + 1] - timedBefore[i] > 1 { break }
                let inner = (backward[j] - backward[i]) - (forward[j] - forward[i])
                let delta =
                    (i > 0 ? cost[path[i - 1], path[j]] : 0) + (j + 1 < n ? cost[path[i], path[j + 1]] : 0)
                    - edge(i - 1, i) - (j + 1 < n ? edge(j, j + 1) : 0) + inner
                if delta < -1e-9 {
                    path[i...j].reverse()
                    return true
                }
            }
        }
        return false
    }

    /// First improving move of 1–3 consecutive untimed stops to another place.
    private mutating func orOptPass() -> Bool {
        guard let range = movable else { return false }
        for length in 1...3 {
            for i in range where i + length - 1 <= range.upperBound {
                let j = i + length - 1
                if path[i...j].contains(where: { isTimed[$0] }) { continue }
                let segment = Array(path[i...j])
                let before = i > 0 ? path[i - 1] : nil
                let after = j + 1 < path.count ? path[j + 1] : nil
                let removeGain = c(before, segment[0]) + c(segment[length - 1], after) - c(before, after)
                var rest = path
                rest.removeSubrange(i...j)
                let lo = range.lowerBound
                let hi = range.upperBound - length + 1
                let inner = zip(segment, segment.dropFirst()).reduce(0.0) { $0 + cost[$1.0, $1.1] }
                let reversedInner = zip(segment, segment.dropFirst()).reduce(0.0) { $0 + cost[$1.1, $1.0] }
                for index in lo...hi where index != i {
                    let x = index > 0 ? rest[index - 1] : nil
                    let y = index < rest.count ? rest[index] : nil
                    let base = c(x, y)
                    let forward = c(x, segment[0]) + c(segment[length - 1], y) - base
                    let backward = c(x, segment[length - 1]) + c(segment[0], y) - base + reversedInner - inner
                    if forward - removeGain < -1e-9 {
                        rest.insert(contentsOf: segment, at: index)
                        path = rest
                        return true
                    }
                    if length > 1 && backward - removeGain < -1e-9 {
                        rest.insert(contentsOf: segment.reversed(), at: index)
                        path = rest
                        return true
                    }
                }
            }
        }
        return false
    }
}
