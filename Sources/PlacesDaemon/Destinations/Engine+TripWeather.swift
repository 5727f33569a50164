import Foundation
import PlacesDestinations
import PlacesModel
import PlacesRoutes
import PlacesTrips

/// The forecast on a trip's days (`GET /v1/itineraries/{id}/days`, `…/days/{day}`): each day
/// with a kept forecast for its date, for the destination its places lie in (else the trip's),
/// gets `weather` `{minC, maxC, condition, precipitationMm, source, fetchedAt, destination}`;
/// other days `null`. Read from what the weather loop keeps (it fetches for the cities of
/// trips starting within 7 days without the dashboard being shown): a trip's view never
/// waits for the network and asks no source itself (docs/destinations.md).
extension Engine {
    /// The forecast of each of the trip's days that has one, by `YYYY-MM-DD`; empty without a
    /// weather source or a kept forecast (the gazetteer is then not even loaded).
    func tripDayWeather(_ snapshot: TripSnapshot) -> [String: JSONValue] {
        guard let source = weatherSource(), hasKeptWeather(), let geography = try? destinationGeography() else {
            return [:]
        }
        let schedule = snapshot.schedule
        // The candidates a point may lie in, most specific first: her destinations, here, and
        // the city the point belongs to (the trip destinations the weather loop fetches for).
        var named = keptDestinations()
        if let here = keptHere() {
            named.append(
                Destination(
                    id: "here", name: here.name, kind: "here", latitude: here.latitude, longitude: here.longitude,
                    timeZone: here.timeZone))
        }
        let matchers = named.map { (destination: $0, inside: geography.matcher($0)) }
        func candidates(_ points: [GeoPoint]) -> [Destination] {
            var out = [Destination](), seen = Set<String>()
            for point in points {
                let city = geography.city(of: point)
                for m in matchers where m.inside(point, city) && seen.insert(m.destination.id).inserted {
                    out.append(m.destination)
                }
                if let city, let d = geography.destination(entry: city), seen.insert(d.id).inserted { out.append(d) }
            }
            return out
        }
        let tripCandidates = candidates(
            (snapshot.itemRecords + snapshot.stops).flatMap { Self.points(Views.fields($0)) })
        let now = destinationsComponent.now()
        var out = [String: JSONValue]()
        for day in schedule.days {
            let ids = day.items + (day.lodging.map { [$0] } ?? [])
            let dayPoints = ids.flatMap { id in snapshot.parsed[id].map { Self.points(Views.fields($0.record)) } ?? [] }
            let date = day.date.description
            for d in candidates(dayPoints) + tripCandidates {
                let key = DestinationsComponent.weatherKey(source, latitude: d.latitude, longitude: d.longitude)
                guard let entry = weatherEntry(d.id, key: key), let report = entry.report,
                    let fetchedAt = entry.fetchedAt,
                    now.timeIntervalSince(fetchedAt) <= DestinationsComponent.maxAgeSeconds,
                    let forecast = report.daily.first(where: { $0.date == date })
                else { continue }
                out[date] = .object([
                    "minC": .number(forecast.minC), "maxC": .number(forecast.maxC),
                    "condition": .string(forecast.condition), "code": .int(Int64(forecast.code)),
                    "precipitationMm": .number(forecast.precipitationMm), "source": .string(source.url),
                    "fetchedAt": .string(RFC3339.string(ms: Int64(fetchedAt.timeIntervalSince1970 * 1_000))),
                    "destination": .object(["id": .string(d.id), "name": .string(d.name)]),
                ])
                break
            }
        }
        return out
    }

    /// Whether any forecast is kept, in memory or in the device's cache.
    private func hasKeptWeather() -> Bool {
        if destinationsComponent.weather.values.contains(where: { $0.report != nil }) { return true }
        return !((try? store.localCache(prefix: Self.weatherCachePrefix))?.isEmpty ?? true)
    }

    /// The positions an item's or place's fields name (its location, a transport's end).
    private static func points(_ f: [String: JSONValue]) -> [GeoPoint] {
        var out = [GeoPoint]()
        for (lat, lon) in [
            (f["location.latitude"] ?? f["latitude"], f["location.longitude"] ?? f["longitude"]),
            (f["to.latitude"], f["to.longitude"]),
        ] {
            guard let lat = lat?.doubleValue, let lon = lon?.doubleValue, lat.isFinite, lon.isFinite, abs(lat) <= 90,
                abs(lon) <= 180
            else { continue }
            out.append(GeoPoint(latitude: lat, longitude: lon))
        }
        return out
    }
}
