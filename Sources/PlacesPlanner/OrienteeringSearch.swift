import PlacesRoutes

/// The mutable state of one solver run: the routes, their schedules, and the moves that
/// change them in place (insert, remove) keeping every route feasible at all times.
///
/// Per position it keeps the service start (`starts`) and the latest start that keeps the
/// rest of the route feasible (`latest`, the "maxShift" of Vansteenwegen et al. 2009 as an
/// absolute time), so inserting a node or removing a segment is checked in O(1).
struct OrienteeringSearch {
    static let eps = OrienteeringProblem.epsilon

    let nodeCount: Int
    let routeCount: Int
    let dim: Int
    let travel: [Double]
    let service: [Double]
    let score: [Double]
    let cost: [Double]
    /// `open[r * nodeCount + i]`, `close[…]`: node `i`'s window on route `r`.
    let open: [Double]
    let close: [Double]
    /// `allowed[r * nodeCount + i]`: node `i` has a window on route `r` and fits alone.
    let allowed: [Bool]
    let routeOpen: [Double]
    let routeClose: [Double]
    let budget: Double
    /// Nodes worth inserting (positive score, allowed on some route), ascending.
    let candidates: [Int]

    /// `near[i]`: up to ``nearCount`` candidates closest to node `i` (travel from `i`):
    /// the granular neighbourhood of insertion.
    let near: [[Int]]
    static let nearCount = 25

    /// Insertion stops here even if more would fit (the first construction of a large
    /// problem with a short budget).
    var deadline = ContinuousClock.Instant.now.advanced(by: .seconds(86_400))

    var routes: [[Int]]
    var starts: [[Double]]
    var latest: [[Double]]
    /// Route of each node, -1 when unvisited.
    var routeOf: [Int]
    /// Position of each visited node in its route.
    var positionOf: [Int]
    /// Routes changed since the last full ``recreate(rng:noise:squared:pool:)``: the others
    /// have room for no unvisited candidate (without a budget), so insertion skips them.
    var dirty: [Bool]
    var totalScore = 0.0
    var totalCost = 0.0

    /// The schedule again, flat for the insertion hot path: route `r`'s stops at
    /// `r * flatStride + k`, `k` = 0 the depot, 1…count the visits, count + 1 the depot again.
    /// `flatStride` = candidates + 2 (a route never holds more).
    let flatStride: Int
    /// Matrix index of each stop.
    var flatLocation: [Int]
    /// Departure from stop `k` (k ≤ count).
    var flatDeparture: [Double]
    /// Arrival at stop `k + 1` straight from stop `k` (k ≤ count).
    var flatDirect: [Double]
    /// Latest start at stop `k` (1 ≤ k ≤ count + 1; the route's close for the last).
    var flatLatest: [Double]
    /// `near` flattened: `nearFlat[i * nearCount ..< i * nearCount + nearLength[i]]`.
    let nearFlat: [Int]
    let nearLength: [Int]

    init(_ problem: OrienteeringProblem) {
        let n = problem.nodes.count
        let m = problem.routes.count
        nodeCount = n
        routeCount = m
        dim = n + 1
        travel = problem.travel
        service = problem.nodes.map(\.service)
        score = problem.nodes.map(\.score)
        cost = problem.nodes.map(\.cost)
        routeOpen = problem.routes.map(\.open)
        routeClose = problem.routes.map(\.close)
        budget = problem.budget ?? .infinity
        var open = [Double](repeating: 0, count: n * m)
        var close = [Double](repeating: -.infinity, count: n * m)
        var allowed = [Bool](repeating: false, count: n * m)
        for r in 0..<m {
            for i in 0..<n {
                guard let w = problem.nodes[i].window(onRoute: r) else { continue }
                open[r * n + i] = w.open
                close[r * n + i] = w.close
                let arrive = routeOpen[r] + problem.time(0, i + 1)
                let back = max(arrive, w.open) + service[i] + problem.time(i + 1, 0)
                allowed[r * n + i] =
                    arrive <= w.close + Self.eps && back <= routeClose[r] + Self.eps && cost[i] <= budget + Self.eps
            }
        }
        self.open = open
        self.close = close
        self.allowed = allowed
        let scores = score
        candidates = (0..<n).filter { i in scores[i] > 0 && (0..<m).contains { allowed[$0 * n + i] } }
        near = Self.nearest(candidates, travel: problem.travel, dim: n + 1, nodeCount: n)
        var nearFlat = [Int](repeating: 0, count: n * Self.nearCount)
        for (i, list) in near.enumerated() {
            for (k, u) in list.enumerated() { nearFlat[i * Self.nearCount + k] = u }
        }
        self.nearFlat = nearFlat
        nearLength = near.map(\.count)
        flatStride = candidates.count + 2
        flatLocation = Array(repeating: 0, count: flatStride * m)
        flatDeparture = Array(repeating: 0, count: flatStride * m)
        flatDirect = Array(repeating: 0, count: flatStride * m)
        flatLatest = Array(repeating: 0, count: flatStride * m)
        routes = Array(repeating: [], count: m)
        starts = Array(repeating: [], count: m)
        latest = Array(repeating: [], count: m)
        routeOf = Array(repeating: -1, count: n)
        positionOf = Array(repeating: 0, count: n)
        dirty = Array(repeating: true, count: m)
    }

    @inline(__always) func t(_ a: Int, _ b: Int) -> Double { travel[a &* dim &+ b] }

    private static func nearest(_ candidates: [Int], travel: [Double], dim: Int, nodeCount: Int) -> [[Int]] {
        var near = [[Int]](repeating: [], count: nodeCount)
        for i in candidates {
            var keys: [Double] = []
            var list: [Int] = []
            // Travel from `i` only: one row of the matrix, read in order (fast at 2,000 nodes).
            let row = (i + 1) * dim
            for j in candidates where j != i {
                let key = travel[row + j + 1]
                if list.count == nearCount, let worst = keys.last, key >= worst { continue }
                var k = keys.count
                while k > 0, keys[k - 1] > key { k -= 1 }
                keys.insert(key, at: k)
                list.insert(j, at: k)
                if list.count > nearCount {
                    keys.removeLast()
                    list.removeLast()
                }
            }
            near[i] = list
        }
        return near
    }

    /// Departure time from the stop before position `p` of route `r` (the depot for 0).
    @inline(__always) func departure(_ r: Int, before p: Int) -> Double {
        p == 0 ? routeOpen[r] : starts[r][p - 1] + service[routes[r][p - 1]]
    }

    /// Matrix index of the stop before position `p` (0: the depot).
    @inline(__always) func location(_ r: Int, before p: Int) -> Int { p == 0 ? 0 : routes[r][p - 1] + 1 }

    /// Matrix index of the stop at position `p` (the depot past the end).
    @inline(__always) func location(_ r: Int, at p: Int) -> Int { p == routes[r].count ? 0 : routes[r][p] + 1 }

    /// Latest start at position `p` (latest arrival back at the depot past the end).
    @inline(__always) func latestStart(_ r: Int, at p: Int) -> Double {
        p == routes[r].count ? routeClose[r] : latest[r][p]
    }

    /// Recomputes the schedule of route `r` after a change.
    mutating func refresh(_ r: Int) {
        let route = routes[r]
        var s = [Double](repeating: 0, count: route.count)
        var time = routeOpen[r]
        var at = 0
        let base = r * nodeCount
        for (p, v) in route.enumerated() {
            positionOf[v] = p
            time += t(at, v + 1)
            s[p] = max(time, open[base + v])
            time = s[p] + service[v]
            at = v + 1
        }
        var l = [Double](repeating: 0, count: route.count)
        var bound = routeClose[r]
        var next = 0
        for p in stride(from: route.count - 1, through: 0, by: -1) {
            let v = route[p]
            bound = min(close[base + v], bound - service[v] - t(v + 1, next))
            l[p] = bound
            next = v + 1
        }
        starts[r] = s
        latest[r] = l
        dirty[r] = true
        let f = r * flatStride
        let count = route.count
        flatLocation[f] = 0
        flatDeparture[f] = routeOpen[r]
        for p in 0..<count {
            flatLocation[f + p + 1] = route[p] + 1
            flatDeparture[f + p + 1] = s[p] + service[route[p]]
            flatLatest[f + p + 1] = l[p]
        }
        flatLocation[f + count + 1] = 0
        flatLatest[f + count + 1] = routeClose[r]
        for k in 0...count {
            flatDirect[f + k] = flatDeparture[f + k] + t(flatLocation[f + k], flatLocation[f + k + 1])
        }
    }

    /// The cheapest feasible position for `j` on route `r` and its shift (the time the
    /// insertion adds: arrival at the next stop moves by this much). On long routes only the
    /// positions next to `j`'s near neighbours and the depot are tried (a granular
    /// neighbourhood, as in Labadie et al. 2012).
    func bestPosition(_ j: Int, _ r: Int) -> (position: Int, shift: Double)? {
        let k = r &* nodeCount &+ j
        guard allowed[k] else { return nil }
        let count = routes[r].count
        let closeJ = close[k] + Self.eps
        let openJ = open[k]
        let serviceJ = service[j]
        let row = (j &+ 1) &* dim
        let column = j &+ 1
        let f = r &* flatStride
        var bestP = -1
        var bestShift = Double.infinity
        travel.withUnsafeBufferPointer { tt in
            flatLocation.withUnsafeBufferPointer { loc in
                flatDeparture.withUnsafeBufferPointer { dep in
                    flatDirect.withUnsafeBufferPointer { direct in
                        flatLatest.withUnsafeBufferPointer { lat in
                            @inline(__always) func consider(_ p: Int) {
                                let i = f &+ p
                                let arrive = dep[i] + tt[loc[i] &* dim &+ column]
                                guard arrive <= closeJ else { return }
                                let reach = max(arrive, openJ) + serviceJ + tt[row &+ loc[i &+ 1]]
                                guard reach <= lat[i &+ 1] + Self.eps else { return }
                                let shift = reach - direct[i]
                                if shift < bestShift {
                                    bestShift = shift
                                    bestP = p
                                }
                            }
                            if count <= 2 * Self.nearCount / max(1, routeCount) {
                                for p in 0...count {
                                    // Departures never decrease along a route: once past the close, stop.
                                    if dep[f &+ p] > closeJ { break }
                                    consider(p)
                                }
                                return
                            }
                            consider(0)
                            let base = j &* Self.nearCount
                            routeOf.withUnsafeBufferPointer { routeOf in
                                positionOf.withUnsafeBufferPointer { positionOf in
                                    nearFlat.withUnsafeBufferPointer { near in
                                        for q in base..<(base &+ nearLength[j]) {
                                            let u = near[q]
                                            guard routeOf[u] == r else { continue }
                                            let p = positionOf[u]
                                            consider(p)
                                            consider(p &+ 1)
                                        }
                                    }
                                }
                            }
                            consider(count)
                        }
                    }
                }
            }
        }
        return bestP < 0 ? nil : (bestP, bestShift)
    }

    mutating func insert(_ j: Int, _ r: Int, at p: Int) {
        routes[r].insert(j, at: p)
        routeOf[j] = r
        totalScore += score[j]
        totalCost += cost[j]
        refresh(r)
    }

    /// Whether removing positions `p..<p+count` of route `r` keeps it feasible (always,
    /// under the triangle inequality; checked because the matrix need not obey it).
    func canRemove(_ r: Int, _ p: Int, count: Int) -> Bool {
        let arrive = departure(r, before: p) + t(location(r, before: p), location(r, at: p + count))
        return arrive <= latestStart(r, at: p + count) + Self.eps
    }

    mutating func remove(_ r: Int, _ p: Int, count: Int) {
        for v in routes[r][p..<(p + count)] {
            routeOf[v] = -1
            totalScore -= score[v]
            totalCost -= cost[v]
        }
        routes[r].removeSubrange(p..<(p + count))
        refresh(r)
    }

    /// Replaces the state with `routes` (a feasible solution of the same problem);
    /// `full`: no unvisited candidate fits in any of them (a full recreate made them).
    mutating func load(_ routes: [[Int]], full: Bool = false) {
        self.routes = routes
        routeOf = Array(repeating: -1, count: nodeCount)
        totalScore = 0
        totalCost = 0
        for (r, route) in routes.enumerated() {
            for v in route {
                routeOf[v] = r
                totalScore += score[v]
                totalCost += cost[v]
            }
            refresh(r)
        }
        if full { dirty = Array(repeating: false, count: routeCount) }
    }

    /// Route end time (arrival back at the depot).
    func end(_ r: Int) -> Double {
        guard let last = routes[r].last, let s = starts[r].last else { return routeOpen[r] }
        return s + service[last] + t(last + 1, 0)
    }
}

extension SplitMix64 {
    /// A uniform integer in `0..<bound` (`bound` > 0).
    @inline(__always) mutating func int(below bound: Int) -> Int {
        Int(truncatingIfNeeded: ((next() >> 32) &* UInt64(truncatingIfNeeded: bound)) >> 32)
    }

    /// A uniform double in `[0, 1)`.
    @inline(__always) mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
