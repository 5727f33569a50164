import Foundation
import PlacesDestinations
import PlacesGazetteer
import PlacesModel
import PlacesRoutes
import PlacesStore

/// The destinations routes (`DestinationsComponent`): adding, listing and removing
/// destinations, setting "here", and marking places visited. The dashboard is in
/// `Engine+Dashboard`, the weather in `Engine+Weather`.
extension Engine {
    /// The gazetteer's geography, loaded with the gazetteer on first use.
    func destinationGeography() throws -> DestinationGeography {
        if let geography = destinationsComponent.geography { return geography }
        let geography = DestinationGeography(gazetteer: try catalog().gazetteer, zones: TimeZoneTable.bundled())
        destinationsComponent.geography = geography
        return geography
    }

    /// The kept destinations, in the order added.
    func keptDestinations() -> [Destination] {
        DestinationList.decode(try? store.preference(DestinationList.setting))
    }

    /// Where "here" is on this device; nil until set.
    func keptHere() -> Here? { Here.decode(try? store.preference(Here.setting)) }

    /// The places marked visited.
    func visitedPlaces() -> Set<String> { Set(VisitedList.decode(try? store.preference(VisitedList.setting))) }

    /// The most bytes of a query or a reference: 200 characters of up to 4 bytes each. A
    /// "character" (a grapheme) can hold any number of combining marks: one of 60 KB would
    /// pass a count of characters, and be echoed back in the error.
    static let maxReferenceBytes = 800

    /// `POST /v1/destinations`: `{"query"}` (what discover ranks first), `{"gazetteerId"}` or
    /// `{"place"}` (an id, unique id prefix or exact name of one of her places).
    func addDestination(_ body: [String: JSONValue]) throws -> JSONValue {
        try requireLogin()
        let named = ["query", "gazetteerId", "place"].filter { body[$0] != nil }
        if let unknown = body.keys.sorted().first(where: { !["query", "gazetteerId", "place"].contains($0) }) {
            throw ServiceError.invalid(
                unknown, "unknown field '\(unknown.prefix(40))': give query, gazetteerId or place")
        }
        guard named.count == 1, let field = named.first, let text = body[field]?.stringValue,
            (1...200).contains(text.count), text.utf8.count <= Self.maxReferenceBytes
        else {
            throw ServiceError.invalid(
                named.first ?? "query", "give exactly one of query, gazetteerId or place: a string of 1-200 characters")
        }
        let geography = try destinationGeography()
        let destination: Destination
        switch field {
        case "gazetteerId":
            guard let i = geography.gazetteer.index(ofID: text), let made = geography.destination(entry: i) else {
                throw ServiceError(
                    .unknownGazetteerID, "no city, region or country of the gazetteer has the id '\(text.prefix(40))'",
                    field: "gazetteerId")
            }
            destination = made
        case "place": destination = try placeDestination(text, geography)
        default: destination = try queryDestination(text, geography)
        }
        var list = keptDestinations()
        if !list.contains(where: { $0.id == destination.id }) {
            guard list.count < DestinationList.maxCount else {
                throw ServiceError.conflict(
                    "too-many-destinations", "at most \(DestinationList.maxCount) destinations: remove one first")
            }
            list.append(destination)
            try storeCall { () throws(StoreError) in
                try store.setPreference(DestinationList.setting, DestinationList.encode(list))
            }
        }
        nudgeWeather()
        return Self.destinationJSON(destination, source: "added", trips: [])
    }

    /// A query resolved as `places discover` ranks it: the first result that can be a
    /// destination (a city, region or country, or a place of hers); else a 400 naming the
    /// first candidates.
    private func queryDestination(_ text: String, _ geography: DestinationGeography) throws -> Destination {
        let results = try discover(["q": text]).results
        for result in results {
            if let i = geography.gazetteer.index(ofID: result.id), let made = geography.destination(entry: i) {
                return made
            }
            if result.kind == "place", result.owner == nil, result.id.hasPrefix("place:") {
                return try placeDestination(String(result.id.dropFirst(6)), geography)
            }
        }
        let candidates = results.prefix(5).map { "\($0.name) (\($0.id)\($0.countryCode.map { ", \($0)" } ?? ""))" }
        throw ServiceError.invalid(
            "query",
            candidates.isEmpty
                ? "nothing is called '\(text.prefix(80))': try another spelling, or `places discover`"
                : "no city, region, country or place of yours fits '\(text.prefix(80))'; candidates: "
                    + candidates.joined(separator: "; ") + " (pick one with gazetteerId)")
    }

    /// One of her places as a destination (its nearest city's zone and country).
    private func placeDestination(_ reference: String, _ geography: DestinationGeography) throws -> Destination {
        let place = try ownPlace(reference, field: "place")
        let g = geography.gazetteer
        let city = geography.nearestCity(latitude: place.point.latitude, longitude: place.point.longitude)
        let country = city.flatMap { g.country($0) }
        return Destination(
            id: "place:\(place.id)", name: place.name, kind: "place", latitude: place.point.latitude,
            longitude: place.point.longitude,
            timeZone: geography.zone(latitude: place.point.latitude, longitude: place.point.longitude),
            country: country.map { g.name($0) }, countryCode: city.flatMap { g.countryCode($0) },
            region: city.flatMap { g.region($0) }.map { g.name($0) }, population: nil)
    }

    /// One of her own places with coordinates, by id, unique id prefix (4+) or exact name
    /// (case and accents ignored).
    func ownPlace(_ reference: String, field: String) throws -> SavedPlace {
        let mine = me?.humanID
        let places = try savedPlaces().filter { place in place.savedBy.contains { $0.id == mine } }
        if let exact = places.first(where: { $0.id == reference }) { return exact }
        let lower = reference.lowercased()
        let byPrefix = lower.utf8.count >= 4 ? places.filter { $0.id.hasPrefix(lower) } : []
        if byPrefix.count == 1 { return byPrefix[0] }
        let folded = NameFolding.fold(reference)
        if let named = places.first(where: { NameFolding.fold($0.name) == folded }) { return named }
        throw ServiceError.invalid(field, "no place of yours is '\(reference.prefix(80))': give its id or exact name")
    }

    /// `GET /v1/destinations`: the added ones, then the cities of upcoming trips not added.
    func destinationList() throws -> JSONValue {
        try requireLogin()
        let geography = try destinationGeography()
        let inputs = try dashboardInputs(geography)
        var out = [JSONValue]()
        let added = keptDestinations()
        for destination in added {
            out.append(
                Self.destinationJSON(destination, source: "added", trips: tripsIn(destination, inputs, geography)))
        }
        for (destination, trips) in tripDestinations(inputs, geography)
        where !added.contains(where: { $0.id == destination.id }) {
            out.append(Self.destinationJSON(destination, source: "trip", trips: trips))
        }
        return .object(["destinations": .array(out)])
    }

    /// `DELETE /v1/destinations/{id}`: 404 for one not added (a trip's city goes with its trip).
    func removeDestination(_ id: String) throws {
        try requireLogin()
        var list = keptDestinations()
        guard let i = list.firstIndex(where: { $0.id == id }) else {
            throw ServiceError.notFound("no destination '\(id.prefix(80))' was added: `places destination list`")
        }
        list.remove(at: i)
        try storeCall { () throws(StoreError) in
            try store.setPreference(DestinationList.setting, DestinationList.encode(list))
        }
        destinationsComponent.weather[id] = nil
        try? store.setLocalCache(Self.weatherCachePrefix + id, nil)
    }

    /// `PUT /v1/here`: `{"latitude", "longitude"}` or `{"place"}`.
    func setHere(_ body: [String: JSONValue]) throws -> JSONValue {
        try requireLogin()
        if let unknown = body.keys.sorted().first(where: { !["latitude", "longitude", "place"].contains($0) }) {
            throw ServiceError.invalid(
                unknown, "unknown field '\(unknown.prefix(40))': give latitude and longitude, or place")
        }
        let geography = try destinationGeography()
        let here: Here
        if let reference = body["place"] {
            guard body["latitude"] == nil, body["longitude"] == nil, let text = reference.stringValue,
                (1...200).contains(text.count), text.utf8.count <= Self.maxReferenceBytes
            else { throw ServiceError.invalid("place", "give either a place or latitude and longitude") }
            let place = try ownPlace(text, field: "place")
            here = Here(
                latitude: place.point.latitude, longitude: place.point.longitude,
                timeZone: geography.zone(latitude: place.point.latitude, longitude: place.point.longitude),
                name: place.name, placeId: place.id)
        } else {
            guard let lat = body["latitude"]?.doubleValue, lat.isFinite, abs(lat) <= 90 else {
                throw ServiceError.invalid("latitude", "'latitude' must be a number from -90 to 90")
            }
            guard let lon = body["longitude"]?.doubleValue, lon.isFinite, abs(lon) <= 180 else {
                throw ServiceError.invalid("longitude", "'longitude' must be a number from -180 to 180")
            }
            // Named after the city it belongs to (Berlin, not the district of Mitte).
            let city =
                geography.city(of: GeoPoint(latitude: lat, longitude: lon))
                ?? geography.nearestCity(latitude: lat, longitude: lon)
            here = Here(
                latitude: lat, longitude: lon, timeZone: geography.zone(latitude: lat, longitude: lon),
                name: city.map { geography.gazetteer.name($0) } ?? "here", placeId: nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = (try? encoder.encode(here)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        try storeCall { () throws(StoreError) in try store.setPreference(Here.setting, text) }
        destinationsComponent.weather["here"] = nil
        nudgeWeather()
        return .object([
            "latitude": .number(here.latitude), "longitude": .number(here.longitude), "name": .string(here.name),
            "timeZone": .string(here.timeZone), "placeId": here.placeId.map { .string($0) } ?? .null,
        ])
    }

    /// `GET /v1/visited`.
    func visitedList() throws -> JSONValue {
        try requireLogin()
        return .object([
            "placeIds": .array(VisitedList.decode(try? store.preference(VisitedList.setting)).map { .string($0) })
        ])
    }

    /// `POST /v1/visited {"placeId"}` (yours or a friend's shared place) and
    /// `DELETE /v1/visited/{placeId}`.
    func setVisited(_ id: String, _ visited: Bool) throws -> JSONValue {
        try requireLogin()
        guard (1...200).contains(id.utf8.count) else {
            throw ServiceError.invalid("placeId", "'placeId' must be a place id of 1-200 characters")
        }
        var list = VisitedList.decode(try? store.preference(VisitedList.setting))
        if visited {
            guard try savedPlaces().contains(where: { $0.id == id }) else {
                throw ServiceError.invalid(
                    "placeId", "no place of yours or your friends' has the id '\(id.prefix(80))'")
            }
            if !list.contains(id) {
                guard list.count < VisitedList.maxCount else {
                    throw ServiceError.conflict(
                        "too-many-visited", "at most \(VisitedList.maxCount) places marked visited")
                }
                list.append(id)
            }
        } else {
            guard list.contains(id) else { throw ServiceError.notFound("'\(id.prefix(80))' is not marked visited") }
            list.removeAll { $0 == id }
        }
        try storeCall { () throws(StoreError) in try store.setPreference(VisitedList.setting, VisitedList.encode(list))
        }
        return try visitedList()
    }

    /// A destination as `GET /v1/destinations` lists it.
    static func destinationJSON(_ d: Destination, source: String, trips: [JSONValue]) -> JSONValue {
        .object([
            "id": .string(d.id), "name": .string(d.name), "kind": .string(d.kind), "latitude": .number(d.latitude),
            "longitude": .number(d.longitude), "timeZone": .string(d.timeZone),
            "country": d.country.map { .string($0) } ?? .null,
            "countryCode": d.countryCode.map { .string($0) } ?? .null,
            "region": d.region.map { .string($0) } ?? .null,
            "population": d.population.map { .int($0) } ?? .null, "source": .string(source), "trips": .array(trips),
        ])
    }
}
