/// Options for ``RouteSolver/solve(_:options:)``.
public struct SolveOptions: Sendable, Equatable {
    /// Default for ``exactNodeLimit``: Held-Karp on 15 nodes takes about a millisecond.
    public static let defaultExactNodeLimit = 15

    /// Return to the first node at the end; the closing edge is part of the cost.
    public var roundTrip: Bool
    /// Index of the node the order must begin with, if any.
    public var start: Int?
    /// Index of the node the order must end with, if any. On a round trip with `start`
    /// also set, the closing edge `end → start` is forced.
    public var end: Int?
    /// Wall-clock budget for the heuristic search (the exact solver ignores it).
    public var timeBudget: Duration
    /// Seed of the search's random source; same input and seed give the same order
    /// unless the time budget cuts the search short.
    public var seed: UInt64
    /// Stop after this many perturbations in a row without improvement (one run; `Int.max`
    /// uses the whole budget); `nil` is the default stop: restarts and repeated runs until
    /// two runs agree on the best cost or the budget ends (see docs/routes.md).
    public var maxStagnantKicks: Int?
    /// Problems with at most this many nodes (plus one internal node for open paths or
    /// fixed ends) are solved exactly and reported as `optimal`. Capped at 20.
    public var exactNodeLimit: Int

    /// Creates options; the defaults are a round trip with free ends and a 1 s budget.
    public init(
        roundTrip: Bool = true, start: Int? = nil, end: Int? = nil, timeBudget: Duration = .seconds(1),
        seed: UInt64 = 0x5EED_CAFE, maxStagnantKicks: Int? = nil,
        exactNodeLimit: Int = SolveOptions.defaultExactNodeLimit
    ) {
        self.roundTrip = roundTrip
        self.start = start
        self.end = end
        self.timeBudget = timeBudget
        self.seed = seed
        self.maxStagnantKicks = maxStagnantKicks
        self.exactNodeLimit = exactNodeLimit
    }
}

/// The answer of ``RouteSolver/solve(_:options:)``.
public struct RouteSolution: Sendable, Codable, Equatable {
    /// Every node index exactly once, in visiting order.
    public var order: [Int]
    /// Sum of the matrix entries along `order` (plus the closing edge on a round trip).
    public var cost: Double
    /// `true` when the order is proven optimal (exact solver), `false` for heuristic answers
    /// (which are often optimal too, but unproven).
    public var optimal: Bool

    /// Creates a solution value.
    public init(order: [Int], cost: Double, optimal: Bool) {
        self.order = order
        self.cost = cost
        self.optimal = optimal
    }
}

/// Finds a cheapest visiting order for a cost matrix: exact (Held-Karp) for small inputs,
/// iterated local search (2-opt + Or-opt over nearest and α-nearest candidates, don't-look
/// bits, segment-local double-bridge and spatial segment-exchange kicks, restarts) within
/// a time budget beyond.
public enum RouteSolver {
    /// Solves the visiting-order problem for `matrix` under `options`.
    ///
    /// - Throws: ``RouteError`` with `indexOutOfRange` for a bad `start`/`end`,
    ///   `invalidEndpoints` when `start == end` on an open path of more than one node,
    ///   `invalidTimeBudget` for a negative budget.
    public static func solve(_ matrix: CostMatrix, options: SolveOptions = SolveOptions()) throws(RouteError)
        -> RouteSolution
    {
        try validate(options, count: matrix.count)
        let n = matrix.count
        if n <= 1 { return RouteSolution(order: Array(0..<n), cost: 0, optimal: true) }
        let problem = ReducedProblem(matrix: matrix, options: options)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: options.timeBudget)
        var cycle: [Int]
        var optimal: Bool
        let exactLimit = min(options.exactNodeLimit, HeldKarp.hardLimit)
        if problem.m <= max(exactLimit, 7) {
            cycle = HeldKarp.solveCycle(problem.w, count: problem.m)
            optimal = true
        } else {
            let construction = problem.constructionCycle()
            let search = LocalSearch(
                matrix: problem.w, count: problem.m, symmetric: problem.symmetric, initialTour: construction)
            var rng = SplitMix64(seed: options.seed)
            let stagnation = options.maxStagnantKicks ?? defaultStagnantKicks(nodes: problem.m)
            let confirming = options.maxStagnantKicks == nil
            // Default stop: independent runs (same start, fresh random stream) until two of
            // them end on the same best cost, or the budget ends. One run can stall in a
            // deep basin; two agreeing runs rarely both do.
            var bestCycle: [Int] = []
            var bestCost = Int.max
            var hits = 0
            repeat {
                if !bestCycle.isEmpty { search.reset(to: construction) }
                search.queueAll()
                search.descend()
                search.iterate(
                    until: deadline, maxStagnantKicks: stagnation, restarts: confirming ? defaultRestarts : 0,
                    rng: &rng)
                if search.cost < bestCost {
                    bestCost = search.cost
                    bestCycle = search.currentTour
                    hits = 1
                } else if search.cost == bestCost {
                    hits += 1
                }
            } while confirming && hits < 2 && clock.now < deadline
            cycle = bestCycle
            optimal = false
        }
        var order = problem.order(fromCycle: cycle)
        if !problem.respectsEndpoints(order) {
            // Cannot happen: every fixed end is priced so any violating tour costs more than
            // the construction tour, which respects them. Fall back rather than trap.
            assertionFailure("solver returned a tour that violates fixed endpoints")
            order = problem.order(fromCycle: problem.constructionCycle())
            optimal = false
        }
        return RouteSolution(order: order, cost: matrix.cost(of: order, roundTrip: options.roundTrip), optimal: optimal)
    }

    /// Default stagnation limit: enough kicks that small itineraries converge to the best
    /// tour the search can find (typically optimal) while answering in milliseconds.
    static func defaultStagnantKicks(nodes m: Int) -> Int { 500 + 10 * m }

    /// Default number of fruitless restarts before the search stops (see
    /// ``LocalSearch/iterate(until:maxStagnantKicks:restarts:rng:)``).
    static let defaultRestarts = 5

    /// The construction heuristic's order (nearest neighbour, respecting fixed ends); the
    /// solver never returns anything costlier.
    static func constructionOrder(_ matrix: CostMatrix, options: SolveOptions) throws(RouteError) -> [Int] {
        try validate(options, count: matrix.count)
        if matrix.count <= 1 { return Array(0..<matrix.count) }
        let problem = ReducedProblem(matrix: matrix, options: options)
        return problem.order(fromCycle: problem.constructionCycle())
    }

    static func validate(_ options: SolveOptions, count n: Int) throws(RouteError) {
        if let start = options.start, !(0..<n).contains(start) {
            throw RouteError(.indexOutOfRange, "start index \(start) is outside 0..<\(n)")
        }
        if let end = options.end, !(0..<n).contains(end) {
            throw RouteError(.indexOutOfRange, "end index \(end) is outside 0..<\(n)")
        }
        if !options.roundTrip, n > 1, let start = options.start, start == options.end {
            throw RouteError(
                .invalidEndpoints,
                "start and end are both \(start) on an open path; use a round trip or pick a different end")
        }
        if options.timeBudget < .zero {
            throw RouteError(.invalidTimeBudget, "the time budget must not be negative")
        }
    }
}

/// The visiting-order problem reduced to a cheapest Hamiltonian cycle on an integer matrix.
///
/// - Round trip (free, start only, end only, start == end): the cycle on the `n` nodes,
///   rotated afterwards.
/// - Open path, or a round trip with distinct fixed start and end (the closing edge is
///   then a constant): one extra node `z`. Edges between `z` and a node that may not be an
///   end cost `big`, larger than any tour, so optimal and improved tours avoid them.
///   For symmetric matrices `z`'s edges are symmetric too (a fixed start or end is just an
///   allowed neighbour of `z`), keeping the fast symmetric search; the path is oriented
///   afterwards.
struct ReducedProblem {
    let n: Int
    let m: Int
    let w: [Int]
    let symmetric: Bool
    let start: Int?
    let end: Int?
    let roundTrip: Bool
    let hasDummy: Bool

    init(matrix: CostMatrix, options: SolveOptions) {
        n = matrix.count
        roundTrip = options.roundTrip
        let quantized = Self.quantize(matrix)
        let isSymmetric = matrix.isSymmetric
        if options.roundTrip && (options.start == nil || options.end == nil || options.start == options.end) {
            start = options.start
            end = options.start == nil ? options.end : nil
            hasDummy = false
            m = n
            w = quantized
            symmetric = isSymmetric
            return
        }
        start = options.start
        end = options.end
        hasDummy = true
        m = n + 1
        symmetric = isSymmetric
        var maxEntry = 0
        for value in quantized where value > maxEntry { maxEntry = value }
        let big = maxEntry * m + 1
        var reduced = [Int](repeating: 0, count: m * m)
        for i in 0..<n {
            for j in 0..<n { reduced[i * m + j] = quantized[i * n + j] }
        }
        let z = n
        for j in 0..<n {
            if isSymmetric {
                let free = (start == nil && end == nil) || j == start || j == end
                reduced[z * m + j] = free ? 0 : big
                reduced[j * m + z] = free ? 0 : big
            } else {
                reduced[z * m + j] = (start == nil || j == start) ? 0 : big
                reduced[j * m + z] = (end == nil || j == end) ? 0 : big
            }
        }
        w = reduced
    }

    /// Integer costs: exact for integral matrices, otherwise scaled so that the largest
    /// entry is 2⁴⁰ (relative resolution 10⁻¹²); sums of 2,001 entries cannot overflow.
    static func quantize(_ matrix: CostMatrix) -> [Int] {
        let limit = Double(1 << 40)
        var maxValue = 0.0
        var integral = true
        for value in matrix.values {
            if value > maxValue { maxValue = value }
            if integral && value.rounded() != value { integral = false }
        }
        if integral && maxValue <= limit { return matrix.values.map { Int($0) } }
        let scale = maxValue > 0 ? limit / maxValue : 1
        return matrix.values.map { Int(($0 * scale).rounded()) }
    }

    @inline(__always) private func cost(_ a: Int, _ b: Int) -> Int { w[a * m + b] }

    /// Nearest-neighbour cycle that respects the fixed ends.
    func constructionCycle() -> [Int] {
        var visited = [Bool](repeating: false, count: m)
        var cycle: [Int] = []
        cycle.reserveCapacity(m)
        func visit(_ v: Int) {
            visited[v] = true
            cycle.append(v)
        }
        var reserved: Int? = nil
        if hasDummy {
            visit(n)
            if let start { visit(start) }
            if let end, !visited[end] { reserved = end; visited[end] = true }
        } else {
            visit(start ?? 0)
        }
        while cycle.count < m - (reserved == nil ? 0 : 1) {
            let last = cycle[cycle.count - 1]
            var best = -1
            var bestCost = Int.max
            for v in 0..<m where !visited[v] && cost(last, v) < bestCost {
                best = v
                bestCost = cost(last, v)
            }
            visit(best)
        }
        if let reserved { cycle.append(reserved) }
        return cycle
    }

    /// The visiting order over the original nodes for a cycle of the reduced problem.
    func order(fromCycle cycle: [Int]) -> [Int] {
        if !hasDummy {
            guard let anchor = start ?? end else { return rotated(cycle, toStartAt: 0) }
            let rotatedCycle = rotated(cycle, toStartAt: anchor)
            // "End only": the anchor goes last.
            return start == nil ? Array(rotatedCycle.dropFirst()) + [anchor] : rotatedCycle
        }
        var path = Array(rotated(cycle, toStartAt: n).dropFirst())
        if symmetric {
            if let start {
                if path.first != start { path.reverse() }
            } else if let end, path.last != end {
                path.reverse()
            }
        }
        return path
    }

    func respectsEndpoints(_ order: [Int]) -> Bool {
        guard order.count == n, Set(order).count == n else { return false }
        if let start, order.first != start { return false }
        if let end, order.last != end { return false }
        return true
    }

    private func rotated(_ cycle: [Int], toStartAt node: Int) -> [Int] {
        guard let index = cycle.firstIndex(of: node) else { return cycle }
        return Array(cycle[index...] + cycle[..<index])
    }
}
