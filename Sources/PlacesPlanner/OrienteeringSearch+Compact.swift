/// Intra-route improvement: reorder a route's visits so it ends earlier (or, ending as
/// early, travels less), which frees time for more insertions.
extension OrienteeringSearch {
    /// End time and travel of route `r` visiting `count` nodes, `at(q)` the one at position
    /// `q`, when positions before `from` are those whose departures and travel so far
    /// `depart[q]`/`moved[q]` hold (stop `q` = after `q` visits); `nil` if a window breaks.
    @inline(__always)
    func simulate(
        _ r: Int, from: Int, count: Int, depart: inout [Double], moved: inout [Double], at: (Int) -> Int
    ) -> (end: Double, travel: Double)? {
        let base = r &* nodeCount
        var time = depart[from]
        var travelled = moved[from]
        var location = from == 0 ? 0 : at(from - 1) &+ 1
        for q in from..<count {
            let v = at(q)
            let leg = t(location, v &+ 1)
            time += leg
            travelled += leg
            guard time <= close[base &+ v] + Self.eps else { return nil }
            time = max(time, open[base &+ v]) + service[v]
            location = v &+ 1
        }
        let leg = t(location, 0)
        time += leg
        guard time <= routeClose[r] + Self.eps else { return nil }
        return (time, travelled + leg)
    }

    /// First-improvement 2-opt and or-opt (runs of 1–3 moved elsewhere) on route `r` until
    /// none helps; `true` when the route changed. Candidates are simulated from the first
    /// changed position, reusing the unchanged prefix, without building the sequences.
    @discardableResult
    mutating func compact(_ r: Int) -> Bool {
        var route = routes[r]
        let n = route.count
        guard n >= 2 else { return false }
        var depart = [Double](repeating: 0, count: n + 1)
        var moved = [Double](repeating: 0, count: n + 1)
        let base = r * nodeCount
        func prefix() {
            depart[0] = routeOpen[r]
            var at = 0
            for q in 0..<n {
                let v = route[q]
                let leg = t(at, v + 1)
                moved[q + 1] = moved[q] + leg
                depart[q + 1] = max(depart[q] + leg, open[base + v]) + service[v]
                at = v + 1
            }
        }
        prefix()
        guard var current = simulate(r, from: 0, count: n, depart: &depart, moved: &moved, at: { route[$0] })
        else { return false }
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
            search: for i in 0..<n {
                for j in (i + 1)..<n {
                    let reversed = simulate(r, from: i, count: n, depart: &depart, moved: &moved) { q in
                        q >= i && q <= j ? route[i + j - q] : route[q]
                    }
                    if let value = reversed, better(value) {
                        route[i...j].reverse()
                        current = value
                        improved = true
                        break search
                    }
                }
                for length in 1...3 where i + length <= n {
                    for p in 0...(n - length) where p != i {
                        let value: (end: Double, travel: Double)?
                        if p < i {
                            value = simulate(r, from: p, count: n, depart: &depart, moved: &moved) { q in
                                q < p || q >= i + length
                                    ? route[q] : (q < p + length ? route[i + q - p] : route[q - length])
                            }
                        } else {
                            value = simulate(r, from: i, count: n, depart: &depart, moved: &moved) { q in
                                q < i || q >= p + length
                                    ? route[q] : (q < p ? route[q + length] : route[i + q - p])
                            }
                        }
                        if let value, better(value) {
                            let run = Array(route[i..<(i + length)])
                            route.removeSubrange(i..<(i + length))
                            route.insert(contentsOf: run, at: p)
                            current = value
                            improved = true
                            break search
                        }
                    }
                }
            }
            if improved { prefix() }
            changed = changed || improved
        }
        if changed {
            routes[r] = route
            refresh(r)
        }
        return changed
    }
}
