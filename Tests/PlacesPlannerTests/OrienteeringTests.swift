import PlacesPlanner
import PlacesRoutes
import Testing

/// Random small instances: Euclidean travel (or an arbitrary matrix), windows, optional
/// budget and per-route unavailability.
struct RandomInstance {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(random.next() >> 11) * 0x1p-53
    }

    mutating func make(
        nodes n: Int, routes m: Int, budget: Bool, unavailable: Bool, euclidean: Bool = true
    ) throws -> OrienteeringProblem {
        var x: [Double] = []
        var y: [Double] = []
        for _ in 0...n {
            x.append(uniform(0, 50))
            y.append(uniform(0, 50))
        }
        var travel = [Double](repeating: 0, count: (n + 1) * (n + 1))
        for i in 0...n {
            for j in 0...n where i != j {
                let d = ((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j])).squareRoot()
                travel[i * (n + 1) + j] = euclidean ? d : uniform(0, 60)
            }
        }
        let routes = (0..<m).map { r in OrienteeringProblem.Route(open: Double(r) * 10, close: Double(r) * 10 + 150) }
        var nodes: [OrienteeringProblem.Node] = []
        for _ in 0..<n {
            var windows: [TimeWindow?] = []
            for r in 0..<m {
                let open = uniform(0, 120)
                let window = TimeWindow(open: open, close: open + uniform(0, 60))
                windows.append(unavailable && uniform(0, 1) < 0.3 ? nil : window)
                if !unavailable && r == 0 && uniform(0, 1) < 0.5 { break }  // one shared window
            }
            if windows.count != 1 && windows.count != m { windows = Array(windows.prefix(1)) }
            nodes.append(
                .init(
                    service: uniform(0, 15), score: Double(1 + random.next() % 10),
                    cost: budget ? Double(random.next() % 6) : 0, windows: windows))
        }
        return try OrienteeringProblem(routes: routes, nodes: nodes, travel: travel, budget: budget ? 12 : nil)
    }
}

/// The optimum by exhaustive search: for each route and set of nodes, the earliest time the
/// route can be at its last node having visited exactly that set (earlier is never worse
/// when waiting is allowed), then the best split of disjoint sets over the routes.
func bruteForceOptimum(_ problem: OrienteeringProblem) -> Double {
    let n = problem.nodes.count
    let full = 1 << n
    var feasible = [[Bool]](repeating: [Bool](repeating: false, count: full), count: problem.routes.count)
    for (r, route) in problem.routes.enumerated() {
        var earliest = [Double](repeating: .infinity, count: full * n)
        feasible[r][0] = true
        for mask in 1..<full {
            for last in 0..<n where mask & (1 << last) != 0 {
                guard let window = problem.nodes[last].window(onRoute: r) else { continue }
                let before = mask & ~(1 << last)
                var arrive = Double.infinity
                if before == 0 {
                    arrive = route.open + problem.time(0, last + 1)
                } else {
                    for prev in 0..<n where before & (1 << prev) != 0 {
                        let leave = earliest[before * n + prev]
                        arrive = min(arrive, leave + problem.time(prev + 1, last + 1))
                    }
                }
                guard arrive <= window.close + 1e-7 else { continue }
                let leave = max(arrive, window.open) + problem.nodes[last].service
                earliest[mask * n + last] = leave
                if leave + problem.time(last + 1, 0) <= route.close + 1e-7 { feasible[r][mask] = true }
            }
        }
    }
    func value(_ mask: Int, _ keyPath: KeyPath<OrienteeringProblem.Node, Double>) -> Double {
        (0..<n).filter { mask & (1 << $0) != 0 }.reduce(0) { $0 + problem.nodes[$1][keyPath: keyPath] }
    }
    let budget = problem.budget ?? .infinity
    var best = 0.0
    func search(_ r: Int, _ used: Int) {
        if r == problem.routes.count {
            if value(used, \.cost) <= budget + 1e-7 { best = max(best, value(used, \.score)) }
            return
        }
        for mask in 0..<full where mask & used == 0 && feasible[r][mask] { search(r + 1, used | mask) }
    }
    search(0, 0)
    return best
}

@Suite struct OrienteeringSolverTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var seed: UInt64
        var nodes: Int
        var routes: Int
        var budget: Bool
        var unavailable: Bool
        var testDescription: String {
            "seed \(seed): \(nodes) nodes, \(routes) routes\(budget ? ", budget" : "")\(unavailable ? ", closed days" : "")"
        }
    }

    static let cases: [Case] = (1...24).map { (i: Int) -> Case in
        Case(
            seed: UInt64(i), nodes: i % 2 == 0 ? 8 : 7, routes: i % 3 == 0 ? 1 : 2, budget: i % 4 < 2,
            unavailable: i % 5 < 2)
    }

    @Test(arguments: cases)
    func findsTheOptimumOfSmallInstances(_ c: Case) throws {
        var random = RandomInstance(seed: c.seed)
        let problem = try random.make(nodes: c.nodes, routes: c.routes, budget: c.budget, unavailable: c.unavailable)
        let optimum = bruteForceOptimum(problem)
        let solution = OrienteeringSolver.solve(
            problem, options: .init(seed: c.seed, timeBudget: .seconds(20), maxIterations: 3000))
        #expect(problem.check(solution.routes) == nil)
        #expect(solution.score == optimum, "seed \(c.seed): optimum \(optimum)")
        if let budget = problem.budget { #expect(solution.cost <= budget + 1e-7) }
        for (r, visits) in solution.routes.enumerated() {
            for (k, node) in visits.enumerated() {
                let window = try #require(problem.nodes[node].window(onRoute: r), "node \(node) placed on route \(r)")
                #expect(solution.starts[r][k] >= window.open - 1e-7 && solution.starts[r][k] <= window.close + 1e-7)
            }
        }
    }

    @Test func everyAnswerIsFeasibleOnAnArbitraryMatrix() throws {
        for seed in UInt64(100)..<UInt64(110) {
            var random = RandomInstance(seed: seed)
            let problem = try random.make(
                nodes: 40, routes: 3, budget: seed % 2 == 0, unavailable: true, euclidean: false)
            let solution = OrienteeringSolver.solve(problem, options: .init(seed: seed, maxIterations: 300))
            #expect(problem.check(solution.routes) == nil, "seed \(seed)")
            #expect(solution.score > 0)
            if let budget = problem.budget { #expect(solution.cost <= budget + 1e-7) }
        }
    }

    @Test func largeProblemsStayFeasible() throws {
        // Over 400 candidates each step re-inserts only around what it removed.
        var random = RandomInstance(seed: 11)
        let problem = try random.make(nodes: 450, routes: 3, budget: false, unavailable: true, euclidean: false)
        let solution = OrienteeringSolver.solve(
            problem, options: .init(seed: 3, timeBudget: .seconds(60), maxIterations: 60))
        #expect(problem.check(solution.routes) == nil)
        #expect(solution.score > 0)
    }

    @Test func sameSeedAndIterationsGiveTheSameAnswer() throws {
        var random = RandomInstance(seed: 7)
        let problem = try random.make(nodes: 60, routes: 2, budget: false, unavailable: true)
        let options = OrienteeringOptions(seed: 42, timeBudget: .seconds(30), maxIterations: 400)
        let first = OrienteeringSolver.solve(problem, options: options)
        let second = OrienteeringSolver.solve(problem, options: options)
        #expect(first.routes == second.routes)
        #expect(first.starts == second.starts)
        #expect(first.iterations == 400 || first.score == problem.nodes.reduce(0) { $0 + $1.score })
    }

    @Test func theCheckerRejectsWhatBreaksTheRules() throws {
        let node = OrienteeringProblem.Node(service: 5, score: 1, cost: 3, windows: [TimeWindow(open: 0, close: 10)])
        let late = OrienteeringProblem.Node(service: 5, score: 1, windows: [nil, TimeWindow(open: 0, close: 100)])
        let problem = try OrienteeringProblem(
            routes: [.init(open: 0, close: 100), .init(open: 0, close: 100)], nodes: [node, late],
            travel: [0, 4, 20, 4, 0, 20, 20, 20, 0], budget: 2)
        #expect(problem.check([[0]])?.contains("budget") == true)
        #expect(problem.check([[1]])?.contains("not available") == true)
        #expect(problem.check([[], [0, 0]])?.contains("twice") == true)
        #expect(problem.check([[], [1]]) == nil)
    }

    @Test func validationNamesTheField() {
        let window = [TimeWindow(open: 0, close: 10)]
        let route = OrienteeringProblem.Route(open: 0, close: 100)
        func error(
            routes: [OrienteeringProblem.Route] = [route], nodes: [OrienteeringProblem.Node],
            travel: [Double]? = nil, budget: Double? = nil
        ) -> String? {
            let size = nodes.count + 1
            do {
                _ = try OrienteeringProblem(
                    routes: routes, nodes: nodes, travel: travel ?? Array(repeating: 1, count: size * size),
                    budget: budget)
                return nil
            } catch {
                return error.field
            }
        }
        let ok = OrienteeringProblem.Node(service: 1, score: 1, windows: window)
        #expect(error(nodes: [ok]) == nil)
        #expect(
            error(nodes: [ok, .init(service: 1, score: 1, windows: [TimeWindow(open: .nan, close: 3)])])
                == "nodes[1].open")
        #expect(error(nodes: [.init(service: -1, score: 1, windows: window)]) == "nodes[0].service")
        #expect(error(nodes: [.init(service: 1, score: .infinity, windows: window)]) == "nodes[0].score")
        #expect(
            error(nodes: [.init(service: 1, score: 1, windows: [TimeWindow(open: 5, close: 3)])]) == "nodes[0].open")
        #expect(error(nodes: [.init(service: 1, score: 1, windows: [nil, nil, nil])]) == "nodes[0].windows")
        #expect(error(nodes: [ok], travel: [0, 1, 1]) == "travel")
        #expect(error(nodes: [ok], travel: [0, 1, -1, 0]) == "travel[1][0]")
        #expect(error(routes: [.init(open: 10, close: 5)], nodes: [ok]) == "routes[0].open")
        #expect(error(routes: [], nodes: [ok]) == "routes")
        #expect(error(nodes: [ok], budget: -1) == "budget")
    }

    @Test func noNodesGiveEmptyRoutes() throws {
        let problem = try OrienteeringProblem(routes: [.init(open: 0, close: 10)], nodes: [], travel: [0])
        let solution = OrienteeringSolver.solve(problem)
        #expect(solution.routes == [[]])
        #expect(solution.score == 0)
    }
}
