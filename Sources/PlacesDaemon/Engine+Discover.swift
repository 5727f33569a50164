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

    /// `GET /v1/preferences`: every preference, a null one included.
    func preferences() throws -> JSONValue {
        .object([
            "discoverSort": .string(discoverComponent.preferences(discoverContext).discoverSort),
            "weatherSource": weatherSource().map { .string($0.url) } ?? .null,
        ])
    }

    /// `PUT /v1/preferences`: the preferences the body names, and only those, each checked
    /// before any is kept (a bad one changes nothing).
    func setPreferences(_ body: [String: JSONValue]) throws -> JSONValue {
        if let unknown = body.keys.sorted().first(where: { !["discoverSort", "weatherSource"].contains($0) }) {
            throw ServiceError.invalid(
                unknown, "unknown preference '\(unknown.prefix(40))': the ones kept are discoverSort and weatherSource")
        }
        guard !body.isEmpty else {
            throw ServiceError.invalid("discoverSort", "name the preferences to change: discoverSort, weatherSource")
        }
        let sort = try discoverComponent.checkedSort(body)
        let weather = try checkedWeatherSource(body)
        if let sort { try discoverComponent.setSort(sort, discoverContext) }
        if let weather { try setWeatherSource(weather) }
        return try preferences()
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
