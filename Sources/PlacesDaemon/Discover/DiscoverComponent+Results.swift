import PlacesAPI
import PlacesGazetteer
import PlacesModel
import PlacesStore

/// Discover's results: gazetteer entries and people's places as the API shows them, and
/// who saved what (`DiscoverPeople`), read from the itineraries, cards and library held.
extension DiscoverComponent {
    static func result(_ hit: DiscoverHit, catalog: DiscoverCatalog, state: State) -> DiscoverResult? {
        if let i = hit.gazetteerIndex { return gazetteerResult(i, catalog: catalog, state: state) }
        if let i = hit.candidateIndex, state.people.candidates.indices.contains(i) {
            return candidateResult(i, catalog: catalog, state: state)
        }
        return nil
    }

    static func gazetteerResult(_ i: Int, catalog: DiscoverCatalog, state: State) -> DiscoverResult {
        let g = catalog.gazetteer
        let id = g.id(i)
        let at = catalog.whereabouts(i)
        return DiscoverResult(
            id: id, kind: g.kind(i).rawValue, name: g.name(i), region: at.region, country: at.country,
            countryCode: at.countryCode, continent: at.continent, latitude: g.latitude(i), longitude: g.longitude(i),
            population: g.population(i), popularity: state.popularity.counts[id] ?? 0,
            favorite: state.popularity.favorites.contains(id))
    }

    static func candidateResult(_ i: Int, catalog: DiscoverCatalog, state: State) -> DiscoverResult {
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

    /// Who saved what (`DiscoverPeople`), from the itineraries, cards and library held.
    static func readPeople(_ context: Context) throws -> DiscoverPeople {
        guard let me = context.me else { throw ServiceError.loggedOut }
        let store = context.store
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
        for doc in try ServiceError.storing({ () throws(StoreError) in try store.documents(kind: .itinerary) }) {
            let stops = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop)
            }
            for stop in stops {
                guard let author = stop.createdBy, author != me.hex, let s = saved(author, Views.fields(stop)) else {
                    continue
                }
                people.saved.append(s)
            }
        }
        // Contacts' and co-members' shared favorites: saved by them, and candidates.
        for (owner, card) in context.heldCards().sorted(by: { $0.key.hex < $1.key.hex }) {
            let shared = try ServiceError.storing { () throws(StoreError) in
                try store.entities(in: card.id, kind: .sharedPlace)
            }
            for record in shared.prefix(CardService.maxSharedPlaces) {
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
        let library = try context.library()
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
}
