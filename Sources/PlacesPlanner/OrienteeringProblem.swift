/// A time window on the start of a visit: service may start from `open` (an earlier
/// arrival waits) and no later than `close` (the visit itself may end after `close`).
public struct TimeWindow: Sendable, Equatable {
    /// Earliest start of service.
    public var open: Double
    /// Latest start of service.
    public var close: Double

    /// Creates a window; ``OrienteeringProblem/init(routes:nodes:travel:budget:)`` checks it.
    public init(open: Double, close: Double) {
        self.open = open
        self.close = close
    }
}

/// A bad field in an ``OrienteeringProblem``: `field` names it (`"nodes[3].open"`),
/// `message` says what is wrong with it.
public struct OrienteeringError: Error, Equatable {
    /// The offending field, as a path into the problem (`"travel[7]"`, `"routes[0].close"`).
    public var field: String
    /// What is wrong and what is expected.
    public var message: String

    /// Creates an error naming `field`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// The team orienteering problem with time windows (TOPTW), generalised for trip planning.
///
/// `routes.count` routes (days) each leave the depot at their `open` and must be back by
/// their `close`. A route may visit a node if the node has a window on that route; it may
/// wait until the window opens, must start service by its `close`, and stays `service`
/// time units. Each node is visited at most once; the sum of visited nodes' `cost` must
/// not exceed `budget` when one is given. The aim is the largest sum of `score`.
public struct OrienteeringProblem: Sendable {
    /// One route (day): it leaves the depot at `open` and must be back by `close`.
    public struct Route: Sendable, Equatable {
        /// Departure time from the depot.
        public var open: Double
        /// Latest arrival back at the depot.
        public var close: Double

        /// Creates a route window.
        public init(open: Double, close: Double) {
            self.open = open
            self.close = close
        }
    }

    /// A place that may be visited.
    public struct Node: Sendable, Equatable {
        /// Time spent at the node once service starts.
        public var service: Double
        /// What visiting the node is worth (non-negative).
        public var score: Double
        /// Counted against ``OrienteeringProblem/budget`` (an entry price); 0 by default.
        public var cost: Double
        /// One element: the same window on every route. Or one element per route, `nil`
        /// where the node cannot be visited on that route (closed that day).
        public var windows: [TimeWindow?]

        /// Creates a node.
        public init(service: Double, score: Double, cost: Double = 0, windows: [TimeWindow?]) {
            self.service = service
            self.score = score
            self.cost = cost
            self.windows = windows
        }

        /// The node's window on `route`, `nil` when it is not available there.
        public func window(onRoute route: Int) -> TimeWindow? {
            windows.count == 1 ? windows[0] : (route < windows.count ? windows[route] : nil)
        }
    }

    /// The routes, in order; the solution has one visit list per route.
    public var routes: [Route]
    /// The nodes; solutions refer to them by their index here.
    public var nodes: [Node]
    /// `(nodes.count + 1)²` travel times, row-major: index 0 is the depot, node `i` is
    /// index `i + 1`. Need not be symmetric nor obey the triangle inequality.
    public var travel: [Double]
    /// Largest allowed sum of the visited nodes' `cost`; `nil` for no budget.
    public var budget: Double?

    /// Creates a problem after checking every number is finite and non-negative, every
    /// window has `open ≤ close`, and the sizes agree; the error names the first bad field.
    public init(routes: [Route], nodes: [Node], travel: [Double], budget: Double? = nil) throws(OrienteeringError) {
        try Self.validate(routes: routes, nodes: nodes, travel: travel, budget: budget)
        self.routes = routes
        self.nodes = nodes
        self.travel = travel
        self.budget = budget
    }

    /// Travel time from matrix index `from` to `to` (0 the depot, node `i` at `i + 1`).
    @inline(__always) public func time(_ from: Int, _ to: Int) -> Double {
        travel[from * (nodes.count + 1) + to]
    }

    private static func validate(
        routes: [Route], nodes: [Node], travel: [Double], budget: Double?
    ) throws(OrienteeringError) {
        // The field's name is only built on failure: `travel` may have millions of entries.
        func check(_ value: Double, _ field: @autoclosure () -> String) throws(OrienteeringError) {
            guard value.isFinite else { throw OrienteeringError(field: field(), message: "must be a finite number") }
            guard value >= 0 else { throw OrienteeringError(field: field(), message: "must not be negative") }
        }
        func window(_ open: Double, _ close: Double, _ field: @autoclosure () -> String) throws(OrienteeringError) {
            try check(open, field() + ".open")
            try check(close, field() + ".close")
            guard open <= close else {
                throw OrienteeringError(field: field() + ".open", message: "must not be after close (\(close))")
            }
        }
        guard !routes.isEmpty else { throw OrienteeringError(field: "routes", message: "needs at least one route") }
        for (r, route) in routes.enumerated() { try window(route.open, route.close, "routes[\(r)]") }
        for (i, node) in nodes.enumerated() {
            try check(node.service, "nodes[\(i)].service")
            try check(node.score, "nodes[\(i)].score")
            try check(node.cost, "nodes[\(i)].cost")
            guard node.windows.count == 1 || node.windows.count == routes.count else {
                throw OrienteeringError(
                    field: "nodes[\(i)].windows", message: "needs 1 window or one per route (\(routes.count))")
            }
            for (r, w) in node.windows.enumerated() {
                guard let w else { continue }
                let shared = node.windows.count == 1
                try window(w.open, w.close, shared ? "nodes[\(i)]" : "nodes[\(i)].windows[\(r)]")
            }
        }
        let size = nodes.count + 1
        guard travel.count == size * size else {
            throw OrienteeringError(
                field: "travel", message: "needs \(size)×\(size) = \(size * size) entries, has \(travel.count)")
        }
        for (k, t) in travel.enumerated() { try check(t, "travel[\(k / size)][\(k % size)]") }
        if let budget { try check(budget, "budget") }
    }
}
