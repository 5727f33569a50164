import PlacesAPI
import PlacesControl

/// The control API's routes of discover and its kept preference (issue 15). Every route is
/// listed in `Protocol/control-api.yaml`.
enum DiscoverRoutes {
    /// The first path segments these routes answer.
    static let sections: Set<String> = ["discover", "preferences"]

    /// `path` is the request's path after `/v1`; nil when the route is not one of these.
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse? {
        switch (r.method, path.count, path[0]) {
        case ("GET", 1, "discover"): return .encoding(try await engine.discover(r.query))
        case ("GET", 2, "discover"): return .encoding(try await engine.discoverResult(path[1]))
        case ("GET", 1, "preferences"): return .encoding(try await engine.preferences())
        case ("PUT", 1, "preferences"): return .encoding(try await engine.setPreferences(try Router.object(r)))
        default: return nil
        }
    }
}
