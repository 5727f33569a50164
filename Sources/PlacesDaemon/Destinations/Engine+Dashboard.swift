import Foundation
import PlacesDestinations
import PlacesGazetteer
import PlacesModel
import PlacesRoutes
import PlacesStore
import PlacesTrips

/// `GET /v1/dashboard` and `GET /v1/dashboard/{id}`: a card for "here" and each destination
/// (docs/destinations.md, "The card").
extension Engine {
    /// How many places and published trips a card lists (the spot of the day is drawn from
    /// all the places, not only those listed).
    static let cardPlaces = 20
    static let cardTrips = 3

    /// `GET /v1/dashboard`.
    func dashboard() throws -> JSONValue {
        try requireLogin()
        let context = try dashboardContext()
        var cards = [JSONValue]()
        let added = keptDestinations()
        for destination in added { cards.append(card(destination, context, source: "added")) }
        for (destination, _) in tripDestinations(context.inputs, context.geography)
        where !added.contains(where: { $0.id == destination.id }) {
            cards.append(card(destination, context, source: "trip"))
        }
        return .object([
            "here": context.here.map { card($0, context, source: "here") } ?? .null, "destinations": .array(cards),
        ])
    }

    /// `GET /v1/dashboard/{id}`: one card, by destination id, `here`, or a destination's exact
    /// name (case and accents ignored).
    func dashboardCard(_ reference: String) throws -> JSONValue {
        try requireLogin()
        let context = try dashboardContext()
        if reference == "here" {
            guard let here = context.here else {
                throw ServiceError.notFound("'here' is not set: `places here LAT,LON` or `places here PLACE`")
            }
            return card(here, context, source: "here")
        }
        let added = keptDestinations()
        let all = added + tripDestinations(context.inputs, context.geography).map(\.destination)
        let folded = NameFolding.fold(reference)
        guard
            let destination = all.first(where: { $0.id == reference })
                ?? all.first(where: { NameFolding.fold($0.name) == folded })
        else {
            throw ServiceError.notFound(
                "no destination '\(reference.prefix(80))': `places destination list` shows them")
        }
        return card(destination, context, source: added.contains { $0.id == destination.id } ? "added" : "trip")
    }

    /// What every card of one request reads.
    struct DashboardContext {
        var geography: DestinationGeography
        var inputs: DestinationsComponent.DashboardInputs
        var now: Date
        /// Her own zone: here's, else this machine's.
        var myZone: TimeZone
        var here: Destination?
        var visited: Set<String>
        var source: WeatherSource?
    }

    private func dashboardContext() throws -> DashboardContext {
        let geography = try destinationGeography()
        let inputs = try dashboardInputs(geography)
        let now = destinationsComponent.now()
        destinationsComponent.lastViewed = now
        let here = keptHere()
        let myZone = here.flatMap { Self.zone($0.timeZone) } ?? TimeZone.current
        let hereDestination = here.map { h in
            Destination(
                id: "here", name: h.name, kind: "here", latitude: h.latitude, longitude: h.longitude,
                timeZone: h.timeZone, country: nil, countryCode: nil, region: nil, population: nil)
        }
        let context = DashboardContext(
            geography: geography, inputs: inputs, now: now, myZone: myZone, here: hereDestination,
            visited: visitedPlaces(), source: weatherSource())
        return context
    }

    /// A checked IANA zone, nil for one this build does not know.
    static func zone(_ name: String) -> TimeZone? { TripTime.isKnownZone(name) ? TimeZone(identifier: name) : nil }

    /// One card.
    private func card(_ d: Destination, _ context: DashboardContext, source: String) -> JSONValue {
        let zone = Self.zone(d.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.dateComponents([.year, .month, .day], from: context.now)
        let (year, month, day) = (today.year ?? 1970, today.month ?? 1, today.day ?? 1)
        let date = (year: year, month: month, day: day)
        let dateText = Self.dateText(year, month, day)
        let offset = zone.secondsFromGMT(for: context.now) / 60
        let mine = context.myZone.secondsFromGMT(for: context.now) / 60
        var o: [String: JSONValue] = [
            "id": .string(d.id), "name": .string(d.name), "kind": .string(d.kind), "source": .string(source),
            "country": d.country.map { .string($0) } ?? .null,
            "countryCode": d.countryCode.map { .string($0) } ?? .null,
            "region": d.region.map { .string($0) } ?? .null, "population": d.population.map { .int($0) } ?? .null,
            "latitude": .number(d.latitude), "longitude": .number(d.longitude), "timeZone": .string(d.timeZone),
            "localTime": .string(Self.localText(context.now, calendar)), "utcOffsetMinutes": .int(Int64(offset)),
            "differenceMinutes": .int(Int64(offset - mine)),
        ]
        Self.addSun(&o, d, date: date, calendar: calendar)
        // What lies in the destination.
        let inputs = context.inputs
        let content = cardContent(d, context)
        let places = content.places
        let me = self.me?.humanID
        o["places"] = .array(
            places.prefix(Self.cardPlaces).map { entry in
                .object([
                    "placeId": .string(entry.place.id), "name": .string(entry.place.name),
                    "savedBy": .array(entry.place.savedBy.map { .string($0.id == me ? "you" : $0.name) }),
                    "visited": .bool(context.visited.contains(entry.place.id)),
                ])
            })
        o["placeCount"] = .int(Int64(places.count))
        o["trips"] = .array(tripsIn(d, inputs, context.geography, today: dateText))
        o["explore"] = .array(content.explore)
        if let pick = spotOfTheDay(d, content, date: dateText, visited: context.visited) {
            let spot = places[pick].place
            let others = spot.savedBy.filter { $0.id != me }.map(\.name)
            let reason =
                spot.savedBy.contains { $0.id == me }
                ? (others.isEmpty ? "you saved it" : "you and \(others.joined(separator: ", ")) saved it")
                : "\(others.joined(separator: ", ")) saved it"
            o["spotOfTheDay"] = .object([
                "placeId": .string(spot.id), "name": .string(spot.name), "reason": .string(reason),
                "latitude": .number(spot.point.latitude), "longitude": .number(spot.point.longitude),
            ])
        } else {
            o["spotOfTheDay"] = .null
        }
        let weather = weatherCard(d, source: context.source, now: context.now)
        // A card whose forecast is due wakes the weather loop; one that is not leaves it asleep
        // (waking it on every view made each request pay for a second pass over the cards).
        if weather.due { nudgeWeather() }
        o["weather"] = weather.weather
        o["weatherStatus"] = .string(weather.status)
        o["weatherError"] = weather.error.map { .string($0) } ?? .null
        o["trips"] = Self.withForecast(o["trips"] ?? .array([]), weather.weather)
        return .object(o)
    }

    /// The places in `d` and the published trips that go there, read once per store
    /// generation (`DestinationsComponent.CardContent`).
    private func cardContent(_ d: Destination, _ context: DashboardContext) -> DestinationsComponent.CardContent {
        let inputs = context.inputs
        let key = DestinationsComponent.CardContent.key(d)
        if let held = destinationsComponent.cardContents[key], held.generation == inputs.generation { return held }
        if destinationsComponent.cardContents.values.contains(where: { $0.generation != inputs.generation }) {
            destinationsComponent.cardContents = [:]
        }
        let inside = context.geography.matcher(d)
        var places = [(place: SavedPlace, mine: Bool)]()
        let me = self.me?.humanID
        for (i, place) in inputs.places.enumerated() where inside(place.point, inputs.placeCities[i]) {
            places.append((place, place.savedBy.contains { $0.id == me }))
        }
        places.sort { ($0.mine ? 0 : 1, $0.place.name, $0.place.id) < ($1.mine ? 0 : 1, $1.place.name, $1.place.id) }
        let content = DestinationsComponent.CardContent(
            generation: inputs.generation, places: places, explore: exploreFor(d))
        destinationsComponent.cardContents[key] = content
        return content
    }

    /// The index in `content.places` of the day's spot (`SpotOfTheDay`, over the places not
    /// visited), kept with the content for the same date and visited places: hashing every
    /// place of every card was most of a request's time (`perf`, docs/benchmarks.md).
    private func spotOfTheDay(
        _ d: Destination, _ content: DestinationsComponent.CardContent, date: String, visited: Set<String>
    ) -> Int? {
        if let held = content.spot, held.date == date, held.visited == visited { return held.index }
        var ids = [String](), at = [Int]()
        for (i, entry) in content.places.enumerated() where !visited.contains(entry.place.id) {
            ids.append(entry.place.id)
            at.append(i)
        }
        let index = SpotOfTheDay.pick(date: date, destination: d.id, candidates: ids).map { at[$0] }
        destinationsComponent.cardContents[DestinationsComponent.CardContent.key(d)]?.spot = (date, visited, index)
        return index
    }

    /// Each trip with the forecast's days that fall within its dates (`forecast`), when
    /// there is a forecast and the trip has dates.
    static func withForecast(_ trips: JSONValue, _ weather: JSONValue) -> JSONValue {
        guard case .array(let list) = trips, let days = weather.objectValue?["daily"]?.arrayValue, !days.isEmpty else {
            return trips
        }
        return .array(
            list.map { trip in
                guard var t = trip.objectValue, let start = t["startDate"]?.stringValue else { return trip }
                let end = t["endDate"]?.stringValue ?? start
                t["forecast"] = .array(
                    days.filter { day in
                        guard let date = day.objectValue?["date"]?.stringValue else { return false }
                        return date >= start && date <= end
                    })
                return .object(t)
            })
    }

    /// `sunrise`, `sunset` (local, null in polar day or night) and `dayLengthMinutes`. The
    /// sun's day is the one around the local day's noon: in a zone far from solar time (Apia,
    /// 13 hours ahead of UTC at 172° W) the UTC date of the events is not the local one.
    private static func addSun(
        _ o: inout [String: JSONValue], _ d: Destination, date: (year: Int, month: Int, day: Int), calendar: Calendar
    ) {
        let noon = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        // Solar time at the destination: UTC moved by 4 minutes per degree of longitude.
        let solar = noon.map {
            utc.dateComponents([.year, .month, .day], from: $0.addingTimeInterval(d.longitude * 240))
        }
        guard let solar, let y = solar.year, let m = solar.month, let day = solar.day,
            let sun = SunTimes(latitude: d.latitude, longitude: d.longitude, year: y, month: m, day: day),
            let midnight = utc.date(from: DateComponents(year: y, month: m, day: day))
        else {
            o["sunrise"] = .null
            o["sunset"] = .null
            o["dayLengthMinutes"] = .null
            return
        }
        o["sunrise"] =
            sun.sunriseMinutesUTC.map { .string(localText(midnight.addingTimeInterval($0 * 60), calendar)) } ?? .null
        o["sunset"] =
            sun.sunsetMinutesUTC.map { .string(localText(midnight.addingTimeInterval($0 * 60), calendar)) } ?? .null
        o["dayLengthMinutes"] = .int(Int64(sun.dayLengthMinutes))
        o["sun"] = .string(sun.kind.rawValue)
    }

    /// `YYYY-MM-DD`.
    static func dateText(_ year: Int, _ month: Int, _ day: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + two(month) + "-" + two(day)
    }

    /// `YYYY-MM-DDTHH:MM` in the calendar's zone.
    static func localText(_ instant: Date, _ calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return dateText(c.year ?? 1970, c.month ?? 1, c.day ?? 1) + "T\(two(c.hour)):\(two(c.minute))"
    }

    /// The most liked published trips (likes from people she knows first, as explore ranks
    /// them) that go to the destination: to its city (or a place's nearest city), in its
    /// country for a region or country.
    private func exploreFor(_ d: Destination) -> [JSONValue] {
        guard let country = d.countryCode else { return [] }
        var query = ["sort": "likes", "limit": "\(Self.cardTrips)", "country": country]
        if d.kind == "city" { query["q"] = d.name }
        guard case .object(let o)? = try? exploreComponent.list(query: query, exploreContext),
            let trips = o["trips"]?.arrayValue
        else { return [] }
        return trips.compactMap { trip in
            guard let t = trip.objectValue else { return nil }
            return .object([
                "id": t["id"] ?? .null, "name": t["name"] ?? .null, "likesKnown": t["likesKnown"] ?? .int(0),
                "likes": t["likes"] ?? .int(0),
            ])
        }
    }
}

extension DestinationGeography {
    /// Whether a point (with its city) lies in `d`, its gazetteer entry looked up once.
    func matcher(_ d: Destination) -> (GeoPoint, Int?) -> Bool {
        switch d.kind {
        case "region", "country":
            guard let entry = gazetteer.index(ofID: d.id) else { return { _, _ in false } }
            let region = d.kind == "region"
            return { _, city in
                guard let city else { return false }
                return region ? gazetteer.region(city) == entry : gazetteer.country(city) == entry
            }
        default:
            let centre = GeoPoint(latitude: d.latitude, longitude: d.longitude)
            let meters = Self.cityRadiusKm * 1_000
            return { point, _ in centre.greatCircleDistanceMeters(to: point) <= meters }
        }
    }
}
