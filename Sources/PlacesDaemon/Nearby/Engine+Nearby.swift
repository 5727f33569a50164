import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesStore

/// `GET /v1/nearby` (issue 32): the places the user saved and the places the people they
/// know share with them, within a radius, nearest first, with who saved each one and whether
/// it is open now. Offline: it answers from what the daemon holds (`docs/nearby.md`).
extension Engine {
    static let nearbyDefaultRadius = 1_000.0
    static let nearbyMaxRadius = 50_000.0
    static let nearbyDefaultLimit = 100
    static let nearbyMaxLimit = 1_000

    /// One saved place, with everyone who saved it.
    struct SavedPlace {
        var id: String
        var name: String
        var point: GeoPoint
        var categories: [String]
        var hours: String?
        var notes: String?
        var rating: Double?
        var address: String?
        /// (public id, name), the user first when they saved it.
        var savedBy: [(id: String, name: String)]
    }

    func nearby(_ query: [String: String]) throws -> JSONValue {
        try requireLogin()
        for key in query.keys.sorted()
        where !["near", "radius", "who", "category", "openNow", "limit"].contains(key) {
            throw ServiceError.invalid(
                key, "unknown parameter '\(key.prefix(40))': near, radius, who, category, openNow, limit")
        }
        let places = try savedPlaces()
        guard let nearText = query["near"], !nearText.isEmpty else {
            throw ServiceError.invalid("near", "say where: near=LAT,LON or a place of yours or a friend's")
        }
        let centre = try nearbyCentre(nearText, places: places)
        var radius = Self.nearbyDefaultRadius
        if let text = query["radius"] {
            guard let r = Double(text), r.isFinite, r > 0, r <= Self.nearbyMaxRadius else {
                throw ServiceError.invalid("radius", "'radius' is metres, above 0 and at most 50000")
            }
            radius = r
        }
        var limit = Self.nearbyDefaultLimit
        if let text = query["limit"] {
            guard let n = Int(text), (1...Self.nearbyMaxLimit).contains(n) else {
                throw ServiceError.invalid("limit", "'limit' must be from 1 to \(Self.nearbyMaxLimit)")
            }
            limit = n
        }
        let who = try query["who"].map(nearbyWho) ?? { _ in true }
        let category = query["category"].map(NameFolding.fold)
        let openOnly: Bool
        switch query["openNow"] {
        case nil, "false": openOnly = false
        case "true": openOnly = true
        default: throw ServiceError.invalid("openNow", "'openNow' must be true or false")
        }
        let now = Self.localClock()
        let index = try nearbyIndex()
        // The band of latitudes the radius spans (a degree of latitude is at least 110.5 km).
        let span = radius / 110_500
        // And of longitudes: a degree of longitude is at least 111.3 km × cos(latitude) within
        // the band (all of them near a pole or across the antimeridian).
        let edge = min(89.9, abs(centre.latitude) + span)
        let lonSpan = radius / (111_000 * cos(edge * .pi / 180))
        let wraps = edge >= 89.9 || abs(centre.longitude) + lonSpan >= 180
        var rows = [(distance: Double, index: Int, open: Bool?)]()
        for i in index.band(centre.latitude - span, centre.latitude + span) {
            guard wraps || abs(index.longitudes[i] - centre.longitude) <= lonSpan else { continue }
            let point = GeoPoint(latitude: index.latitudes[i], longitude: index.longitudes[i])
            let distance = centre.greatCircleDistanceMeters(to: point)
            guard distance <= radius else { continue }
            if let category, !index.categories[i].contains(category) { continue }
            guard who(index.places[i]) else { continue }
            let open = index.hours[i]?.isOpen(isoWeekday: now.weekday, minute: now.minute)
            if openOnly, open != true { continue }
            rows.append((distance, i, open))
        }
        // Only the rows shown are encoded.
        rows.sort { $0.distance < $1.distance }
        let shown = rows.prefix(limit).map { row -> JSONValue in
            let place = index.places[row.index]
            var o: [String: JSONValue] = [
                "placeId": .string(place.id), "name": .string(place.name), "latitude": .number(place.point.latitude),
                "longitude": .number(place.point.longitude), "distanceMeters": .number(row.distance.rounded()),
                "bearing": .number((Self.bearing(from: centre, to: place.point) * 10).rounded() / 10),
                "categories": .array(place.categories.map(JSONValue.string)),
                "savedBy": .array(place.savedBy.map { .object(["id": .string($0.id), "name": .string($0.name)]) }),
                "openNow": row.open.map(JSONValue.bool) ?? .null,
            ]
            if let notes = place.notes { o["notes"] = .string(notes) }
            if let rating = place.rating { o["rating"] = .number(rating) }
            if let address = place.address { o["address"] = .string(address) }
            if let hours = place.hours { o["openingHours"] = .string(hours) }
            return .object(o)
        }
        return .object(["places": .array(shown), "count": .int(Int64(rows.count))])
    }

    /// The saved places, indexed by latitude: kept until what they were read from changes.
    func nearbyIndex() throws -> NearbyComponent.Index {
        if let held = nearbyComponent.index { return held }
        let docs = Set([try library()] + heldCards().values.map(\.id))
        let index = NearbyComponent.Index(try readSavedPlaces(), docs: docs)
        nearbyComponent.keep(index)
        return index
    }

    /// The user's places, and the places shared on the cards of people they know (by
    /// latitude, from the index).
    func savedPlaces() throws -> [SavedPlace] { try nearbyIndex().places }

    /// The user's places, and the places shared on the cards of people they know; a shared
    /// place with the same name (case and accents ignored) within 150 m of another is the same.
    func readSavedPlaces() throws -> [SavedPlace] {
        let me = self.me.map { ($0.humanID, myDisplayName()) }
        var out = try libraryService().placeRecords().compactMap { record -> SavedPlace? in
            let f = Views.fields(record)
            typealias P = PlaceFields
            guard let lat = f[P.latitude], let lon = f[P.longitude] else { return nil }
            return SavedPlace(
                id: record.id, name: f[P.name] ?? "", point: GeoPoint(latitude: lat, longitude: lon),
                categories: f[P.categories] ?? [], hours: f[P.openingHours], notes: f[P.notes], rating: f[P.rating],
                address: f[P.address], savedBy: me.map { [$0] } ?? [])
        }
        var byName = [String: [Int]]()
        for (i, p) in out.enumerated() { byName[NameFolding.fold(p.name), default: []].append(i) }
        let shared = sharedPlacesFolded()
        for ((person, favorite), folded) in zip(shared.entries, shared.folded) {
            let point = GeoPoint(latitude: favorite.latitude, longitude: favorite.longitude)
            if let i = (byName[folded] ?? []).first(where: {
                out[$0].point.greatCircleDistanceMeters(to: point) <= Self.samePlaceMeters
            }) {
                if !out[i].savedBy.contains(where: { $0.id == person.id }) { out[i].savedBy.append(person) }
                continue
            }
            byName[folded, default: []].append(out.count)
            out.append(
                SavedPlace(
                    id: favorite.id, name: favorite.name, point: point, categories: favorite.categories,
                    notes: favorite.notes, address: favorite.address, savedBy: [person]))
        }
        return out
    }

    /// `sharedByKnownPeople()` with each name folded, kept while the cards it was read from
    /// are the same cards, unchanged.
    func sharedPlacesFolded() -> NearbyComponent.Shared {
        let known = knownPeople()
        let cards = Set(heldCards().filter { known.contains($0.key) }.values.map(\.id))
        if let held = nearbyComponent.shared, held.cards == cards { return held }
        let entries = sharedByKnownPeople()
        let shared = NearbyComponent.Shared(
            entries: entries, folded: entries.map { NameFolding.fold($0.place.name) }, cards: cards)
        nearbyComponent.keep(shared)
        return shared
    }

    /// The places shared on the cards of people the user knows (Sybil-aware: a stranger's
    /// card never counts), with who shares each, in a stable order.
    func sharedByKnownPeople() -> [(person: (id: String, name: String), place: SharedFavorite)] {
        let known = knownPeople()
        let cards = heldCards().filter { known.contains($0.key) }.sorted { $0.key.humanID < $1.key.humanID }
        return cards.flatMap { key, card in
            let view = cardView(card)
            // The name the person gave their profile, else the one this daemon knows them by.
            let person = (id: key.humanID, name: view.name.flatMap { $0.isEmpty ? nil : $0 } ?? displayName(of: key))
            return view.favorites.map { (person, $0) }
        }
    }

    /// The user's own name as the answer shows it.
    func myDisplayName() -> String { me.map { displayName(of: $0) } ?? "you" }

    /// `near`: `LAT,LON`, or a saved place by id or name (case and accents ignored).
    func nearbyCentre(_ text: String, places: [SavedPlace]) throws -> GeoPoint {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                throw ServiceError.invalid("near", "'near' is not a position: LAT,LON within range")
            }
            return GeoPoint(latitude: lat, longitude: lon)
        }
        if let exact = places.first(where: { $0.id == text }) { return exact.point }
        let lower = text.lowercased()
        if lower.count >= 4, lower.allSatisfy(\.isHexDigit) {
            let matches = places.filter { $0.id.hasPrefix(lower) }
            if matches.count == 1 { return matches[0].point }
        }
        if let named = try nearbyIndex().named(text) { return named.point }
        throw ServiceError.invalid(
            "near", "no place '\(text.prefix(80))' among yours and your friends': give LAT,LON or its exact name")
    }

    /// `who`: `me`, `friends`, a person's public id or name, or a group's id or name.
    func nearbyWho(_ text: String) throws -> (SavedPlace) -> Bool {
        let mine = me?.humanID ?? ""
        switch text {
        case "me": return { $0.savedBy.contains { $0.id == mine } }
        case "friends": return { $0.savedBy.contains { $0.id != mine } }
        default: break
        }
        if let key = try? HumanID.decode(text) {
            let id = key.humanID
            return { $0.savedBy.contains { $0.id == id } }
        }
        if let group = try? groupRecord(text) {
            let members = Set(groupView(group).members)
            return { $0.savedBy.contains { members.contains($0.id) } }
        }
        // A name: the one this daemon knows the person by, or their card's.
        let folded = PlanScoring.fold(text)
        let cards = heldCards()
        let people = Set(
            knownPeople().filter { key in
                PlanScoring.fold(displayName(of: key)) == folded
                    || cards[key].flatMap { cardView($0).name }.map(PlanScoring.fold) == folded
            }.map(\.humanID))
        guard !people.isEmpty else {
            throw ServiceError.invalid(
                "who", "'who' is me, friends, a person's id or name, or a group: '\(text.prefix(60))' is none")
        }
        return { $0.savedBy.contains { people.contains($0.id) } }
    }

    /// Degrees clockwise from north, 0 ≤ b < 360, of the great circle from `a` to `b`.
    static func bearing(from a: GeoPoint, to b: GeoPoint) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let degrees = atan2(y, x) * 180 / .pi
        return (degrees + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The ISO weekday and minute of the day where the daemon runs.
    static func localClock(_ date: Date = Date()) -> (weekday: Int, minute: Int) {
        let c = Calendar.current.dateComponents([.weekday, .hour, .minute], from: date)
        // Calendar: 1 = Sunday … 7 = Saturday; ISO: 1 = Monday … 7 = Sunday.
        let weekday = ((c.weekday ?? 2) + 5) % 7 + 1
        return (weekday, (c.hour ?? 0) * 60 + (c.minute ?? 0))
    }
}
