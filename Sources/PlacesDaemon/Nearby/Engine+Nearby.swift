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
        let index = try nearbyIndex()
        guard let nearText = query["near"], !nearText.isEmpty else {
            throw ServiceError.invalid("near", "say where: near=LAT,LON or a place of yours or a friend's")
        }
        let centre = try nearbyCentre(nearText, index: index)
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
        let who = try query["who"].map(nearbyWho)
        let category = query["category"].map(NameFolding.fold)
        let openOnly: Bool
        switch query["openNow"] {
        case nil, "false": openOnly = false
        case "true": openOnly = true
        default: throw ServiceError.invalid("openNow", "'openNow' must be true or false")
        }
        let now = Self.localClock()
        // The box the radius spans (a degree of latitude is at least 110.5 km; a degree of
        // longitude at least 111.3 km × cos(latitude) within it): every place of a box across
        // a pole or the antimeridian.
        let span = radius / 110_500
        let edge = min(89.9, abs(centre.latitude) + span)
        let lonSpan = radius / (111_000 * cos(edge * .pi / 180))
        let wraps = edge >= 89.9 || abs(centre.longitude) + lonSpan >= 180
        var rows = [NearbyRow]()
        index.forEach(
            latitudes: (centre.latitude - span)...(centre.latitude + span),
            longitudes: wraps ? nil : (centre.longitude - lonSpan)...(centre.longitude + lonSpan)
        ) { slot in
            // Each test reads what it needs of the place in place: no place is copied.
            let distance = centre.greatCircleDistanceMeters(to: index.points[slot])
            guard distance <= radius else { return }
            if let category, index.entries[slot]?.categories.contains(category) != true { return }
            if let who, let place = index.entries[slot]?.place, !who(place) { return }
            let open = index.entries[slot]?.hours?.isOpen(isoWeekday: now.weekday, minute: now.minute)
            if openOnly, open != true { return }
            rows.append(NearbyRow(distance: distance, slot: slot, open: open))
        }
        // Only the rows shown are ordered and encoded.
        let shown = NearbyRow.nearest(limit, of: rows).compactMap { row -> JSONValue? in
            guard let place = index.entries[row.slot]?.place else { return nil }
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

    /// `GET /v1/nearby`'s body, written by `JSONValue.write` (compact, keys sorted, as the
    /// control API's encoder writes it): Foundation's encoder cost more than the query.
    func nearbyBody(_ query: [String: String]) throws -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(32 << 10)
        try nearby(query).write(to: &out)
        return out
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
    func nearbyCentre(_ text: String, index: NearbyIndex) throws -> GeoPoint {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                throw ServiceError.invalid("near", "'near' is not a position: LAT,LON within range")
            }
            return GeoPoint(latitude: lat, longitude: lon)
        }
        if let place = Self.savedPlace(text, in: index) { return place.point }
        throw ServiceError.invalid(
            "near", "no place '\(text.prefix(80))' among yours and your friends': give LAT,LON or its exact name")
    }

    /// A saved place by id, id prefix (4 hex digits or more, when one place has it) or name
    /// (case and accents ignored).
    static func savedPlace(_ text: String, in index: NearbyIndex) -> SavedPlace? {
        if let exact = index.place(id: text) { return exact }
        let lower = text.lowercased()
        if lower.count >= 4, lower.allSatisfy(\.isHexDigit) {
            var matches = [SavedPlace]()
            for case let entry? in index.entries where entry.place.id.hasPrefix(lower) {
                matches.append(entry.place)
                if matches.count > 1 { break }
            }
            if matches.count == 1 { return matches[0] }
        }
        return index.named(text)
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
