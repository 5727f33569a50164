import PlacesAPI
import PlacesModel

/// The engine's side of discover (`DiscoverComponent`): the component's context, and the
/// login checks of its routes.
extension Engine {
    /// What discover reads of the rest of the daemon.
    var discoverContext: DiscoverComponent.Context {
        DiscoverComponent.Context(
            store: store, logger: logger, me: me, heldCards: { self.heldCards() },
            library: { try self.libraryService() })
    }

    /// The gazetteer and its index, loaded on first use.
    func catalog() throws -> DiscoverCatalog { try discoverComponent.catalog(discoverContext) }

    /// `GET /v1/preferences`.
    func preferences() throws -> Preferences { discoverComponent.preferences(discoverContext) }

    /// `PUT /v1/preferences`.
    func setPreferences(_ body: [String: JSONValue]) throws -> Preferences {
        try discoverComponent.setPreferences(body, discoverContext)
    }

    /// `GET /v1/discover`.
    func discover(_ query: [String: String]) throws -> DiscoverResults {
        try requireLogin()
        return try discoverComponent.search(query, discoverContext)
    }

    /// `GET /v1/discover/{id}`.
    func discoverResult(_ id: String) throws -> DiscoverResult {
        try requireLogin()
        return try discoverComponent.result(id, discoverContext)
    }

    /// A place request's `gazetteerId` checked, and what it leaves out filled from it.
    func filledFromGazetteer(_ body: [String: JSONValue]) throws -> [String: JSONValue] {
        try discoverComponent.filledFromGazetteer(body, discoverContext)
    }
}
