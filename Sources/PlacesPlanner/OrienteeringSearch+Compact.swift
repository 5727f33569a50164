/// Intra-route improvement: reorder a route's visits so it ends earlier (or, ending as
/// early, travels less), which frees time for more insertions.
extension OrienteeringSearch {
    /// End time and travel of route `r` visiting `sequence`, `nil` if a window breaks.
    func simulate(_ r: Int, _ sequence: [Int]) -> (end: Double, travel: Double)? {
        let base = r * nodeCount
        var time = routeOpen[r]
        var moved = 0.0
        var at = 0
        for v in sequence {
            let leg = t(at, v + 1)
            time += leg
            moved += leg
            guard time <= close[base + v] + Self.eps else { return nil }
            time = max(time, open[base + v]) + service[v]
            at = v + 1
        }
        let leg = t(at, 0)
        time += leg
        guard time <= routeClose[r] + Self.eps else { return nil }
        return (time, moved + leg)
    }

    /// First-improvement 2-opt, or-opt (runs of 1–3 moved elsewhere) and swaps on route
    /// `r` until none helps; `true` when the route changed.
    @discardableResult
    mutating func compact(_ r: Int) -> Bool {
        var route = routes[r]
        guard route.count >= 2, var current = simulate(r, route) else { return false }
        func better(_ candidate: (end: Double, travel: Double)) -> Bool {
            candidate.end < current.end - Self.eps
                || (candidate.end <= current.end + Self.eps && candidate.travel < current.travel - Self.eps)
        }
        var changed = false
        var improved = true
        var rounds = 0
        while improved, rounds < 50 {
            improved = false
            rounds += 1
            let n = route.count
            search: for i in 0..<n {
                for j in (i + 1)..<n {
                    var reversed = route
                    reversed[i...j].reverse()
                    if let value = simulate(r, reversed), better(value) {
                        route = reversed
                        current = value
                        improved = true
                        break search
                    }
                }
                for length in 1...3 where i + length <= n {
                    var rest = route
                    let run = Array(rest[i..<(i + length)])
                    rest.removeSubrange(i..<(i + length))
                    for p in 0...rest.count where p != i {
                        var moved = rest
                        moved.insert(contentsOf: run, at: p)
                        if let value = simulate(r, moved), better(value) {
                            route = moved
                            current = value
                            improved = true
                            break search
                        }
                    }
                }
            }
            changed = changed || improved
        }
        if changed {
            routes[r] = route
            refresh(r)
        }
        return changed
    }
}
