import Foundation
import PlacesGazetteer
import PlacesModel
import PlacesRoutes
import PlacesStore
import PlacesTrips

/// What the dashboard reads of the store (her and her friends' places, her upcoming trips,
/// with the city of every point), read once per store generation: a dashboard of ten
/// destinations over 10,000 places reads no table twice.
extension Engine {
    /// The most trip cities listed as destinations.
    static let maxTripDestinations = 20

    func dashboardInputs(_ geography: DestinationGeography) throws -> DestinationsComponent.DashboardInputs {
        let generation = store.generations.current
        if let inputs = destinationsComponent.inputs, inputs.generation == generation { return inputs }
        let places = try savedPlaces()
        let inputs = DestinationsComponent.DashboardInputs(
            generation: generation, places: places, placeCities: places.map { geography.city(of: $0.point) },
            trips: try upcomingTrips(geography))
        destinationsComponent.inputs = inputs
        return inputs
    }

    /// Her trips (any role) with a date that has not passed on this machine's calendar, with
    /// the points of their places to go and items (stays, transport ends, meals, activities).
    private func upcomingTrips(_ geography: DestinationGeography) throws -> [DestinationsComponent.UpcomingTrip] {
        let now = destinationsComponent.now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        let today = Self.dateText(c.year ?? 1970, c.month ?? 1, c.day ?? 1)
        var out = [DestinationsComponent.UpcomingTrip]()
        for summary in try itineraries(scope: "all").itineraries {
            guard let last = summary.endDate ?? summary.startDate, last >= today,
                let doc = try? itineraryDoc(summary.id), let snapshot = try? tripSnapshot(doc)
            else { continue }
            var points = [(point: GeoPoint, city: Int?)]()
            func add(_ latitude: JSONValue?, _ longitude: JSONValue?) {
                guard let lat = latitude?.doubleValue, let lon = longitude?.doubleValue, lat.isFinite, lon.isFinite,
                    abs(lat) <= 90, abs(lon) <= 180
                else { return }
                let point = GeoPoint(latitude: lat, longitude: lon)
                points.append((point, geography.city(of: point)))
            }
            for record in snapshot.itemRecords + snapshot.stops {
                let f = Views.fields(record)
                add(f["location.latitude"] ?? f["latitude"], f["location.longitude"] ?? f["longitude"])
                add(f["to.latitude"], f["to.longitude"])
            }
            out.append(
                .init(
                    id: summary.id, name: summary.name, startDate: summary.startDate, endDate: summary.endDate,
                    points: points))
        }
        return out
    }

    /// Her upcoming trips that go to `d`, soonest first, with the days until each starts
    /// (counted from `today`, the destination's local date; negative once under way).
    func tripsIn(
        _ d: Destination, _ inputs: DestinationsComponent.DashboardInputs, _ geography: DestinationGeography,
        today: String? = nil
    ) -> [JSONValue] {
        let inside = geography.matcher(d)
        let todayNumber = today.flatMap { LocalDate($0) }?.dayNumber
        return inputs.trips.filter { trip in trip.points.contains { inside($0.point, $0.city) } }
            .sorted { ($0.startDate ?? "9999", $0.id) < ($1.startDate ?? "9999", $1.id) }
            .map { trip in
                var o: [String: JSONValue] = [
                    "id": .string(trip.id), "name": .string(trip.name),
                    "startDate": trip.startDate.map { .string($0) } ?? .null,
                    "endDate": trip.endDate.map { .string($0) } ?? .null,
                ]
                if let todayNumber, let start = trip.startDate.flatMap({ LocalDate($0) }) {
                    o["daysUntil"] = .int(Int64(start.dayNumber - todayNumber))
                }
                return .object(o)
            }
    }

    /// The cities her upcoming trips go to, in trip order, each with its trips.
    func tripDestinations(_ inputs: DestinationsComponent.DashboardInputs, _ geography: DestinationGeography)
        -> [(destination: Destination, trips: [JSONValue])]
    {
        var seen = Set<Int>()
        var out = [(destination: Destination, trips: [JSONValue])]()
        for trip in inputs.trips.sorted(by: { ($0.startDate ?? "9999", $0.id) < ($1.startDate ?? "9999", $1.id) }) {
            for case let city? in trip.points.map(\.city) where out.count < Self.maxTripDestinations {
                guard seen.insert(city).inserted, let destination = geography.destination(entry: city) else { continue }
                out.append((destination, tripsIn(destination, inputs, geography)))
            }
        }
        return out
    }
}
