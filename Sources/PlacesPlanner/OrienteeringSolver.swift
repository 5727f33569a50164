import Foundation
import PlacesRoutes

/// Options for ``OrienteeringSolver/solve(_:options:)``.
public struct OrienteeringOptions: Sendable {
    /// Seed of the search's random source.
    public var seed: UInt64
    /// Wall-clock cap on the search.
    public var timeBudget: Duration
    /// Stop after this many search steps. When set, the answer depends only on the
    /// problem and the seed (the time budget still caps it: a slow machine may stop early).
    public var maxIterations: Int?

    /// Creates options; by default a 1 s search with seed 1.
    public init(seed: UInt64 = 1, timeBudget: Duration = .seconds(1), maxIterations: Int? = nil) {
        self.seed = seed
        self.timeBudget = timeBudget
        self.maxIterations = maxIterations
    }
}

/// The answer of ``OrienteeringSolver/solve(_:options:)``: always feasible.
public struct OrienteeringSolution: Sendable, Equatable {
    /// Node indices (into ``OrienteeringProblem/nodes``) per route, in visit order.
    public var routes: [[Int]]
    /// Service start time of each of those visits (after any wait for the window).
    public var starts: [[Double]]
    /// Sum of the visited nodes' scores.
    public var score: Double
    /// Sum of the visited nodes' costs.
    public var cost: Double
    /// Search steps done.
    public var iterations: Int
    /// Time from the start of the search to the first finding of the returned answer.
    public var timeToBest: Duration
}

/// Solves ``OrienteeringProblem``s: greedy insertion, then ruin and recreate with
/// simulated-annealing acceptance and restarts from the best (docs/planner-solver.md).
public enum OrienteeringSolver {
    /// The best solution found within the options' limits; deterministic for a seed when
    /// `maxIterations` is set and reached before the time budget.
    public static func solve(
        _ problem: OrienteeringProblem, options: OrienteeringOptions = .init()
    ) -> OrienteeringSolution {
        let clock = ContinuousClock()
        let startTime = clock.now
        let deadline = startTime.advanced(by: options.timeBudget)
        var search = OrienteeringSearch(problem)
        var rng = SplitMix64(seed: options.seed)
        search.deadline = deadline
        let empty = [[Int]](repeating: [], count: problem.routes.count)
        let upperBound = search.candidates.reduce(0.0) { $0 + search.score[$1] }

        search.recreate(rng: &rng, noise: 0, squared: true)
        var best = search.routes
        var bestScore = search.totalScore
        if clock.now < deadline {
            search.load(empty)
            search.recreate(rng: &rng, noise: 0, squared: false)
            if search.totalScore > bestScore + OrienteeringSearch.eps {
                best = search.routes
                bestScore = search.totalScore
            } else {
                search.load(best, full: true)
            }
        }
        var timeToBest = clock.now - startTime
        var currentScore = bestScore

        let limit = options.maxIterations ?? Int.max
        // Simulated annealing on the score, from 3 times the mean node score down to a quarter
        // of it (hot: on pr01–pr10 with 2–4 routes a colder search stalls).
        let meanScore = search.candidates.isEmpty ? 1 : upperBound / Double(search.candidates.count)
        let hot = 3 * meanScore
        let cold = 0.25 * meanScore
        let restartAfter = 4 * max(50, search.candidates.count)
        var iteration = 0
        var lastBest = 0
        var lastRestart = 0
        while iteration < limit, bestScore < upperBound - OrienteeringSearch.eps {
            let now = clock.now
            if now >= deadline { break }
            iteration += 1
            let progress =
                options.maxIterations != nil
                ? Double(iteration) / Double(limit) : (now - startTime) / options.timeBudget
            let temperature = hot * pow(cold / hot, min(1, progress))
            let saved = search.routes
            search.step(rng: &rng, compactFrom: currentScore)
            let score = search.totalScore
            if score > bestScore + OrienteeringSearch.eps {
                best = search.routes
                bestScore = score
                timeToBest = clock.now - startTime
                lastBest = iteration
            }
            if score >= currentScore - OrienteeringSearch.eps
                || rng.unit() < exp((score - currentScore) / temperature)
            {
                currentScore = score
            } else {
                search.load(saved, full: true)
            }
            if iteration - max(lastBest, lastRestart) > restartAfter {
                search.load(best, full: true)
                currentScore = bestScore
                lastRestart = iteration
            }
        }
        if problem.check(best) != nil { best = empty }  // never reached: every move keeps feasibility
        search.load(best)
        return OrienteeringSolution(
            routes: search.routes, starts: search.starts, score: search.totalScore, cost: search.totalCost,
            iterations: iteration, timeToBest: timeToBest)
    }
}
