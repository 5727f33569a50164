import PlacesAPI
import PlacesControl

/// The control API of `placesd --relay` (`Protocol/control-api.yaml`, "Relay"): status and
/// the relay's own routes. Every route of a person's daemon answers 409 `relay-role`: a relay
/// holds no identity and no content; anything else is 404.
struct RelayRouter: ControlHandler {
    let relay: RelayEngine

    /// The first path segments of a person's daemon's routes.
    static let personSections: Set<String> = [
        "init", "login", "logout", "profile", "events", "places", "favorites", "itineraries", "contacts", "peers",
        "links", "invitations", "templates", "route", "routes", "explore", "saved", "discover", "friends", "feed",
        "posts", "outbox", "notifications", "groups", "cards", "consent", "devices", "relays", "photos", "blobs",
        "maintenance", "activity", "expenses", "preferences", "published", "requests",
    ]

    func handle(_ request: ControlRequest) async -> ControlResponse {
        do {
            return try await route(request)
        } catch {
            return .problem(Problem.from(error))
        }
    }

    private func route(_ r: ControlRequest) async throws -> ControlResponse {
        let s = r.segments.map(String.init)
        guard s.first == "v1" else { throw ServiceError.notFound("unknown path \(r.path): the API lives under /v1/") }
        let path = Array(s.dropFirst())
        switch (r.method, path) {
        case ("GET", ["status"]): return .encoding(await relay.status())
        case ("POST", ["relay", "invitations"]): return .encoding(try await relay.invite(), status: 201)
        case ("GET", ["relay"]): return .encoding(try await relay.summary())
        default:
            if let section = path.first, Self.personSections.contains(section) {
                throw ServiceError.conflict(
                    "relay-role",
                    "this daemon is a blind relay (placesd --relay): it keeps documents it cannot read and has no "
                        + "identity, places or itineraries; use a person's daemon for /v1/\(section)")
            }
            throw ServiceError(.noRoute, "no route \(r.method) \(r.path) on a relay")
        }
    }
}
