import Foundation
import PlacesAPI
import PlacesControl
import PlacesPlanner

/// `POST /v1/plans/solve`: the orienteering solver alone (stateless), on a problem stated
/// as the literature states it (team orienteering with time windows).
enum PlanSolveService {
    /// Most nodes a request may have with coordinates.
    static let maxNodes = 2_000
    /// Most nodes a request may have with a `travel` matrix ((n+1)² numbers in the body).
    static let maxMatrixNodes = 500
    /// Most routes.
    static let maxRoutes = 10
    /// Largest coordinate magnitude, and largest time, score or travel time: keeps every
    /// sum the solver makes (and so every number in the answer) finite.
    static let maxCoordinate = 1e12
    static let maxValue = 1e12

    /// A node's id, echoed back as given: a JSON integer or a string.
    enum NodeID: Codable, Hashable, Sendable {
        case number(Int)
        case text(String)

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                throw DecodingError.typeMismatch(
                    NodeID.self,
                    .init(codingPath: decoder.codingPath, debugDescription: "an id is a JSON integer or a string"))
            }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            }
        }
    }

    struct Depot: Decodable {
        var x: Double?
        var y: Double?
        var open: Double
        var close: Double
    }

    struct Node: Decodable {
        var id: NodeID
        var x: Double?
        var y: Double?
        var service: Double?
        var score: Double
        var open: Double?
        var close: Double?
    }

    struct Request: Decodable {
        var routes: Int?
        var depot: Depot
        var nodes: [Node]
        var travel: [[Double]]?
        var timeBudgetMs: Int?
    }

    struct Response: Encodable {
        var score: Double
        var routes: [[NodeID]]
        var starts: [[Double]]
    }

    static func solve(_ body: [UInt8]) throws -> ControlResponse {
        let request = try ControlRequest(method: "POST", path: "", body: body).decode(Request.self)
        let (problem, budgetMs) = try problem(request)
        let solution = OrienteeringSolver.solve(problem, options: .init(timeBudget: .milliseconds(budgetMs)))
        return .encoding(
            Response(
                score: solution.score, routes: solution.routes.map { $0.map { request.nodes[$0].id } },
                starts: solution.starts))
    }

    /// The solver's problem for a request, or a 400 naming the first bad field.
    static func problem(_ request: Request) throws -> (OrienteeringProblem, Int) {
        let budgetMs = request.timeBudgetMs ?? 1_000
        guard (1...RouteService.maxTimeBudgetMs).contains(budgetMs) else {
            throw ServiceError.invalid(
                "timeBudgetMs", "'timeBudgetMs' must be from 1 to \(RouteService.maxTimeBudgetMs)")
        }
        let routeCount = request.routes ?? 1
        guard (1...maxRoutes).contains(routeCount) else {
            throw ServiceError.invalid("routes", "'routes' must be from 1 to \(maxRoutes)")
        }
        let nodes = request.nodes
        let limit = request.travel == nil ? maxNodes : maxMatrixNodes
        guard nodes.count <= limit else {
            throw ServiceError.invalid(
                "nodes",
                "at most \(limit) nodes \(request.travel == nil ? "with coordinates" : "with a travel matrix"), "
                    + "got \(nodes.count)")
        }
        var seen = Set<NodeID>()
        for (i, node) in nodes.enumerated() where !seen.insert(node.id).inserted {
            throw ServiceError.invalid("nodes[\(i)].id", "the id of nodes[\(i)] is used by an earlier node")
        }
        try checkMagnitudes(request)
        let travel = try request.travel.map { try matrix($0, size: nodes.count + 1) } ?? euclidean(request)
        let window = TimeWindow(open: request.depot.open, close: request.depot.close)
        let problemNodes = nodes.map { node in
            OrienteeringProblem.Node(
                service: node.service ?? 0, score: node.score,
                windows: [TimeWindow(open: node.open ?? window.open, close: node.close ?? window.close)])
        }
        let routes = Array(
            repeating: OrienteeringProblem.Route(open: window.open, close: window.close), count: routeCount)
        do throws(OrienteeringError) {
            let problem = try OrienteeringProblem(routes: routes, nodes: problemNodes, travel: travel)
            return (problem, budgetMs)
        } catch {
            // The routes are all the depot's window; the rest is named as in the request.
            let field = error.field.hasPrefix("routes[0]") ? "depot" + error.field.dropFirst(9) : error.field
            throw ServiceError.invalid(field, "'\(field)' \(error.message)")
        }
    }

    /// Refuses numbers over ``maxValue`` (the solver's own checks catch negative and
    /// non-finite ones, naming the same fields).
    static func checkMagnitudes(_ request: Request) throws {
        func check(_ value: Double?, _ field: @autoclosure () -> String) throws {
            guard let value, value > maxValue else { return }
            throw ServiceError.invalid(field(), "'\(field())' must be at most 1e12")
        }
        try check(request.depot.open, "depot.open")
        try check(request.depot.close, "depot.close")
        for (i, node) in request.nodes.enumerated() {
            try check(node.service, "nodes[\(i)].service")
            try check(node.score, "nodes[\(i)].score")
            try check(node.open, "nodes[\(i)].open")
            try check(node.close, "nodes[\(i)].close")
        }
        for (i, row) in (request.travel ?? []).enumerated() {
            for (j, value) in row.enumerated() { try check(value, "travel[\(i)][\(j)]") }
        }
    }

    /// The flattened travel matrix, after checking it is `size`×`size`.
    static func matrix(_ rows: [[Double]], size: Int) throws -> [Double] {
        guard rows.count == size else {
            throw ServiceError.invalid(
                "travel", "'travel' must be square with \(size) rows (the depot, then each node), got \(rows.count)")
        }
        for (i, row) in rows.enumerated() where row.count != size {
            throw ServiceError.invalid("travel[\(i)]", "'travel[\(i)]' must have \(size) entries, got \(row.count)")
        }
        return rows.flatMap { $0 }
    }

    /// Euclidean travel times (double precision, no rounding) from the coordinates.
    static func euclidean(_ request: Request) throws -> [Double] {
        func coordinate(_ value: Double?, _ field: String) throws -> Double {
            guard let value else {
                throw ServiceError.invalid(field, "'\(field)' is required when no 'travel' matrix is given")
            }
            guard value.isFinite, abs(value) <= maxCoordinate else {
                throw ServiceError.invalid(field, "'\(field)' must be a finite number of at most 1e12 in magnitude")
            }
            return value
        }
        var x = [try coordinate(request.depot.x, "depot.x")]
        var y = [try coordinate(request.depot.y, "depot.y")]
        for (i, node) in request.nodes.enumerated() {
            x.append(try coordinate(node.x, "nodes[\(i)].x"))
            y.append(try coordinate(node.y, "nodes[\(i)].y"))
        }
        let size = x.count
        var travel = [Double](repeating: 0, count: size * size)
        for i in 0..<size {
            for j in 0..<size where i != j {
                let dx = x[i] - x[j]
                let dy = y[i] - y[j]
                travel[i * size + j] = (dx * dx + dy * dy).squareRoot()
            }
        }
        return travel
    }
}
