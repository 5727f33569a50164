import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesGazetteer
import PlacesModel
import PlacesStore

/// Discover (issue 15): search the gazetteer, this person's places and contacts' shared
/// favorites in one ranked list, with popularity among the people this daemon knows; the
/// kept sort preference; places made from results.
extension Engine {
    static let sortPreference = "discover.sort"

    /// What popularity reads, with the store generation it was read at.
    struct DiscoverState {
        var generation: UInt64
        var people: DiscoverPeople
        var popularity: DiscoverPopularity
    }

    /// The gazetteer and its index, loaded on first use.
    func catalog() throws -> DiscoverCatalog {
        if let discoverCatalog { return discoverCatalog }
        let started = ContinuousClock.now
        let gazetteer: Gazetteer
        do { gazetteer = try Gazetteer.bundled() } catch {
            logger.error("the gazetteer could not be loaded", metadata: ["error": "\(error)"])
            throw ServiceError(
                .failure("gazetteer-unavailable", title: "Gazetteer unavailable"),
                "the place names could not be loaded: \(error)")
        }
        let loaded = DiscoverCatalog(gazetteer: gazetteer)
        discoverCatalog = loaded
        logger.info(
            "gazetteer loaded",
            metadata: [
                "entries": "\(gazetteer.count)", "ms": "\(Engine.milliseconds(ContinuousClock.now - started))",
            ])
        return loaded
    }

    // MARK: Preferences

    /// `GET /v1/preferences`.
    func preferences() throws -> Preferences {
        Preferences(discoverSort: DiscoverRequest.name(discoverSort()))
    }

    /// `PUT /v1/preferences`: `discoverSort` is `descending`, `ascending` or `off`.
    func setPreferences(_ body: [String: JSONValue]) throws -> Preferences {
        if let unknown = body.keys.sorted().first(where: { $0 != "discoverSort" }) {
            throw ServiceError.invalid(
                unknown, "unknown preference '\(unknown.prefix(40))': the one kept is discoverSort")
        }
        guard let raw = body["discoverSort"]?.stringValue, ["descending", "ascending", "off"].contains(raw) else {
            throw ServiceError.invalid(
                "discoverSort", "'discoverSort' must be \"descending\", \"ascending\" or \"off\"")
        }
        try storeCall { () throws(StoreError) in try store.setPreference(Self.sortPreference, raw) }
        return try preferences()
    }

    /// The kept sort (off when never set).
    func discoverSort() -> PopularitySort {
        guard let raw = try? store.preference(Self.sortPreference),
            let sort = try? DiscoverRequest.sort(raw, field: "discoverSort")
        else { return .off }
        return sort
    }

    // MARK: Search

    /// `GET /v1/discover`.
    func discover(_ query: [String: String]) throws -> DiscoverResults {
        try requireLogin()
        let request = try DiscoverRequest(query)
        let sort = request.sort ?? discoverSort()
        let catalog = try catalog()
        let state = try discoverState(catalog)
        var search = DiscoverQuery(text: request.text, limit: request.limit, sort: sort)
        search.kinds = request.kinds
        search.near = request.near
        let hits = catalog.index.search(search, candidates: state.people.candidates, popular: state.popularity.counts)
        return DiscoverResults(
            results: hits.compactMap { result($0, catalog: catalog, state: state) }, sort: DiscoverRequest.name(sort))
    }

    /// `GET /v1/discover/{id}`.
    func discoverResult(_ id: String) throws -> DiscoverResult {
        try requireLogin()
        let catalog = try catalog()
        let state = try discoverState(catalog)
        if let index = catalog.gazetteer.index(ofID: id) {
            return gazetteerResult(index, catalog: catalog, state: state)
        }
        if let i = state.people.candidates.firstIndex(where: { $0.id == id }) {
            return candidateResult(i, catalog: catalog, state: state)
        }
        throw ServiceError.notFound("no discover result has the id '\(id.prefix(120))'")
    }

    private func result(_ hit: DiscoverHit, catalog: DiscoverCatalog, state: DiscoverState) -> DiscoverResult? {
        if let i = hit.gazetteerIndex { return gazetteerResult(i, catalog: catalog, state: state) }
        if let i = hit.candidateIndex, state.people.candidates.indices.contains(i) {
            return candidateResult(i, catalog: catalog, state: state)
        }
        return nil
    }

    private func gazetteerResult(_ i: Int, catalog: DiscoverCatalog, state: DiscoverState) -> DiscoverResult {
        let g = catalog.gazetteer
        let id = g.id(i)
        let at = catalog.whereabouts(i)
        return DiscoverResult(
            id: id, kind: g.kind(i).rawValue, name: g.name(i), region: at.region, country: at.country,
            countryCode: at.countryCode, continent: at.continent, latitude: g.latitude(i), longitude: g.longitude(i),
            population: g.population(i), popularity: state.popularity.counts[id] ?? 0,
            favorite: state.popularity.favorites.contains(id))
    }

    private func candidateResult(_ i: Int, catalog: DiscoverCatalog, state: DiscoverState) -> DiscoverResult {
        let candidate = state.people.candidates[i]
        let saved = state.people.candidateSaved[i]
        var at: (region: String?, country: String?, countryCode: String?, continent: String?) = (nil, nil, nil, nil)
        if let gid = saved.gazetteerID, let entry = catalog.gazetteer.index(ofID: gid) {
            at = catalog.whereabouts(entry)
        } else if let city = catalog.nearestCity(
            latitude: candidate.latitude, longitude: candidate.longitude, within: 25_000)
        {
            at = catalog.whereabouts(city)
        }
        return DiscoverResult(
            id: candidate.id, kind: "place", name: candidate.names.first ?? "", region: at.region, country: at.country,
            countryCode: at.countryCode, continent: at.continent, latitude: candidate.latitude,
            longitude: candidate.longitude, population: 0, popularity: state.popularity.counts[candidate.id] ?? 0,
            favorite: state.popularity.favorites.contains(candidate.id), owner: state.people.candidateOwners[i])
    }

    /// Popularity's inputs and results, read again when the store has changed.
    func discoverState(_ catalog: DiscoverCatalog) throws -> DiscoverState {
        let generation = store.generations.current
        if let state = discoverCache, state.generation == generation { return state }
        let people = try readPeople()
        let state = DiscoverState(
            generation: generation, people: people, popularity: DiscoverPopularity(people: people, catalog: catalog))
        discoverCache = state
        return state
    }

    /// Who saved what (`DiscoverPeople`), from the itineraries, cards and library held.
    private func readPeople() throws -> DiscoverPeople {
        guard let me else { throw ServiceError.loggedOut }
        var people = DiscoverPeople()
        func saved(_ person: String, _ fields: [String: JSONValue]) -> DiscoverPeople.Saved? {
            guard let name = fields["name"]?.stringValue, let lat = fields["latitude"]?.doubleValue,
                let lon = fields["longitude"]?.doubleValue
            else { return nil }
            return DiscoverPeople.Saved(
                person: person, name: name, folded: NameFolding.fold(name), latitude: lat, longitude: lon,
                gazetteerID: fields["gazetteerId"]?.stringValue)
        }
        // Places other people put in the itineraries held (the stop's creator).
        for doc in try storeCall({ () throws(StoreError) in try store.documents(kind: .itinerary) }) {
            for stop in try storeCall({ () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) }) {
                guard let author = stop.createdBy, author != me.hex, let s = saved(author, Views.fields(stop)) else {
                    continue
                }
                people.saved.append(s)
            }
        }
        // Contacts' and co-members' shared favorites: saved by them, and candidates.
        for (owner, card) in heldCards().sorted(by: { $0.key.hex < $1.key.hex }) {
            for record in try storeCall({ () throws(StoreError) in try store.entities(in: card.id, kind: .sharedPlace) }
            )
            .prefix(CardService.maxSharedPlaces) {
                guard let s = saved(owner.hex, Views.fields(record)) else { continue }
                people.saved.append(s)
                people.candidates.append(
                    DiscoverCandidate(
                        id: "place:\(owner.hex).\(record.id)", names: [s.name], latitude: s.latitude,
                        longitude: s.longitude))
                people.candidateOwners.append(owner.humanID)
                people.candidateSaved.append(s)
            }
        }
        // This person's library: candidates, and favorites for hearts.
        let library = try libraryService()
        let hearted = Set(try library.favoriteRecords().compactMap(\.ref))
        for place in try library.placeRecords() {
            guard let s = saved(me.hex, Views.fields(place)) else { continue }
            people.candidates.append(
                DiscoverCandidate(
                    id: "place:\(place.id)", names: [s.name], latitude: s.latitude, longitude: s.longitude))
            people.candidateOwners.append(nil)
            people.candidateSaved.append(s)
            if hearted.contains(place.id) { people.favorites.append(s) }
        }
        return people
    }

    // MARK: Places from results

    /// A place request's `gazetteerId` checked against this build's gazetteer, and the name
    /// and coordinates it leaves out filled from it.
    func filledFromGazetteer(_ body: [String: JSONValue]) throws -> [String: JSONValue] {
        guard let raw = body["gazetteerId"], !raw.isNull else { return body }
        guard let id = raw.stringValue, FieldRule.isGazetteerID(id) else {
            throw ServiceError.invalid(
                "gazetteerId", "'gazetteerId' must be a discover result id such as city:2267057 or country:PT")
        }
        let catalog = try catalog()
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
