import Foundation
import PlacesAPI
import PlacesControl

/// The control API's routes of destinations (issue 33). Every route is listed in
/// `Protocol/control-api.yaml`.
enum DestinationRoutes {
    /// The first path segments these routes answer.
    static let sections: Set<String> = ["destinations", "here", "dashboard", "visited"]

    /// `path` is the request's path after `/v1`; nil when the route is not one of these.
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse? {
        // A segment may come percent-encoded (`city%3A2267057`, `New%20York`).
        let segment = path.count > 1 ? (path[1].removingPercentEncoding ?? path[1]) : ""
        switch (r.method, path.count, path[0]) {
        case ("POST", 1, "destinations"):
            return .encoding(try await engine.addDestination(try Router.object(r)), status: 201)
        case ("GET", 1, "destinations"): return .encoding(try await engine.destinationList())
        case ("DELETE", 2, "destinations"):
            try await engine.removeDestination(segment)
            return .json(status: 204, body: [])
        case ("PUT", 1, "here"): return .encoding(try await engine.setHere(try Router.object(r)))
        case ("GET", 1, "dashboard"): return .written(try await engine.dashboard())
        case ("GET", 2, "dashboard"): return .written(try await engine.dashboardCard(segment))
        case ("GET", 1, "visited"): return .encoding(try await engine.visitedList())
        case ("POST", 1, "visited"):
            let body = try Router.object(r)
            guard let id = body["placeId"]?.stringValue, body.count == 1 else {
                throw ServiceError.invalid("placeId", "give {\"placeId\": ID} of a place of yours or a friend's")
            }
            return .encoding(try await engine.setVisited(id, true))
        case ("DELETE", 2, "visited"): return .encoding(try await engine.setVisited(segment, false))
        default: return nil
        }
    }
}
