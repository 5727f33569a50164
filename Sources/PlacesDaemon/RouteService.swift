import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesRoutes

/// The routes part of the control API: planning through an itinerary's places to go, and
/// the stateless solver.
enum RouteService {
    /// Largest time budget a client may ask the solver for.
    static let maxTimeBudgetMs = 10_000

    /// `POST /v1/routes/solve` body.
    struct SolveRequest: Decodable {
        var points: [GeoPoint]?
        var matrix: [[Double]]?
        var mode: TravelMode?
        var by: RouteCriterion?
        var roundTrip: Bool?
        var start: Int?
        var end: Int?
        var timeBudgetMs: Int?
    }

    struct SolveLeg: Encodable {
        var from: Int
        var to: Int
        var cost: Double
        var distanceMeters: Double?
        var durationSeconds: Double?
    }

    struct SolveResponse: Encodable {
        var order: [Int]
        var cost: Double
        var optimal: Bool
        var legs: [SolveLeg]
        var mode: TravelMode?
        var by: RouteCriterion?
    }

    static func solve(_ body: [UInt8]) throws -> ControlResponse {
        let request = try ControlRequest(method: "POST", path: "", body: body).decode(SolveRequest.self)
        let budgetMs = request.timeBudgetMs ?? 1_000
        guard (1...maxTimeBudgetMs).contains(budgetMs) else {
            throw ServiceError.invalid("timeBudgetMs", "'timeBudgetMs' must be from 1 to \(maxTimeBudgetMs)")
        }
        let roundTrip = request.roundTrip ?? false
        let options = SolveOptions(
            roundTrip: roundTrip, start: request.start, end: request.end, timeBudget: .milliseconds(budgetMs))
        guard (request.points == nil) != (request.matrix == nil) else {
            throw ServiceError.invalid(
                "points", "give either 'points' (with mode and by) or 'matrix', not both and not neither")
        }
        do throws(RouteError) {
            switch (request.points, request.matrix) {
            case (let points?, nil):
                let mode = request.mode ?? .walking
                let by = request.by ?? .duration
                for (i, p) in points.enumerated() { try p.validate(label: "points[\(i)]") }
                let matrices = try GreatCircleMatrixProvider().travelMatrices(for: points, mode: mode)
                let solution = try RouteSolver.solve(matrices.matrix(for: by), options: options)
                let legs = pairs(solution.order, roundTrip: roundTrip).map { a, b in
                    SolveLeg(
                        from: a, to: b, cost: matrices.matrix(for: by).values[a * points.count + b],
                        distanceMeters: matrices.distanceMeters.values[a * points.count + b],
                        durationSeconds: matrices.durationSeconds.values[a * points.count + b])
                }
                return .encoding(
                    SolveResponse(
                        order: solution.order, cost: solution.cost, optimal: solution.optimal, legs: legs, mode: mode,
                        by: by))
            case (nil, let rows?):
                let matrix = try CostMatrix(rows)
                let solution = try RouteSolver.solve(matrix, options: options)
                let legs = pairs(solution.order, roundTrip: roundTrip).map { a, b in
                    SolveLeg(from: a, to: b, cost: matrix.values[a * matrix.count + b])
                }
                return .encoding(
                    SolveResponse(order: solution.order, cost: solution.cost, optimal: solution.optimal, legs: legs))
            default:
                return .problem(Problem(ServiceError.invalid("points", "give either 'points' or 'matrix'")))
            }
        } catch {
            throw ServiceError.route(error)
        }
    }

    static func pairs(_ order: [Int], roundTrip: Bool) -> [(Int, Int)] {
        guard order.count > 1 else { return [] }
        var out = zip(order, order.dropFirst()).map { ($0, $1) }
        if roundTrip { out.append((order.last!, order.first!)) }
        return out
    }
}

extension Engine {
    /// What to solve for the route through an itinerary's places to go: read on the engine,
    /// solved by the caller off the engine (`RouteService.plan`), so that a long solve
    /// never holds up sync or other requests.
    struct RouteQuery: Sendable {
        var doc: DocumentID
        var request: RoutePlanRequest
        var name: String
        /// The places to go the request was built from, to check nothing changed before a
        /// solved order is applied.
        var stopIDs: [String]
    }

    func routeQuery(_ reference: String, query: [String: String]) throws -> RouteQuery {
        let doc = try itineraryDoc(reference)
        let it = try itinerary(doc.id.hex)
        guard let mode = TravelMode(rawValue: query["mode"] ?? it.travelMode ?? "walking") else {
            throw ServiceError.invalid("mode", "mode must be walking, cycling or driving")
        }
        guard let by = RouteCriterion(rawValue: query["by"] ?? "duration") else {
            throw ServiceError.invalid("by", "by must be duration or distance")
        }
        let roundTrip: Bool
        switch query["roundTrip"] ?? "false" {
        case "true", "1", "yes": roundTrip = true
        case "false", "0", "no": roundTrip = false
        default: throw ServiceError.invalid("roundTrip", "roundTrip must be true or false")
        }
        func stopID(_ key: String) throws -> String? {
            guard let ref = query[key], !ref.isEmpty else { return nil }
            return try lookup.resolve(ref, in: doc.id, kind: .stop, alsoBy: "placeId", what: "place to go").id
        }
        let request = RoutePlanRequest(
            places: it.places.map {
                RoutePlace(id: $0.id, name: $0.name, latitude: $0.latitude, longitude: $0.longitude)
            },
            mode: mode, criterion: by, roundTrip: roundTrip, startID: try stopID("start"), endID: try stopID("end"))
        return RouteQuery(doc: doc.id, request: request, name: it.name, stopIDs: it.places.map(\.id))
    }

    /// Applies a solved order (`POST …/route/apply`) if the itinerary still has exactly the
    /// places to go it was solved for; nil when they changed meanwhile (the caller solves
    /// again).
    func applyRoute(_ query: RouteQuery, order: [String]) throws -> Itinerary? {
        if let record = try? store.document(query.doc) { try requireEditor(record) }
        guard try itinerary(query.doc.hex).places.map(\.id) == query.stopIDs else { return nil }
        try reorderStops(query.doc, order: order)
        return try itinerary(query.doc.hex)
    }
}

extension RouteService {
    /// Solves a route query; runs on the caller's task, not on the engine.
    static func plan(_ query: Engine.RouteQuery) throws -> RoutePlan {
        do throws(RouteError) {
            return try RoutePlanner.plan(query.request)
        } catch {
            throw ServiceError.route(error)
        }
    }

    /// `GET /v1/itineraries/{id}/route` in the format asked for.
    static func route(_ engine: Engine, _ reference: String, query: [String: String]) async throws -> ControlResponse {
        if let day = query["day"], !day.isEmpty {
            return try await DayRouteService.route(engine, reference, day: day, query: query)
        }
        let routeQuery = try await engine.routeQuery(reference, query: query)
        let plan = try plan(routeQuery)
        let name = routeQuery.name
        switch query["format"] ?? "json" {
        case "json": return .encoding(plan)
        case "geojson": return .raw(status: 200, contentType: "application/geo+json", body: Array(plan.geoJSON().utf8))
        case "gpx": return .raw(status: 200, contentType: "application/gpx+xml", body: Array(plan.gpx(name: name).utf8))
        case "gmaps": return .encoding(plan.googleMapsDirections())
        case "svg": return .raw(status: 200, contentType: "image/svg+xml", body: Array(plan.svg(title: name).utf8))
        case let other:
            throw ServiceError.invalid("format", "format '\(other)' is not one of json, geojson, gpx, gmaps, svg")
        }
    }

    /// `POST /v1/itineraries/{id}/route/apply`: solves off the engine, then applies the order
    /// if the places to go are still those it was solved for (else solves again, at most
    /// three times, then answers 409).
    static func apply(_ engine: Engine, _ reference: String, query: [String: String]) async throws -> Itinerary {
        for _ in 0..<3 {
            let routeQuery = try await engine.routeQuery(reference, query: query)
            let plan = try plan(routeQuery)
            if let itinerary = try await engine.applyRoute(routeQuery, order: plan.stops.map(\.place.id)) {
                return itinerary
            }
        }
        throw ServiceError.conflict(
            "changed-meanwhile", "the itinerary's places to go kept changing while the route was solved; try again")
    }
}
