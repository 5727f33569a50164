import PlacesRoutes

/// Ruin and recreate: the two halves of one step of the search.
extension OrienteeringSearch {
    static let localRecreateAbove = 400

    /// One step: ruin (mostly small, sometimes up to half the visits), recreate without
    /// the removed nodes, then with them, and, when `compacting`, reorder the routes to
    /// free time and recreate again, if the score then reaches `compactFrom`.
    mutating func step(rng: inout SplitMix64, compactFrom: Double) {
        // (Above this many candidates a full insertion pass per step costs too much.)
        let visited = routes.reduce(0) { $0 + $1.count }
        let large = rng.unit() < 0.2
        let size = 1 + rng.int(below: max(1, large ? min(60, visited / 2 + 1) : min(15, visited / 4 + 1)))
        let removed = ruin(size: size, rng: &rng)
        let noise = [0, 0.2, 0.5, 1][rng.int(below: 4)]
        let squared = rng.unit() < 0.7
        // On large problems only the unvisited nodes near the removed ones are tried, except
        // when the step looks good enough to compact.
        let local = candidates.count > Self.localRecreateAbove
        var marked = [Bool](repeating: !local, count: nodeCount)
        if local {
            for v in removed {
                marked[v] = true
                for u in near[v] { marked[u] = true }
            }
        }
        let others = local ? candidates.filter { marked[$0] && routeOf[$0] < 0 && !removed.contains($0) } : []
        // The removed nodes go back only once nothing else fits (the time they freed goes to
        // others first).
        recreate(rng: &rng, noise: noise, squared: squared, pool: local ? removed + others : nil, deferred: removed)
        guard totalScore >= compactFrom - Self.eps else { return }
        if local { recreate(rng: &rng, noise: noise, squared: squared) }
        var changed = false
        for r in 0..<routeCount where compact(r) { changed = true }
        if changed { recreate(rng: &rng, noise: 0, squared: squared) }
    }

    /// Greedy insertion until nothing fits: repeatedly the unvisited node and position with
    /// the best ratio of score (squared, or not) to the time it adds (Vansteenwegen et al.
    /// 2009), each node's ratio scaled by a random factor in `[1, 1 + noise)`. Only the
    /// changed route's positions are re-evaluated after an insertion.
    /// `pool`: the nodes to try (`nil`: every unvisited candidate). `deferred`: nodes of the
    /// pool inserted only once no other fits (so the time they freed goes to others first).
    mutating func recreate(
        rng: inout SplitMix64, noise: Double, squared: Bool, pool: [Int]? = nil, deferred: [Int] = []
    ) {
        let m = routeCount
        let everything = pool == nil
        defer { if everything { dirty = Array(repeating: false, count: m) } }
        var pool = (pool ?? candidates).filter { routeOf[$0] < 0 }
        guard !pool.isEmpty else { return }
        let skipClean = budget == .infinity
        var factor = pool.map { _ in noise > 0 ? 1 + noise * rng.unit() : 1 }
        var ratio = [Double](repeating: 0, count: pool.count * m)
        var position = [Int](repeating: 0, count: pool.count * m)
        func evaluate(_ k: Int, _ r: Int) {
            let j = pool[k]
            guard let (p, shift) = bestPosition(j, r) else {
                ratio[k * m + r] = 0
                return
            }
            let worth = squared ? score[j] * score[j] : score[j]
            ratio[k * m + r] = worth * factor[k] / max(shift, 1e-3)
            position[k * m + r] = p
        }
        for k in pool.indices { for r in 0..<m where dirty[r] || !skipClean { evaluate(k, r) } }
        var deferring = !deferred.isEmpty
        var isDeferred = [Bool](repeating: false, count: deferring ? nodeCount : 0)
        for v in deferred { isDeferred[v] = true }
        while true {
            var bestK = -1
            var bestR = 0
            var bestRatio = 0.0
            for k in pool.indices where totalCost + cost[pool[k]] <= budget + Self.eps {
                if deferring, isDeferred[pool[k]] { continue }
                for r in 0..<m where ratio[k * m + r] > bestRatio {
                    bestRatio = ratio[k * m + r]
                    bestK = k
                    bestR = r
                }
            }
            if bestK < 0, deferring {
                deferring = false
                continue
            }
            guard bestK >= 0, ContinuousClock.now < deadline else { return }
            insert(pool[bestK], bestR, at: position[bestK * m + bestR])
            let last = pool.count - 1
            pool.swapAt(bestK, last)
            factor.swapAt(bestK, last)
            for r in 0..<m {
                ratio.swapAt(bestK * m + r, last * m + r)
                position.swapAt(bestK * m + r, last * m + r)
            }
            pool.removeLast()
            factor.removeLast()
            ratio.removeLast(m)
            position.removeLast(m)
            // Insertions only tighten a route: a node that did not fit in it still does not
            // (except on a matrix without the triangle inequality: then it is merely missed).
            for k in pool.indices where ratio[k * m + bestR] > 0 { evaluate(k, bestR) }
        }
    }

    /// Removes about `size` visits, by one of four strategies picked at random: a run of
    /// consecutive visits in one route, in every route (the "shake" of Vansteenwegen et
    /// al.), a visit and its nearest visited neighbours, or the visits worth least for their
    /// time. Removals that would break the schedule (possible without the triangle
    /// inequality) are skipped.
    @discardableResult
    mutating func ruin(size: Int, rng: inout SplitMix64) -> [Int] {
        let before = routes
        switch rng.int(below: 4) {
        case 0:
            let nonEmpty = (0..<routeCount).filter { !routes[$0].isEmpty }
            guard !nonEmpty.isEmpty else { return [] }
            removeRun(nonEmpty[rng.int(below: nonEmpty.count)], size: size, rng: &rng)
        case 1:
            let each = max(1, size / max(1, routeCount))
            for r in 0..<routeCount where !routes[r].isEmpty { removeRun(r, size: each, rng: &rng) }
        case 2:
            removeRelated(size: size, rng: &rng)
        default:
            removeWorst(size: size, rng: &rng)
        }
        return before.joined().filter { routeOf[$0] < 0 }
    }

    private mutating func removeRun(_ r: Int, size: Int, rng: inout SplitMix64) {
        var count = min(routes[r].count, 1 + rng.int(below: size))
        while count > 0 {
            let p = rng.int(below: routes[r].count - count + 1)
            if canRemove(r, p, count: count) {
                remove(r, p, count: count)
                return
            }
            count -= 1
        }
    }

    private mutating func removeRelated(size: Int, rng: inout SplitMix64) {
        let visited = (0..<nodeCount).filter { routeOf[$0] >= 0 }
        guard !visited.isEmpty else { return }
        let seed = visited[rng.int(below: visited.count)]
        let keys = visited.map { t(seed + 1, $0 + 1) + t($0 + 1, seed + 1) }
        let order = visited.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        var removed = 0
        for k in order where removed < size {
            let v = visited[k]
            let r = routeOf[v]
            guard r >= 0, let p = routes[r].firstIndex(of: v), canRemove(r, p, count: 1) else { continue }
            remove(r, p, count: 1)
            removed += 1
        }
    }

    /// Removes the `size` visits that bring the least score for the time they take (score
    /// over the travel, wait and service their removal saves), each ratio scaled by a
    /// random factor in [1, 2).
    private mutating func removeWorst(size: Int, rng: inout SplitMix64) {
        var keys: [Double] = []
        var nodes: [Int] = []
        for r in 0..<routeCount {
            let f = r * flatStride
            for (p, v) in routes[r].enumerated() {
                let prev = flatLocation[f + p]
                let next = flatLocation[f + p + 2]
                let arrive = flatDeparture[f + p] + t(prev, v + 1)
                let saved = t(prev, v + 1) + max(0, starts[r][p] - arrive) + service[v] + t(v + 1, next) - t(prev, next)
                keys.append(score[v] / max(saved, 1e-3) * (1 + rng.unit()))
                nodes.append(v)
            }
        }
        let order = nodes.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        var removed = 0
        for k in order where removed < size {
            let v = nodes[k]
            let r = routeOf[v]
            let p = positionOf[v]
            guard r >= 0, canRemove(r, p, count: 1) else { continue }
            remove(r, p, count: 1)
            removed += 1
        }
    }
}
