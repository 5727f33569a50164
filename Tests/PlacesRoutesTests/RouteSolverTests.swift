import Testing

@testable import PlacesRoutes

@Suite("Route solver")
struct RouteSolverTests {
    @Test("exact solver matches brute force on every endpoint combination", arguments: [false, true])
    func exactMatchesBruteForce(asymmetric: Bool) throws {
        var factory = InstanceFactory(seed: asymmetric ? 11 : 12)
        for n in 0...8 {
            for _ in 0..<2 {
                let matrix = asymmetric ? factory.asymmetric(n) : factory.symmetric(n, duplicates: n % 2 == 0)
                let cases = endpointCases(n, rng: &factory.rng)
                for (options, expected) in zip(cases, bruteForceCosts(matrix, cases)) {
                    let solution = try RouteSolver.solve(matrix, options: options)
                    #expect(solution.optimal)
                    #expect(isPermutation(solution.order, of: n))
                    #expect(abs(solution.cost - expected) <= 1e-6 * max(1, expected), "n=\(n) \(options)")
                }
            }
        }
    }

    @Test("local search alone finds the brute-force optimum on small instances", arguments: [false, true])
    func heuristicMatchesBruteForce(asymmetric: Bool) throws {
        var factory = InstanceFactory(seed: asymmetric ? 21 : 22)
        for n in [8, 9] {
            let matrix = asymmetric ? factory.asymmetric(n) : factory.symmetric(n, duplicates: true)
            let cases = endpointCases(n, rng: &factory.rng)
            for (var options, expected) in zip(cases, bruteForceCosts(matrix, cases)) {
                options.exactNodeLimit = 0
                let solution = try RouteSolver.solve(matrix, options: options)
                #expect(abs(solution.cost - expected) <= 1e-6 * max(1, expected), "n=\(n) \(options)")
            }
        }
    }

    @Test(
        "heuristic answers visit each place once, keep fixed ends, report their true cost, beat construction",
        arguments: [false, true])
    func heuristicProperties(asymmetric: Bool) throws {
        var factory = InstanceFactory(seed: asymmetric ? 31 : 32)
        for n in [13, 24, 48] {
            let matrix = asymmetric ? factory.asymmetric(n) : factory.symmetric(n, duplicates: n == 24)
            for var options in endpointCases(n, rng: &factory.rng) {
                options.exactNodeLimit = 0
                options.timeBudget = .milliseconds(300)
                options.maxStagnantKicks = 100
                let solution = try RouteSolver.solve(matrix, options: options)
                #expect(isPermutation(solution.order, of: n))
                if let start = options.start { #expect(solution.order.first == start) }
                if let end = options.end, !(options.roundTrip && options.start == end) {
                    #expect(solution.order.last == end)
                }
                let recomputed = matrix.cost(of: solution.order, roundTrip: options.roundTrip)
                #expect(abs(solution.cost - recomputed) < 1e-9 * max(1, recomputed))
                let construction = try RouteSolver.constructionOrder(matrix, options: options)
                #expect(isPermutation(construction, of: n))
                #expect(solution.cost <= matrix.cost(of: construction, roundTrip: options.roundTrip) + 1e-9)
            }
        }
    }

    @Test(
        "above 250 nodes (3-opt moves and Lin–Kernighan chains when symmetric): fixed ends, true cost, beats construction",
        arguments: [false, true])
    func largeHeuristicProperties(asymmetric: Bool) throws {
        var factory = InstanceFactory(seed: asymmetric ? 33 : 34)
        // 260 nodes: round trips are 260-node cycles, open paths and fixed pairs 261 with the
        // extra node; both above LocalSearch.clusteredLimit.
        let n = 260
        let matrix = asymmetric ? factory.asymmetric(n) : factory.symmetric(n, duplicates: true)
        for var options in endpointCases(n, rng: &factory.rng) {
            options.timeBudget = .milliseconds(400)
            options.maxStagnantKicks = 60
            let solution = try RouteSolver.solve(matrix, options: options)
            #expect(isPermutation(solution.order, of: n))
            if let start = options.start { #expect(solution.order.first == start) }
            if let end = options.end, !(options.roundTrip && options.start == end) {
                #expect(solution.order.last == end)
            }
            let recomputed = matrix.cost(of: solution.order, roundTrip: options.roundTrip)
            #expect(abs(solution.cost - recomputed) < 1e-9 * max(1, recomputed))
            let construction = try RouteSolver.constructionOrder(matrix, options: options)
            #expect(solution.cost <= matrix.cost(of: construction, roundTrip: options.roundTrip) + 1e-9)
        }
    }

    @Test("3-opt and Lin–Kernighan moves keep the incremental cost exact and leave no improving 2-opt move")
    func threeOptDescent() {
        var factory = InstanceFactory(seed: 35)
        let n = 300
        let matrix = factory.symmetric(n, duplicates: true)
        let w = ReducedProblem.quantize(matrix)
        var start = Array(0..<n)
        for i in stride(from: n - 1, to: 0, by: -1) { start.swapAt(i, factory.rng.below(i + 1)) }
        let search = LocalSearch(matrix: w, count: n, symmetric: true, initialTour: start)
        #expect(search.useThreeOpt)
        search.queueAll()
        search.descend()
        #expect(search.cost == search.tourCost())
        var rng = SplitMix64(seed: 36)
        search.iterate(until: ContinuousClock().now.advanced(by: .seconds(5)), maxStagnantKicks: 200, rng: &rng)
        #expect(search.cost == search.tourCost())
        let tour = search.currentTour
        #expect(isPermutation(tour, of: n))
        // A 3-opt local optimum is in particular 2-opt optimal for every pair of edges.
        var improving = 0
        for i in 0..<(n - 2) {
            for j in (i + 2)..<n where !(i == 0 && j == n - 1) {
                let a = tour[i]
                let b = tour[i + 1]
                let c = tour[j]
                let e = tour[(j + 1) % n]
                if search.d(a, c) + search.d(b, e) < search.d(a, b) + search.d(c, e) { improving += 1 }
            }
        }
        // Neighbour lists bound the search, so a rare long-range 2-opt move may remain.
        #expect(improving <= n / 50, "\(improving) improving 2-opt moves left")
    }

    @Test("the same seed gives the same order")
    func deterministic() throws {
        var factory = InstanceFactory(seed: 41)
        let matrix = factory.symmetric(80)
        let options = SolveOptions(timeBudget: .seconds(30), seed: 7, maxStagnantKicks: 300)
        let first = try RouteSolver.solve(matrix, options: options)
        let second = try RouteSolver.solve(matrix, options: options)
        #expect(first == second)
    }

    @Test("trivial sizes: 0, 1 and 2 places, and identical places")
    func trivialSizes() throws {
        #expect(try RouteSolver.solve(CostMatrix([[Double]]())) == RouteSolution(order: [], cost: 0, optimal: true))
        #expect(try RouteSolver.solve(CostMatrix([[0.0]])).order == [0])
        #expect(
            try RouteSolver.solve(CostMatrix([[0.0]]), options: SolveOptions(roundTrip: false, start: 0, end: 0)).order
                == [0])
        let two = try CostMatrix([[0, 5], [7, 0]])
        #expect(try RouteSolver.solve(two).cost == 12)
        let open = try RouteSolver.solve(two, options: SolveOptions(roundTrip: false))
        #expect(open.order == [0, 1] && open.cost == 5)
        #expect(try RouteSolver.solve(two, options: SolveOptions(roundTrip: false, end: 0)).order == [1, 0])
        let same = try CostMatrix([[Int]](repeating: [Int](repeating: 0, count: 20), count: 20))
        let solution = try RouteSolver.solve(same, options: SolveOptions(roundTrip: false, start: 3, end: 4))
        #expect(isPermutation(solution.order, of: 20) && solution.cost == 0)
        #expect(solution.order.first == 3 && solution.order.last == 4)
    }

    @Test("bad matrices and options give precise errors")
    func errors() {
        #expect(errorCode { _ = try CostMatrix([[0, 1], [1]]) } == .nonSquareMatrix)
        #expect(errorCode { _ = try CostMatrix([[0, 1, 2], [1, 0, 2]]) } == .nonSquareMatrix)
        #expect(errorCode { _ = try CostMatrix(count: 2, values: [0, 1, 1]) } == .nonSquareMatrix)
        #expect(errorCode { _ = try CostMatrix([[0, -1], [1, 0]]) } == .invalidCost)
        #expect(errorCode { _ = try CostMatrix([[0, .nan], [1, 0]]) } == .invalidCost)
        #expect(errorCode { _ = try CostMatrix([[0, .infinity], [1, 0]]) } == .invalidCost)
        #expect(errorCode { _ = try CostMatrix(count: 2_001, values: []) } == .tooManyNodes)
        let matrix = try! CostMatrix([[0, 1, 2], [1, 0, 2], [2, 2, 0]])
        #expect(errorCode { _ = try RouteSolver.solve(matrix, options: SolveOptions(start: 3)) } == .indexOutOfRange)
        #expect(errorCode { _ = try RouteSolver.solve(matrix, options: SolveOptions(end: -1)) } == .indexOutOfRange)
        #expect(
            errorCode { _ = try RouteSolver.solve(matrix, options: SolveOptions(roundTrip: false, start: 1, end: 1)) }
                == .invalidEndpoints)
        #expect(
            errorCode { _ = try RouteSolver.solve(matrix, options: SolveOptions(roundTrip: true, start: 1, end: 1)) }
                == nil)
        #expect(
            errorCode { _ = try RouteSolver.solve(matrix, options: SolveOptions(timeBudget: .milliseconds(-1))) }
                == .invalidTimeBudget)
    }

    @Test("Held-Karp answers 12 places quickly even in debug builds")
    func exactIsFast() throws {
        var factory = InstanceFactory(seed: 51)
        let matrix = factory.symmetric(12)
        let clock = ContinuousClock()
        var optimal = false
        let elapsed = try clock.measure { optimal = try RouteSolver.solve(matrix).optimal }
        #expect(optimal)
        #expect(elapsed < .milliseconds(500))
    }
}

@Suite("Candidate lists")
struct CandidateSetTests {
    /// Two clusters of 15 points 10 km apart: every node's 12 nearest are in its own cluster.
    private func twoClusters() -> (key: (Int, Int) -> Int, bridge: (Int, Int)) {
        var rng = SplitMix64(seed: 3)
        var points: [(Int, Int)] = []
        for cluster in 0..<2 {
            for _ in 0..<15 { points.append((cluster * 10_000 + rng.below(100), rng.below(100))) }
        }
        let key: (Int, Int) -> Int = { a, b in
            let dx = Double(points[a].0 - points[b].0)
            let dy = Double(points[a].1 - points[b].1)
            return Int((dx * dx + dy * dy).squareRoot().rounded())
        }
        var bridge = (0, 15)
        for a in 0..<15 {
            for b in 15..<30 where key(a, b) < key(bridge.0, bridge.1) { bridge = (a, b) }
        }
        return (key, bridge)
    }

    @Test("α-nearest candidates include the link between two clusters; nearest ones do not")
    func alphaFindsTheBridge() {
        let (key, bridge) = twoClusters()
        let k = 12
        let lists = CandidateSet.build(m: 30, k: k, key: key)
        let row = { (v: Int) in Array(lists[(v * k)..<((v + 1) * k)]) }
        #expect(row(bridge.0).contains(bridge.1))
        #expect(row(bridge.1).contains(bridge.0))
        for v in 0..<30 {
            #expect(Set(row(v)).count == k && !row(v).contains(v))
            #expect(row(v) == row(v).sorted { (key(v, $0), $0) < (key(v, $1), $1) }, "list \(v) is sorted by cost")
        }
        let nearest = CandidateSet.build(m: 30, k: k, alphaCount: 0, key: key)
        #expect(!nearest[(bridge.0 * k)..<((bridge.0 + 1) * k)].contains(bridge.1))
    }
}
