import Foundation
import Logging
import PlacesAPI
import PlacesCrypto
import PlacesGazetteer
import PlacesModel
import PlacesStore

/// Discover (issue 15): search the gazetteer, this person's places and contacts' shared
/// favorites in one ranked list, with popularity among the people this daemon knows; the
/// kept sort preference; places made from results.
///
/// A component of the engine (docs/devices-design.md §1): it owns the gazetteer once loaded
/// and popularity's inputs for one store generation, and reads what other features hold
/// only through the store and the queries its `Context` passes in.
struct DiscoverComponent: EngineComponent {
    static let sortPreference = "discover.sort"

    /// What discover reads of the rest of the daemon.
    struct Context {
        let store: Store
        let logger: Logger
        /// The logged-in identity; nil while logged out.
        let me: PublicKey?
        /// Contact cards held, by their owner (the cards feature's query).
        let heldCards: () -> [PublicKey: Store.DocumentRecord]
        /// This person's places and favorites (the library feature's service).
        let library: () throws -> LibraryService
    }

    /// What popularity reads, with the store generation it was read at.
    struct State {
        var generation: UInt64
        var people: DiscoverPeople
        var popularity: DiscoverPopularity
    }

    /// The gazetteer and its index once a search loaded them.
    private var loaded: DiscoverCatalog?
    /// Popularity's inputs, valid for one store generation.
    private var state: State?

    /// The gazetteer and its index, loaded on first use.
    mutating func catalog(_ context: Context) throws -> DiscoverCatalog {
        if let loaded { return loaded }
        let started = ContinuousClock.now
        let gazetteer: Gazetteer
        do { gazetteer = try Gazetteer.bundled() } catch {
            context.logger.error("the gazetteer could not be loaded", metadata: ["error": "\(error)"])
            throw ServiceError(
                .failure("gazetteer-unavailable", title: "Gazetteer unavailable"),
                "the place names could not be loaded: \(error)")
        }
        let catalog = DiscoverCatalog(gazetteer: gazetteer)
        loaded = catalog
        context.logger.info(
            "gazetteer loaded",
            metadata: [
                "entries": "\(gazetteer.count)", "ms": "\(Engine.milliseconds(ContinuousClock.now - started))",
            ])
        return catalog
    }

    // MARK: Preferences

    /// `GET /v1/preferences`.
    func preferences(_ context: Context) -> Preferences {
        Preferences(discoverSort: DiscoverRequest.name(sort(context)))
    }

    /// `PUT /v1/preferences`'s `discoverSort`, checked: `descending`, `ascending` or `off`;
    /// nil when the body does not name it.
    func checkedSort(_ body: [String: JSONValue]) throws -> String? {
        guard let value = body["discoverSort"] else { return nil }
        guard let raw = value.stringValue, ["descending", "ascending", "off"].contains(raw) else {
            throw ServiceError.invalid(
                "discoverSort", "'discoverSort' must be \"descending\", \"ascending\" or \"off\"")
        }
        return raw
    }

    /// Keeps the sort (`checkedSort`'s value).
    func setSort(_ raw: String, _ context: Context) throws {
        try ServiceError.storing { () throws(StoreError) in try context.store.setPreference(Self.sortPreference, raw) }
    }

    /// The kept sort (off when never set).
    func sort(_ context: Context) -> PopularitySort {
        guard let raw = try? context.store.preference(Self.sortPreference),
            let sort = try? DiscoverRequest.sort(raw, field: "discoverSort")
        else { return .off }
        return sort
    }

    // MARK: Search

    /// `GET /v1/discover`.
    mutating func search(_ query: [String: String], _ context: Context) throws -> DiscoverResults {
        let request = try DiscoverRequest(query)
        let sort = request.sort ?? sort(context)
        let catalog = try catalog(context)
        let state = try popularity(catalog, context)
        var search = DiscoverQuery(text: request.text, limit: request.limit, sort: sort)
        search.kinds = request.kinds
        search.near = request.near
        let hits = catalog.index.search(search, candidates: state.people.candidates, popular: state.popularity.counts)
        return DiscoverResults(
            results: hits.compactMap { Self.result($0, catalog: catalog, state: state) },
            sort: DiscoverRequest.name(sort))
    }

    /// `GET /v1/discover/{id}`.
    mutating func result(_ id: String, _ context: Context) throws -> DiscoverResult {
        let catalog = try catalog(context)
        let state = try popularity(catalog, context)
        if let index = catalog.gazetteer.index(ofID: id) {
            return Self.gazetteerResult(index, catalog: catalog, state: state)
        }
        if let i = state.people.candidates.firstIndex(where: { $0.id == id }) {
            return Self.candidateResult(i, catalog: catalog, state: state)
        }
        throw ServiceError.notFound("no discover result has the id '\(id.prefix(120))'")
    }

    /// Popularity's inputs and results, read again when the store has changed.
    mutating func popularity(_ catalog: DiscoverCatalog, _ context: Context) throws -> State {
        let generation = context.store.generations.current
        if let state, state.generation == generation { return state }
        let people = try Self.readPeople(context)
        let fresh = State(
            generation: generation, people: people, popularity: DiscoverPopularity(people: people, catalog: catalog))
        state = fresh
        return fresh
    }

    // MARK: Places from results

    /// A place request's `gazetteerId` checked against this build's gazetteer, and the name
    /// and coordinates it leaves out filled from it.
    mutating func filledFromGazetteer(_ body: [String: JSONValue], _ context: Context) throws -> [String: JSONValue] {
        guard let raw = body["gazetteerId"], !raw.isNull else { return body }
        guard let id = raw.stringValue, FieldRule.isGazetteerID(id) else {
            throw ServiceError.invalid(
                "gazetteerId", "'gazetteerId' must be a discover result id such as city:2267057 or country:PT")
        }
        let catalog = try catalog(context)
        guard let i = catalog.gazetteer.index(ofID: id) else {
            throw ServiceError(
                .unknownGazetteerID, "no place of the gazetteer has the id '\(id)'", field: "gazetteerId")
        }
        var out = body
        let g = catalog.gazetteer
        if out["name"] == nil || out["name"]?.isNull == true { out["name"] = .string(g.name(i)) }
        if (out["latitude"] ?? .null).isNull && (out["longitude"] ?? .null).isNull {
            out["latitude"] = .number(g.latitude(i))
            out["longitude"] = .number(g.longitude(i))
        }
        return out
    }
}
