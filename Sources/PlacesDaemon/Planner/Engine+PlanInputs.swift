import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesStore
import PlacesTrips

/// What a plan reads besides the library: friends' places, published trips, where the trip
/// is, the user's references, categories and prices (`docs/planner.md` §1–§4).
extension Engine {
    /// Two saves are the same place when their names fold alike and they are this close.
    static let samePlaceMeters = 150.0

    /// Friends' shared places (cards of people the user knows only: Sybil-aware, as explore)
    /// join the pool: a place the user also saved gains "saved by"; another is a new candidate.
    func mergeFriendsPlaces(into pool: inout [PlanCandidate], shared: inout [String: (owner: String, place: String)]) {
        var byName = Self.foldedNames(pool)
        // A place without a name (a hostile card can leave it unset) cannot be written as a visit.
        for (person, favorite) in sharedByKnownPeople()
        where !favorite.name.trimmingCharacters(in: .whitespaces).isEmpty {
            let point = GeoPoint(latitude: favorite.latitude, longitude: favorite.longitude)
            let folded = PlanScoring.fold(favorite.name)
            if let i = (byName[folded] ?? []).first(where: {
                pool[$0].point.map { $0.greatCircleDistanceMeters(to: point) <= Self.samePlaceMeters } ?? false
            }) {
                if !pool[i].signals.savedBy.contains(person.name) { pool[i].signals.savedBy.append(person.name) }
                continue
            }
            byName[folded, default: []].append(pool.count)
            pool.append(
                PlanCandidate(
                    id: favorite.id, name: favorite.name, point: point, categories: favorite.categories,
                    signals: PlanSignals(savedBy: [person.name])))
            let parts = favorite.id.dropFirst("place:".count).split(separator: ".")
            if parts.count == 2 { shared[favorite.id] = (String(parts[0]), String(parts[1])) }
        }
    }

    /// The pool's indices by folded name, in pool order.
    static func foldedNames(_ pool: [PlanCandidate]) -> [String: [Int]] {
        var byName = [String: [Int]]()
        for (i, c) in pool.enumerated() { byName[PlanScoring.fold(c.name), default: []].append(i) }
        return byName
    }

    /// How many published trips by the user or people they know visit each candidate (a
    /// stranger's trips never count: anyone can publish a thousand).
    func countPublishedTrips(_ pool: inout [PlanCandidate], names byName: [String: [Int]]) {
        let context = exploreContext
        let known = Set(knownPeople().map { Array($0.bytes) } + (me.map { [Array($0.bytes)] } ?? []))
        for entry in exploreComponent.visibleEntries(context) where known.contains(entry.author) {
            let stops = (try? store.entities(in: entry.doc, kind: .stop)) ?? []
            var counted = Set<Int>()
            for stop in stops {
                let f = Views.fields(stop)
                guard let name = f[StopFields.name], let point = Self.stopPoint(stop) else { continue }
                for i in byName[PlanScoring.fold(name)] ?? []
                where pool[i].point.map({ $0.greatCircleDistanceMeters(to: point) <= Self.samePlaceMeters }) ?? false {
                    counted.insert(i)
                }
            }
            for i in counted { pool[i].signals.publishedTrips += 1 }
        }
    }

    /// Where the days start and end: the request's stay, else the itinerary's first lodging
    /// with a position; nil when neither says.
    func planStay(
        _ stay: PlanRequest.Stay?, trip: Trip?, pool: [PlanCandidate], names: [String: [Int]]
    ) throws -> GeoPoint? {
        switch stay {
        case .point(let p): return p
        case .place(let reference):
            let id = try planPlaceID(reference, pool: pool, names: names, field: "stay")
            guard let point = pool.first(where: { $0.id == id })?.point else {
                throw ServiceError.invalid("stay", "'\(reference.prefix(80))' has no position")
            }
            return point
        case nil:
            let lodgings = (trip?.items ?? []).filter { $0.type == .lodging && $0.location?.point != nil }
            return lodgings.min { a, b in
                a.start != b.start ? (a.start.map { s in b.start.map { s < $0 } ?? true } ?? false) : a.id < b.id
            }?.location?.point
        }
    }

    /// `near`: `LAT,LON`, a discover result id, one of the user's or friends' places by name,
    /// or what discover ranks first for the text.
    func planCentre(_ near: String, pool: [PlanCandidate], names: [String: [Int]]) throws -> GeoPoint {
        let parts = near.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                throw ServiceError.invalid("near", "'near' \(near.prefix(60)) is not a position: LAT,LON in range")
            }
            return GeoPoint(latitude: lat, longitude: lon)
        }
        if FieldRule.isGazetteerID(near) {
            let result = try discoverResult(near)
            return GeoPoint(latitude: result.latitude, longitude: result.longitude)
        }
        if let id = try? planPlaceID(near, pool: pool, names: names, field: "near"),
            let point = pool.first(where: { $0.id == id })?.point
        {
            return point
        }
        if let first = try discover(["q": near, "limit": "1"]).results.first {
            return GeoPoint(latitude: first.latitude, longitude: first.longitude)
        }
        throw ServiceError.invalid(
            "near", "no place, city or region called '\(near.prefix(80))': give a discover id or LAT,LON")
    }

    /// A place reference (`must`, `avoid`, `stay`): a candidate's id, a unique start of a
    /// library id, or a name (case and accents ignored) that one candidate has.
    /// `names` is `foldedNames(pool)`.
    func planPlaceID(
        _ reference: String, pool: [PlanCandidate], names: [String: [Int]], field: String
    ) throws -> String {
        if pool.contains(where: { $0.id == reference }) { return reference }
        let lower = reference.lowercased()
        if lower.count >= 4, lower.allSatisfy(\.isHexDigit) {
            let matches = pool.filter { $0.id.hasPrefix(lower) }
            if matches.count == 1 { return matches[0].id }
        }
        let folded = PlanScoring.fold(reference)
        let named = (names[folded] ?? []).map { pool[$0] }
        // The user's own place first when a friend saved one of the same name.
        if let mine = named.first(where: { $0.signals.mine }) ?? named.first { return mine.id }
        throw ServiceError.invalid(
            field, "no place '\(reference.prefix(80))' among yours and your friends': give its id or exact name")
    }

    /// The interests folded, with their weight (a category named twice weighs 2). Each must be
    /// a category some place of the user's or their friends' has, or a kind of food.
    func planInterests(_ interests: [String], pool: [PlanCandidate]) throws -> [String: Int] {
        guard !interests.isEmpty else { return [:] }
        // Each distinct category folded once: folding is slow, and the pool may hold 20,000 places.
        var written = Set<String>()
        for c in pool { written.formUnion(c.categories) }
        var known = PlanScoring.foodCategories
        for category in written { known.insert(PlanScoring.fold(category)) }
        var out = [String: Int]()
        for (i, interest) in interests.enumerated() {
            let folded = PlanScoring.fold(interest)
            guard known.contains(folded) else {
                throw ServiceError.invalid(
                    "interests[\(i)]",
                    "no place of yours or your friends' has the category '\(interest.prefix(50))'")
            }
            out[folded, default: 0] += 1
        }
        return out
    }

    /// The currency of a plan without a budget: the trip's settlement currency, else euros.
    func planCurrency(_ itinerary: Store.DocumentRecord?) -> String {
        itinerary.flatMap { try? expenseSnapshot($0).settlementCurrency } ?? "EUR"
    }

    /// What a visit costs in `currency`: the entry price (converted with the trip's rates),
    /// else the estimate for its price level (euros, converted), else unknown.
    static func planCost(
        entry: Money?, level: Int?, food: Bool, currency: String, rates: [String: ExchangeRate]
    ) -> PlanCost {
        func convert(_ minor: Int64, from: String) -> Int64? {
            from == currency ? minor : rates[from]?.convert(minor, from: from, to: currency)
        }
        if let entry {
            guard let minor = convert(entry.amountMinor, from: entry.currency) else {
                return .unconvertible("priced in \(entry.currency), and the trip has no rate to \(currency)")
            }
            return .price(minor)
        }
        if let level, let cents = PlanScoring.estimateEuroCents(priceLevel: level, food: food),
            let minor = convert(cents, from: "EUR")
        {
            return .estimate(minor)
        }
        return .unknown
    }

    /// The places the trip already has a visit at (a booking, a plan applied before), by
    /// folded name: a candidate there is not suggested again, on any day.
    static func visitsInTrip(_ trip: Trip?) -> [String: [GeoPoint]] {
        var out = [String: [GeoPoint]]()
        for item in trip?.items ?? [] where [.food, .activity, .place].contains(item.type) {
            guard let point = item.location?.point else { continue }
            for name in Set([item.title, item.location?.name ?? ""].map(PlanScoring.fold)) where !name.isEmpty {
                out[name, default: []].append(point)
            }
        }
        return out
    }

    /// The ids of the pool's places that `visits` (`visitsInTrip`) are at; `names` is
    /// `foldedNames(pool)`.
    static func visited(_ visits: [String: [GeoPoint]], pool: [PlanCandidate], names: [String: [Int]]) -> Set<String> {
        var out = Set<String>()
        for (name, points) in visits {
            for i in names[name] ?? [] {
                guard let point = pool[i].point,
                    points.contains(where: { $0.greatCircleDistanceMeters(to: point) <= samePlaceMeters })
                else { continue }
                out.insert(pool[i].id)
            }
        }
        return out
    }

    /// The itinerary's booked items inside the plan's days (a dinner, a ticket): visits fixed
    /// in time that the plan keeps and plans around.
    static func fixedVisits(_ trip: Trip?, days: [LocalDate]) -> [PlanCandidate] {
        guard let trip else { return [] }
        var out = [PlanCandidate]()
        for item in trip.items where [.food, .activity, .place].contains(item.type) {
            guard let start = item.start, let minute = start.minuteOfDay, let day = days.firstIndex(of: start.date)
            else { continue }
            var minutes = 60
            if let end = item.end, end.date == start.date, let endMinute = end.minuteOfDay, endMinute > minute {
                minutes = min(720, endMinute - minute)
            }
            out.append(
                PlanCandidate(
                    id: item.id, name: item.title, point: item.location?.point, categories: [],
                    fixed: FixedVisit(day: day, startMinute: minute, minutes: minutes)))
        }
        return out
    }
}
