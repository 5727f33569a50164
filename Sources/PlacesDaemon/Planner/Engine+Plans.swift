import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesStore
import PlacesTrips

/// `POST /v1/plans` (issue 31): a suggested trip from the places the user and the people they
/// know saved (`docs/planner.md`). The engine reads what the plan is made from and writes
/// it when asked (`Engine+PlanApply`); `TripPlanner` does the planning, pure.
extension Engine {
    /// Default search radius around `near`, in km.
    static let defaultPlanRadiusKm = 10.0
    /// Default hours of a day out.
    static let defaultDayStart = 9 * 60 + 30
    static let defaultDayEnd = 19 * 60

    /// What a plan was made from, kept to answer and to write it.
    struct PlanContext: Sendable {
        var request: TripPlanRequest
        /// Made off the engine (`PlanRoutes`): the solver may run for `timeBudgetMs`.
        var plan = TripPlan(days: [], score: 0, cost: 0, leftOut: [])
        var currency: String
        var itinerary: Store.DocumentRecord?
        /// Friends' shared places: candidate id → (owner's public id, shared place id).
        var shared: [String: (owner: String, place: String)]
        /// Places to go already in the itinerary: candidate id → stop id.
        var existingStops: [String: String]
        var days: [LocalDate]
    }

    /// Reads the body and gathers what the plan is made from. Writes nothing.
    func planInputs(_ body: [String: JSONValue]) throws -> PlanContext {
        try requireLogin()
        let request = try PlanRequest(body)
        let library = try libraryService()
        var itinerary: Store.DocumentRecord?
        var trip: Trip?
        var stops: [Store.EntityRecord] = []
        if let reference = request.itinerary {
            let doc = try itineraryDoc(reference)
            if request.apply { try requireEditor(doc) }
            let snapshot = try tripSnapshot(doc)
            itinerary = doc
            trip = snapshot.trip
            stops = snapshot.stops
        }
        // The days: the request's, else the itinerary's, else today (one day).
        let today = LocalDate(Self.localToday()) ?? LocalDate(dayNumber: 0)
        let start = request.startDate ?? trip?.startDate ?? today
        let end = request.endDate ?? (request.startDate == nil ? trip?.endDate : nil) ?? start
        guard end >= start else {
            throw ServiceError.invalid("endDate", "'endDate' \(end) is before 'startDate' \(start)")
        }
        guard end.dayNumber - start.dayNumber < PlanRequest.maxDays else {
            throw ServiceError.invalid("endDate", "a plan covers at most \(PlanRequest.maxDays) days")
        }
        let days = (0...(end.dayNumber - start.dayNumber)).map { start.adding(days: $0) }
        let dayStart = request.dayStart ?? Self.defaultDayStart
        let dayEnd = request.dayEnd ?? Self.defaultDayEnd
        guard dayEnd > dayStart else { throw ServiceError.invalid("dayEnd", "'dayEnd' must be after 'dayStart'") }

        let currency = request.budget?.currency ?? planCurrency(itinerary)
        let rates = itinerary.flatMap { try? expenseSnapshot($0).rates } ?? [:]
        // The library, hearts and friends' places: every candidate before the radius.
        let favorites = Set(try library.favorites().favorites.map(\.placeId))
        var pool = try library.placeRecords().map { record in
            planCandidate(record, favorite: favorites.contains(record.id), currency: currency, rates: rates)
        }
        var shared = [String: (owner: String, place: String)]()
        mergeFriendsPlaces(into: &pool, shared: &shared)
        countPublishedTrips(&pool)

        // Where: `near`, else the stay, else the itinerary's places to go.
        let stayPoint = try planStay(request.stay, trip: trip, pool: pool)
        var centre = try request.near.map { try planCentre($0, pool: pool) }
        if centre == nil { centre = stayPoint ?? Self.centre(of: stops.compactMap(Self.stopPoint)) }
        guard let centre else {
            throw ServiceError.invalid(
                "near", "say where the trip is: 'near' (a place, a city or LAT,LON), a 'stay' or an 'itinerary'")
        }
        let radius = (request.radiusKm ?? Self.defaultPlanRadiusKm) * 1_000

        let mustIDs = try Set(
            request.must.enumerated().map { i, ref in try planPlaceID(ref, pool: pool, field: "must[\(i)]") })
        let avoidIDs = try Set(
            request.avoid.enumerated().map { i, ref in try planPlaceID(ref, pool: pool, field: "avoid[\(i)]") })
        let interests = try planInterests(request.interests, pool: pool)

        var candidates = [PlanCandidate]()
        var existingStops = [String: String]()
        for var c in pool where !avoidIDs.contains(c.id) {
            c.must = mustIDs.contains(c.id)
            guard c.must || (c.point.map { $0.greatCircleDistanceMeters(to: centre) <= radius } ?? false) else {
                continue
            }
            candidates.append(c)
        }
        // Places to go already in the itinerary are kept (on their day when they have one).
        for stop in stops {
            let f = Views.fields(stop)
            let placeID = f[StopFields.placeID] ?? stop.id
            guard !avoidIDs.contains(placeID) else { continue }
            let day = f[StopFields.day].flatMap(LocalDate.init).flatMap { d in days.firstIndex(of: d) }
            if let i = candidates.firstIndex(where: { $0.id == placeID }) {
                candidates[i].must = true
                candidates[i].onlyDay = day
            } else {
                candidates.append(
                    PlanCandidate(
                        id: placeID, name: f[StopFields.name] ?? "", point: Self.stopPoint(stop), must: true,
                        onlyDay: day))
            }
            existingStops[placeID] = stop.id
        }
        candidates += Self.fixedVisits(trip, days: days)
        // A stable order: the answer is the same for the same inputs.
        candidates.sort { $0.id < $1.id }

        let stay = stayPoint ?? centre
        let budgetMs = request.timeBudgetMs ?? 2_000
        let planRequest = TripPlanRequest(
            days: days.map { PlanDay(date: $0.description, isoWeekday: Self.isoWeekday($0)) }, dayStart: dayStart,
            dayEnd: dayEnd, stay: stay, mode: request.mode ?? trip?.travelMode ?? .walking,
            budget: request.budget?.amountMinor, interests: interests, pace: request.pace, candidates: candidates,
            iterations: Self.planIterations(candidates.count), timeBudget: .milliseconds(budgetMs))
        return PlanContext(
            request: planRequest, currency: currency, itinerary: itinerary,
            shared: shared, existingStops: existingStops, days: days)
    }

    /// Solver rounds for a plan over `count` candidates: enough to settle, few enough that a
    /// 3-day plan over 500 places answers well within half a second (docs/benchmarks.md).
    static func planIterations(_ count: Int) -> Int { count > 200 ? 150 : 400 }

    /// 1 = Monday … 7 = Sunday (1970-01-01, day 0, was a Thursday).
    static func isoWeekday(_ date: LocalDate) -> Int {
        let r = (date.dayNumber + 3) % 7
        return (r < 0 ? r + 7 : r) + 1
    }

    static func stopPoint(_ record: Store.EntityRecord) -> GeoPoint? {
        let f = Views.fields(record)
        guard let lat = f[StopFields.latitude], let lon = f[StopFields.longitude] else { return nil }
        return GeoPoint(latitude: lat, longitude: lon)
    }

    static func centre(of points: [GeoPoint]) -> GeoPoint? {
        guard !points.isEmpty else { return nil }
        let n = Double(points.count)
        return GeoPoint(
            latitude: points.reduce(0) { $0 + $1.latitude } / n, longitude: points.reduce(0) { $0 + $1.longitude } / n)
    }

    /// A library place as a candidate.
    func planCandidate(
        _ record: Store.EntityRecord, favorite: Bool, currency: String, rates: [String: ExchangeRate]
    ) -> PlanCandidate {
        let f = Views.fields(record)
        typealias P = PlaceFields
        let point = f[P.latitude].flatMap { lat in f[P.longitude].map { GeoPoint(latitude: lat, longitude: $0) } }
        let categories = f[P.categories] ?? []
        return PlanCandidate(
            id: record.id, name: f[P.name] ?? "", point: point, categories: categories,
            hours: f[P.openingHours].map(OpeningHours.init), visitMinutes: f[P.visitMinutes].map(Int.init),
            cost: Self.planCost(
                entry: f[P.entryPrice], level: f[P.priceLevel].map(Int.init), food: PlanScoring.isFood(categories),
                currency: currency, rates: rates),
            signals: PlanSignals(mine: true, favorite: favorite, rating: f[P.rating]))
    }
}
