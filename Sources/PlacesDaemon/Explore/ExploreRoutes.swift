import PlacesAPI
import PlacesControl
import PlacesModel

/// The control API's routes of published trips (issue 17): publishing, explore, likes, saves
/// and the read-only day views and routes of a published trip, kept out of `Router`'s table.
/// Every route is listed in `Protocol/control-api.yaml`.
enum ExploreRoutes {
    /// `path` is the request's path after `/v1`; nil when the route is not one of these.
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse? {
        switch (r.method, path.count, path[0]) {
        case ("POST", 3, "itineraries") where path[2] == "publish":
            return .encoding(try await engine.publish(path[1], try Router.object(r)))
        case ("DELETE", 3, "itineraries") where path[2] == "publish":
            try await engine.unpublish(path[1])
            return .json(status: 204, body: [])
        case ("GET", 1, "explore"): return .encoding(try await engine.exploreList(query: r.query))
        case ("GET", 2, "explore"): return .encoding(try await engine.exploreTrip(path[1]))
        case ("PUT", 3, "explore") where path[2] == "like":
            return .encoding(try await engine.likeTrip(path[1], liked: true))
        case ("DELETE", 3, "explore") where path[2] == "like":
            return .encoding(try await engine.likeTrip(path[1], liked: false))
        case ("PUT", 3, "explore") where path[2] == "save":
            return .encoding(try await engine.saveTrip(path[1], saved: true))
        case ("DELETE", 3, "explore") where path[2] == "save":
            return .encoding(try await engine.saveTrip(path[1], saved: false))
        case ("GET", 1, "saved"): return .encoding(try await engine.savedTrips())
        case ("GET", 3, "explore") where path[2] == "days", ("GET", 4, "explore") where path[2] == "days",
            ("GET", 3, "explore") where path[2] == "route":
            // The itinerary's own read views, on the published copy.
            let id = (try await engine.visibleTrip(path[1])).doc.hex
            return try await TripReading.$published.withValue(true) {
                switch (path.count, path[2]) {
                case (3, "days"): return .json(status: 200, body: try await engine.days(id))
                case (4, _): return .encoding(try await engine.day(id, day: path[3]))
                default: return try await RouteService.route(engine, id, query: r.query)
                }
            }
        default: return nil
        }
    }
}
