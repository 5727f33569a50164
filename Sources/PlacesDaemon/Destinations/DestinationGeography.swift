import Foundation
import PlacesGazetteer
import PlacesRoutes
import PlacesTrips

/// What destinations read of the gazetteer: each entry's time zone, the city a point lies
/// in, and whether a point is inside a destination. Made once, with the gazetteer.
struct DestinationGeography: Sendable {
    let gazetteer: Gazetteer
    let zones: TimeZoneTable
    let grid: CityGrid

    /// A city or place destination holds what lies within this distance of its centre.
    static let cityRadiusKm = 30.0

    init(gazetteer: Gazetteer, zones: TimeZoneTable) {
        self.gazetteer = gazetteer
        self.zones = zones
        self.grid = CityGrid(gazetteer)
    }

    /// The zone of gazetteer entry `i`: a city's own; a region's or country's is the zone of
    /// the city nearest its centre (a population-weighted centre: the zone most of its
    /// people live in).
    func zone(ofEntry i: Int) -> String {
        if let id = gazetteer.cityID(i), let zone = zones.zone(ofCityID: id), TripTime.isKnownZone(zone) { return zone }
        return zone(latitude: gazetteer.latitude(i), longitude: gazetteer.longitude(i))
    }

    /// The zone at a position: the nearest gazetteer city's, however far; the nautical zone
    /// (`Etc/GMT±N`, 15° of longitude each) when the table knows no city (a test gazetteer).
    func zone(latitude: Double, longitude: Double) -> String {
        if let city = nearestCity(latitude: latitude, longitude: longitude), let id = gazetteer.cityID(city),
            let zone = zones.zone(ofCityID: id), TripTime.isKnownZone(zone)
        {
            return zone
        }
        // Within ±180°, so the rounded hours are within ±12: the conversion cannot trap.
        let hours = Int((max(-180, min(180, longitude)) / 15).rounded())
        // The tz database's signs are inverted: Etc/GMT-1 is one hour east of Greenwich.
        let zone = hours == 0 ? "Etc/UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
        return TripTime.isKnownZone(zone) ? zone : "UTC"
    }

    /// The nearest city at any distance: the grid first (about 100 km), then every city.
    func nearestCity(latitude: Double, longitude: Double) -> Int? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        if let near = grid.nearest(latitude: latitude, longitude: longitude, within: 100) { return near }
        let here = GeoPoint(latitude: latitude, longitude: longitude)
        var best: (index: Int, meters: Double)?
        for i in 0..<gazetteer.count where gazetteer.kind(i) == .city {
            let d = here.greatCircleDistanceMeters(
                to: GeoPoint(latitude: gazetteer.latitude(i), longitude: gazetteer.longitude(i)))
            if d < (best?.meters ?? .infinity) { best = (i, d) }
        }
        return best?.index
    }

    /// The city a point belongs to: the largest within 15 km, else the nearest within 30 km
    /// (as explore names the cities a trip goes to).
    func city(of point: GeoPoint) -> Int? {
        grid.largest(latitude: point.latitude, longitude: point.longitude, within: 15)
            ?? grid.nearest(latitude: point.latitude, longitude: point.longitude, within: Self.cityRadiusKm)
    }

    /// The destination gazetteer entry `i` makes (nil for a continent: too wide to be one).
    func destination(entry i: Int) -> Destination? {
        let g = gazetteer
        let kind = g.kind(i)
        guard kind != .continent else { return nil }
        let country = g.country(i)
        return Destination(
            id: g.id(i), name: g.name(i), kind: kind.rawValue, latitude: g.latitude(i), longitude: g.longitude(i),
            timeZone: zone(ofEntry: i), country: country.map { g.name($0) }, countryCode: g.countryCode(i),
            region: kind == .city ? g.region(i).map { g.name($0) } : nil, population: g.population(i))
    }
}
