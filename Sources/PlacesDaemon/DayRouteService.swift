import Foundation
import PlacesControl
import PlacesModel
import PlacesRoutes
import PlacesTrips

/// `GET /v1/itineraries/{id}/route?day=…`: one day's route from the night before's lodging
/// to that night's, through the day's located places and items, timed ones in time order
/// (`DayRoutePlanner`); `day=all` with `format=geojson` gives every day's. Read on the
/// engine, solved by the caller off it, like whole-itinerary routes.
enum DayRouteService {
    /// What to solve for one day.
    struct Query: Sendable {
        var date: LocalDate
        var request: DayRouteRequest
    }

    /// The days to plan and their name, read on the engine.
    struct Reading: Sendable {
        var name: String
        var days: [Query]
    }

    static func route(_ engine: Engine, _ reference: String, day: String, query: [String: String]) async throws
        -> ControlResponse
    {
        let format = query["format"] ?? "json"
        if day == "all", format != "geojson" {
            throw ServiceError.invalid("day", "day=all gives the whole trip as GeoJSON only: add format=geojson")
        }
        let reading = try await engine.dayRouteReading(reference, day: day, query: query)
        let plans = try reading.days.map { q throws -> (LocalDate, DayRoutePlan) in
            do throws(RouteError) {
                return (q.date, try DayRoutePlanner.plan(q.request))
            } catch {
                throw ServiceError.route(error)
            }
        }
        if day == "all" {
            let located = plans.filter { !$0.1.route.stops.isEmpty }
            let text = RoutePlan.tripGeoJSON(days: located.map { (date: $0.0.description, plan: $0.1.route) })
            return .raw(status: 200, contentType: "application/geo+json", body: Array(text.utf8))
        }
        guard let (date, plan) = plans.first else { throw ServiceError.notFound("no such day") }
        let name = "\(reading.name) · \(date)"
        switch format {
        case "json": return .encoding(try json(plan, date: date))
        case "geojson":
            return .raw(status: 200, contentType: "application/geo+json", body: Array(plan.route.geoJSON().utf8))
        case "gpx":
            return .raw(status: 200, contentType: "application/gpx+xml", body: Array(plan.route.gpx(name: name).utf8))
        case "gmaps": return .encoding(plan.route.googleMapsDirections())
        case "svg":
            return .raw(status: 200, contentType: "image/svg+xml", body: Array(plan.route.svg(title: name).utf8))
        case let other:
            throw ServiceError.invalid("format", "format '\(other)' is not one of json, geojson, gpx, gmaps, svg")
        }
    }

    /// The day's `RoutePlan` with its date, timetable and late stops.
    static func json(_ plan: DayRoutePlan, date: LocalDate) throws -> JSONValue {
        let encoded = try JSONEncoder().encode(plan.route)
        guard case .object(var o) = try JSONDecoder().decode(JSONValue.self, from: encoded) else {
            throw ServiceError.internal("Route", "a plan did not encode as an object")
        }
        o["date"] = .string(date.description)
        o["schedule"] = .array(
            plan.schedule.map { s in
                var entry: [String: JSONValue] = ["id": .string(s.id), "lateMinutes": .int(Int64(s.lateMinutes))]
                if let a = s.arrivalMinute { entry["arrival"] = .string(clock(a)) }
                if let d = s.departureMinute { entry["departure"] = .string(clock(d)) }
                if let f = s.fixedMinute { entry["fixed"] = .string(clock(f)) }
                return .object(entry)
            })
        o["lateStops"] = .array(plan.lateStops.map(JSONValue.string))
        return .object(o)
    }

    /// `HH:MM` of a minute after midnight (`+1` for the next day's).
    static func clock(_ minute: Int) -> String {
        let day = minute / 1_440, m = minute % 1_440
        return String(format: "%02d:%02d", m / 60, m % 60) + (day > 0 ? "+\(day)" : "")
    }
}

extension Engine {
    /// The day requests of `GET …/route?day=`: read from the itinerary's snapshot.
    func dayRouteReading(_ reference: String, day: String, query: [String: String]) throws
        -> DayRouteService.Reading
    {
        let doc = try itineraryDoc(reference)
        let snapshot = try tripSnapshot(doc)
        let trip = snapshot.trip
        let schedule = snapshot.schedule
        let dates: [LocalDate]
        if day == "all" {
            dates = schedule.days.map(\.date)
        } else {
            let date = try Self.dayDate(.string(day), schedule: schedule, field: "day")
            guard schedule.day(on: date) != nil else {
                throw ServiceError.notFound("\(date) is not a day of this trip (see GET …/days)")
            }
            dates = [date]
        }
        guard let mode = TravelMode(rawValue: query["mode"] ?? trip.travelMode.rawValue) else {
            throw ServiceError.invalid("mode", "mode must be walking, cycling or driving")
        }
        guard let by = RouteCriterion(rawValue: query["by"] ?? "duration") else {
            throw ServiceError.invalid("by", "by must be duration or distance")
        }
        let byID = Dictionary(trip.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let days = dates.map { date -> DayRouteService.Query in
            let ends = TripDays.route(for: date, in: trip)
            var places = [RoutePlace]()
            var seen = Set<String>()
            var timed = [TimedStop]()
            for id in [ends.start].compactMap({ $0 }) + ends.stops + [ends.end].compactMap({ $0 }) {
                guard seen.insert(id).inserted, let item = byID[id], let point = item.location?.point else { continue }
                places.append(
                    RoutePlace(id: id, name: item.title, latitude: point.latitude, longitude: point.longitude))
                if id != ends.start, id != ends.end, let start = item.start, start.date == date,
                    let minute = start.minuteOfDay
                {
                    let end = item.end.flatMap { $0.date == date ? $0.minuteOfDay : nil }
                    timed.append(TimedStop(id: id, startMinute: minute, endMinute: end.map { max($0, minute) }))
                }
            }
            let request = DayRouteRequest(
                places: places, mode: mode, criterion: by, startID: ends.start.flatMap { seen.contains($0) ? $0 : nil },
                endID: ends.end.flatMap { seen.contains($0) ? $0 : nil }, timedStops: timed)
            return DayRouteService.Query(date: date, request: request)
        }
        let name = Views.fields(snapshot.root)[ItineraryFields.name] ?? "Trip"
        return DayRouteService.Reading(name: name, days: days)
    }
}
