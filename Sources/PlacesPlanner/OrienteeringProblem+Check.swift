extension OrienteeringProblem {
    /// Tolerance of every time and budget comparison, in the solver and in ``check(_:)``.
    public static let epsilon = 1e-7

    /// An independent feasibility check of `routes` (node indices per route, in visit
    /// order): `nil` when feasible, else the first reason it is not. Deliberately plain:
    /// it simulates each route from the depot, so it can judge the solver.
    public func check(_ routes: [[Int]]) -> String? {
        let eps = Self.epsilon
        guard routes.count <= self.routes.count else {
            return "\(routes.count) routes, the problem has \(self.routes.count)"
        }
        var seen = [Bool](repeating: false, count: nodes.count)
        var cost = 0.0
        for (r, visits) in routes.enumerated() {
            var time = self.routes[r].open
            var at = 0
            for node in visits {
                guard node >= 0, node < nodes.count else { return "route \(r): no node \(node)" }
                guard !seen[node] else { return "node \(node) visited twice" }
                seen[node] = true
                guard let window = nodes[node].window(onRoute: r) else {
                    return "route \(r): node \(node) is not available on this route"
                }
                time += self.time(at, node + 1)
                guard time <= window.close + eps else {
                    return "route \(r): node \(node) reached at \(time), after its close \(window.close)"
                }
                time = max(time, window.open) + nodes[node].service
                at = node + 1
                cost += nodes[node].cost
            }
            time += self.time(at, 0)
            guard time <= self.routes[r].close + eps else {
                return "route \(r): back at the depot at \(time), after its close \(self.routes[r].close)"
            }
        }
        if let budget, cost > budget + eps { return "cost \(cost) is over the budget \(budget)" }
        return nil
    }
}
