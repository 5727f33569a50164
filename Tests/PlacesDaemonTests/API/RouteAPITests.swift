import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Routes through an itinerary's places to go, through the daemon's router (in-process).
@Suite("Route API", .serialized)
struct RouteAPITests {
    /// Five Lisbon sights added in a deliberately bad order.
    func lisbonTrip(_ t: LoggedInDaemon) async throws -> Itinerary {
        let places = try await [
            ("Belém Tower", 38.6916, -9.2160), ("São Jorge Castle", 38.7139, -9.1335), ("LX Factory", 38.7033, -9.1789),
            ("Time Out Market", 38.7069, -9.1459), ("Jerónimos", 38.6979, -9.2068),
        ].asyncMap { try await t.addPlace($0.0, $0.1, $0.2) }
        let ids = places.map { "\"\($0.id)\"" }.joined(separator: ",")
        return try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon","places":[\#(ids)]}"#)
    }

    @Test("the route visits every place once, proves optimality, and --apply reorders the itinerary")
    func planAndApply() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await lisbonTrip(t)
        let r = try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?mode=walking&by=distance")
        #expect(r.status == 200, "\(r.text)")
        let plan = try JSONDecoder().decode([String: JSONValue].self, from: Data(r.body))
        guard case .array(let stops)? = plan["stops"], case .array(let legs)? = plan["legs"] else {
            Issue.record("no stops or legs in \(r.text)")
            return
        }
        #expect(stops.count == 5 && legs.count == 4)
        #expect(plan["optimal"] == .bool(true))
        let order: [String] = stops.compactMap {
            guard case .object(let stop) = $0, case .object(let place)? = stop["place"] else { return nil }
            return place["name"]?.stringValue
        }
        #expect(Set(order).count == 5)
        // Belém Tower and Jerónimos are 700 m apart: a shortest walk visits them one after the other.
        let belem = order.firstIndex(of: "Belém Tower")!, jeronimos = order.firstIndex(of: "Jerónimos")!
        #expect(abs(belem - jeronimos) == 1 || Set([belem, jeronimos]) == [0, 4])

        let applied = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries/\(it.id)/route/apply?mode=walking&by=distance")
        #expect(applied.places.map(\.name) == order)
        let activity = try await t.d.call(ActivityList.self, "GET", "/v1/itineraries/\(it.id)/activity")
        #expect(activity.activity.contains { $0.action == "moved" })
    }

    @Test("fixed start and end are respected")
    func fixedEnds() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await lisbonTrip(t)
        let start = it.places[1], end = it.places[3]
        let r = try await t.d.send(
            "GET", "/v1/itineraries/\(it.id)/route?mode=driving&start=\(start.id)&end=\(end.placeId!)")
        #expect(r.status == 200, "\(r.text)")
        let plan = try JSONDecoder().decode([String: JSONValue].self, from: Data(r.body))
        guard case .array(let stops)? = plan["stops"] else {
            Issue.record("no stops")
            return
        }
        let ids: [String] = stops.compactMap {
            guard case .object(let stop) = $0, case .object(let place)? = stop["place"] else { return nil }
            return place["id"]?.stringValue
        }
        #expect(ids.first == start.id && ids.last == end.id)
    }

    @Test("exports: GeoJSON is longitude first, GPX lists the route in order, SVG numbers every stop, Maps links")
    func exports() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await lisbonTrip(t)
        let base = "/v1/itineraries/\(it.id)/route?mode=cycling&roundTrip=true"
        let geo = try await t.d.send("GET", base + "&format=geojson")
        #expect(geo.contentType == "application/geo+json")
        let geoText = geo.text
        #expect(geoText.contains("-9.216") && geoText.contains("LineString"))
        let gpx = try await t.d.send("GET", base + "&format=gpx")
        #expect(gpx.contentType == "application/gpx+xml")
        #expect(XMLParser(data: Data(gpx.body)).parse())
        #expect(gpx.text.components(separatedBy: "<rtept").count - 1 >= 5)
        let svg = try await t.d.send("GET", base + "&format=svg")
        #expect(svg.contentType == "image/svg+xml" && XMLParser(data: Data(svg.body)).parse())
        for n in 1...5 { #expect(svg.text.contains(">\(n)</text>")) }
        let maps = try await t.d.send("GET", base + "&format=gmaps")
        #expect(maps.text.contains("travelmode=bicycling"))
    }

    @Test("bad route requests get a precise 400")
    func badRequests() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await lisbonTrip(t)
        for (query, mentions) in [
            ("mode=flying", "walking, cycling or driving"), ("by=beauty", "duration or distance"),
            ("roundTrip=maybe", "true or false"), ("format=kml", "json, geojson"), ("start=ffffffff", "no place to go"),
        ] {
            let r = try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?\(query)")
            #expect(r.status == 400 || r.status == 404, "\(query): \(r.text)")
            #expect(r.text.contains(mentions), "\(query): \(r.text)")
        }
        let same = it.places[0].id
        let r = try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?start=\(same)&end=\(same)")
        #expect(r.status == 400, "\(r.text)")
    }
}
