extension RoutePlan {
    /// The route as an RFC 7946 GeoJSON `FeatureCollection`: one `Point` feature per stop
    /// (properties `id`, `name`, `order`), then, with two or more stops, one `LineString`
    /// feature for the path (closed on a round trip) with the plan's mode, criterion and
    /// totals. Positions are `[longitude, latitude]`.
    public func geoJSON() -> String {
        var features: [String] = []
        for stop in stops {
            let place = stop.place
            features.append(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
                    + position(place) + "},\"properties\":{\"id\":" + Formatting.jsonString(place.id)
                    + ",\"name\":" + Formatting.jsonString(place.name) + ",\"order\":\(stop.order)}}")
        }
        let path = pathPlaces
        if path.count >= 2 {
            let coordinates = path.map(position).joined(separator: ",")
            features.append(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[" + coordinates
                    + "]},\"properties\":{\"mode\":\"\(mode.rawValue)\",\"criterion\":\"\(criterion.rawValue)\""
                    + ",\"roundTrip\":\(roundTrip),\"distanceMeters\":\(Formatting.decimal(totals.distanceMeters))"
                    + ",\"durationSeconds\":\(Formatting.decimal(totals.durationSeconds)),\"optimal\":\(optimal)}}")
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}\n"
    }

    /// A whole trip's routes, one GeoJSON `FeatureCollection` per day:
    /// `{"days":[{"date":"2027-05-01","route":{"type":"FeatureCollection",…}},…]}`.
    ///
    /// Not one merged collection: each day stays a valid RFC 7946 document a map can load
    /// on its own, and the day it belongs to is said outside it. Days appear in the given
    /// order; `date` is written as given (the caller's `YYYY-MM-DD`).
    public static func tripGeoJSON(days: [(date: String, plan: RoutePlan)]) -> String {
        let entries = days.map { day in
            var route = day.plan.geoJSON()
            if route.hasSuffix("\n") { route.removeLast() }
            return "{\"date\":" + Formatting.jsonString(day.date) + ",\"route\":" + route + "}"
        }
        return "{\"days\":[" + entries.joined(separator: ",") + "]}\n"
    }

    private func position(_ place: RoutePlace) -> String {
        "[\(Formatting.coordinate(place.longitude)),\(Formatting.coordinate(place.latitude))]"
    }
}
