import Foundation
import Testing

@testable import PlacesRoutes

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A small day in Paris, with a name that needs escaping everywhere.
let parisPlaces = [
    RoutePlace(id: "louvre", name: "Musée du Louvre", latitude: 48.8606, longitude: 2.3376),
    RoutePlace(id: "eiffel", name: "Tour Eiffel", latitude: 48.8584, longitude: 2.2945),
    RoutePlace(id: "notre-dame", name: "Notre-Dame", latitude: 48.8530, longitude: 2.3499),
    RoutePlace(id: "cafe", name: "Café <Flore> & \"Co\" 'bis'", latitude: 48.8540, longitude: 2.3325),
    RoutePlace(id: "sacre", name: "Sacré-Cœur", latitude: 48.8867, longitude: 2.3431),
]

/// `count` places on a line heading north-east from Paris.
func linePlaces(_ count: Int) -> [RoutePlace] {
    (0..<count).map {
        RoutePlace(
            id: "p\($0)", name: "Place \($0)", latitude: 48.85 + 0.001 * Double($0),
            longitude: 2.35 + 0.001 * Double($0))
    }
}

@Suite("Route plans")
struct RoutePlanTests {
    @Test("a plan lists every place once with consistent legs and totals", arguments: [false, true])
    func planShape(roundTrip: Bool) throws {
        let plan = try RoutePlanner.plan(
            RoutePlanRequest(
                places: parisPlaces, mode: .walking, criterion: .distance, roundTrip: roundTrip, startID: "louvre"))
        #expect(plan.stops.map(\.place.id).sorted() == parisPlaces.map(\.id).sorted())
        #expect(plan.stops.map(\.order) == Array(1...5))
        #expect(plan.stops.first?.place.id == "louvre")
        #expect(plan.legs.count == (roundTrip ? 5 : 4))
        #expect(plan.optimal)
        for (index, leg) in plan.legs.enumerated() {
            #expect(leg.from == plan.stops[index].place.id)
            #expect(leg.to == plan.stops[(index + 1) % 5].place.id)
        }
        #expect(abs(plan.totals.distanceMeters - plan.legs.map(\.distanceMeters).reduce(0, +)) < 0.01)
        // Walking at 5 km/h: duration follows distance.
        #expect(abs(plan.totals.durationSeconds - plan.totals.distanceMeters / (5_000.0 / 3_600)) < 1)
    }

    @Test("the cost model: haversine distance times the detour factor, at the mode's speed")
    func costModel() throws {
        let a = GeoPoint(latitude: 0, longitude: 0)
        let b = GeoPoint(latitude: 0, longitude: 1)
        // One degree of longitude on the equator of the mean-radius sphere.
        #expect(abs(a.greatCircleDistanceMeters(to: b) - 111_195.08) < 0.1)
        let matrices = try GreatCircleMatrixProvider().travelMatrices(for: [a, b], mode: .driving)
        #expect(abs(matrices.distanceMeters[0, 1] - 111_195.08 * 1.4) < 0.2)
        #expect(abs(matrices.durationSeconds[0, 1] - 111_195.08 * 1.4 / (40_000.0 / 3_600)) < 0.1)
    }

    @Test("duration and distance are separate criteria")
    func criteria() throws {
        // A fast detour: 0→2 is long but quick, so the two criteria disagree.
        let distance = try CostMatrix([[0, 10, 30], [10, 0, 10], [30, 10, 0]])
        let duration = try CostMatrix([[0, 100, 1], [100, 0, 1], [1, 1, 0]])
        let matrices = try TravelMatrices(distanceMeters: distance, durationSeconds: duration)
        let places = Array(parisPlaces.prefix(3))
        let byDistance = try RoutePlanner.plan(
            RoutePlanRequest(places: places, criterion: .distance, startID: places[0].id), matrices: matrices)
        let byDuration = try RoutePlanner.plan(
            RoutePlanRequest(places: places, criterion: .duration, startID: places[0].id), matrices: matrices)
        #expect(byDistance.stops.map(\.place.id) == [places[0].id, places[1].id, places[2].id])
        #expect(byDuration.stops.map(\.place.id) == [places[0].id, places[2].id, places[1].id])
    }

    @Test("an external provider is used through the async seam")
    func provider() async throws {
        struct Fixed: TravelMatrixProvider {
            func matrices(for points: [GeoPoint], mode: TravelMode) async throws(RouteError) -> TravelMatrices {
                let n = points.count
                let ones = try CostMatrix(count: n, values: (0..<(n * n)).map { $0 % (n + 1) == 0 ? 0 : 1 })
                return try TravelMatrices(distanceMeters: ones, durationSeconds: ones)
            }
        }
        let plan = try await RoutePlanner.plan(
            RoutePlanRequest(places: parisPlaces, roundTrip: true), provider: Fixed())
        #expect(plan.totals.distanceMeters == 5)
    }

    @Test("0, 1 and 2 places and places at the same spot")
    func smallPlans() throws {
        let empty = try RoutePlanner.plan(RoutePlanRequest(places: []))
        #expect(empty.stops.isEmpty && empty.legs.isEmpty && empty.totals.distanceMeters == 0)
        let one = try RoutePlanner.plan(RoutePlanRequest(places: [parisPlaces[0]], roundTrip: true))
        #expect(one.stops.count == 1 && one.legs.isEmpty)
        let two = try RoutePlanner.plan(RoutePlanRequest(places: Array(parisPlaces.prefix(2)), endID: "louvre"))
        #expect(two.stops.map(\.place.id) == ["eiffel", "louvre"] && two.legs.count == 1)
        let twins = (0..<4).map { RoutePlace(id: "t\($0)", name: "Twin \($0)", latitude: 48.85, longitude: 2.35) }
        let same = try RoutePlanner.plan(RoutePlanRequest(places: twins, roundTrip: true))
        #expect(same.stops.count == 4 && same.totals.distanceMeters == 0)
    }

    @Test("bad requests are refused with the code that names the problem")
    func badRequests() {
        func request(_ places: [RoutePlace], start: String? = nil, end: String? = nil, roundTrip: Bool = false)
            -> RoutePlanRequest
        { RoutePlanRequest(places: places, roundTrip: roundTrip, startID: start, endID: end) }
        func place(_ lat: Double, _ lon: Double) -> RoutePlace {
            RoutePlace(id: "x", name: "x", latitude: lat, longitude: lon)
        }
        #expect(errorCode { _ = try RoutePlanner.plan(request([place(91, 0)])) } == .invalidCoordinate)
        #expect(errorCode { _ = try RoutePlanner.plan(request([place(0, -180.5)])) } == .invalidCoordinate)
        #expect(errorCode { _ = try RoutePlanner.plan(request([place(.nan, 0)])) } == .invalidCoordinate)
        #expect(errorCode { _ = try RoutePlanner.plan(request([place(0, .infinity)])) } == .invalidCoordinate)
        #expect(errorCode { _ = try RoutePlanner.plan(request([place(1, 1), place(2, 2)])) } == .duplicatePlaceID)
        #expect(errorCode { _ = try RoutePlanner.plan(request(parisPlaces, start: "nowhere")) } == .indexOutOfRange)
        #expect(errorCode { _ = try RoutePlanner.plan(request(parisPlaces, end: "nowhere")) } == .indexOutOfRange)
        #expect(
            errorCode { _ = try RoutePlanner.plan(request(parisPlaces, start: "cafe", end: "cafe")) }
                == .invalidEndpoints)
        #expect(
            errorCode { _ = try RoutePlanner.plan(request(parisPlaces, start: "cafe", end: "cafe", roundTrip: true)) }
                == nil)
        #expect(errorCode { _ = try RoutePlanner.plan(request(linePlaces(501))) } == .tooManyNodes)
        let wrongSize = try! TravelMatrices(distanceMeters: CostMatrix([[0.0]]), durationSeconds: CostMatrix([[0.0]]))
        #expect(errorCode { _ = try RoutePlanner.plan(request(parisPlaces), matrices: wrongSize) } == .providerFailed)
        #expect(
            errorCode {
                _ = try TravelMatrices(distanceMeters: CostMatrix([[0.0]]), durationSeconds: CostMatrix([[Double]]()))
            }
                == .providerFailed)
    }

    @Test("plans encode to camelCase JSON")
    func json() throws {
        let plan = try RoutePlanner.plan(RoutePlanRequest(places: Array(parisPlaces.prefix(2))))
        let text = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        for key in ["\"distanceMeters\"", "\"durationSeconds\"", "\"roundTrip\"", "\"totals\"", "\"optimal\""] {
            #expect(text.contains(key))
        }
        #expect(try JSONDecoder().decode(RoutePlan.self, from: Data(text.utf8)) == plan)
    }
}

/// Collects elements and attributes from an XML document.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var text: [String: [String]] = [:]
    private var current = ""
    private var buffer = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((elementName, attributes))
        current = elementName
        buffer = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { buffer += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        text[elementName, default: []].append(buffer)
        buffer = ""
    }

    static func parse(_ document: String) -> XMLCollector? {
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(document.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }
}

@Suite("Route exports")
struct RouteExportTests {
    let plan: RoutePlan

    init() throws {
        plan = try RoutePlanner.plan(RoutePlanRequest(places: parisPlaces, roundTrip: true, startID: "louvre"))
    }

    @Test("GeoJSON is a FeatureCollection with lon-first points and a closed LineString")
    func geoJSON() throws {
        let object = try JSONSerialization.jsonObject(with: Data(plan.geoJSON().utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "FeatureCollection")
        let features = try #require(object?["features"] as? [[String: Any]])
        #expect(features.count == 6)
        let first = try #require(features.first)
        let geometry = try #require(first["geometry"] as? [String: Any])
        let coordinates = try #require(geometry["coordinates"] as? [Double])
        #expect(coordinates == [2.3376, 48.8606])
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(properties["name"] as? String == "Musée du Louvre")
        #expect(properties["order"] as? Int == 1)
        let line = try #require(features.last?["geometry"] as? [String: Any])
        #expect(line["type"] as? String == "LineString")
        let path = try #require(line["coordinates"] as? [[Double]])
        #expect(path.count == 6 && path.first == path.last)
        // The quoted, ampersanded name survives.
        let names = features.compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }
        #expect(names.contains("Café <Flore> & \"Co\" 'bis'"))
    }

    @Test("GPX 1.1 parses and lists the route points in visiting order")
    func gpx() throws {
        let collector = try #require(XMLCollector.parse(plan.gpx(name: "Day <1> & more")))
        let root = try #require(collector.elements.first)
        #expect(root.name == "gpx" && root.attributes["version"] == "1.1")
        #expect(root.attributes["xmlns"] == "http://www.topografix.com/GPX/1/1")
        #expect(collector.elements.filter { $0.name == "wpt" }.count == 5)
        let routePoints = collector.elements.filter { $0.name == "rtept" }
        let expected = (plan.stops + [plan.stops[0]]).map(\.place)
        #expect(routePoints.count == expected.count)
        for (point, place) in zip(routePoints, expected) {
            #expect(Double(point.attributes["lat"] ?? "") == place.latitude)
            #expect(Double(point.attributes["lon"] ?? "") == place.longitude)
        }
        #expect(collector.text["name"]?.contains("Café <Flore> & \"Co\" 'bis'") == true)
        #expect(collector.text["name"]?.first == "Day <1> & more")
    }

    @Test("Google Maps link: origin, destination, waypoints, travel mode")
    func googleMaps() throws {
        let directions = plan.googleMapsDirections()
        #expect(directions.urls.count == 1 && !directions.isSplit && directions.note == nil)
        let url = try #require(directions.urls.first)
        #expect(url.hasPrefix("https://www.google.com/maps/dir/?api=1&origin=48.8606%2C2.3376"))
        #expect(url.contains("&destination=48.8606%2C2.3376"))  // round trip: back to the Louvre
        #expect(url.contains("&travelmode=walking"))
        #expect(url.components(separatedBy: "%7C").count == 4)  // 4 waypoints between
        let components = try #require(URLComponents(string: url))
        let waypoints = components.queryItems?.first { $0.name == "waypoints" }?.value
        #expect(waypoints?.split(separator: "|").count == 4)
    }

    @Test("routes with more than 9 waypoints are split into chained links")
    func googleMapsSplit() throws {
        let places = linePlaces(25)
        let plan = try RoutePlanner.plan(RoutePlanRequest(places: places, mode: .cycling, startID: "p0", endID: "p24"))
        let directions = plan.googleMapsDirections()
        #expect(directions.isSplit && directions.note != nil)
        #expect(directions.urls.count == 3)  // 25 points: 11 + 10 + 4 with shared ends
        var previousDestination: String?
        var waypointTotal = 0
        for url in directions.urls {
            let items = try #require(URLComponents(string: url)?.queryItems)
            let value = { (name: String) in items.first { $0.name == name }?.value }
            let waypoints = value("waypoints")?.split(separator: "|") ?? []
            #expect(waypoints.count <= 9)
            waypointTotal += waypoints.count
            if let previousDestination { #expect(value("origin") == previousDestination) }
            previousDestination = value("destination")
            #expect(value("travelmode") == "bicycling")
        }
        #expect(waypointTotal + directions.urls.count + 1 == 25)
        let exactlyEleven = try RoutePlanner.plan(RoutePlanRequest(places: linePlaces(11))).googleMapsDirections()
        #expect(exactlyEleven.urls.count == 1)
    }

    @Test("SVG parses as XML with a numbered marker per stop and a title with totals", arguments: [1, 2, 5])
    func svg(count: Int) throws {
        let places = count == 5 ? parisPlaces : Array(parisPlaces.prefix(count))
        let plan = try RoutePlanner.plan(RoutePlanRequest(places: places, roundTrip: true))
        let collector = try #require(XMLCollector.parse(plan.svg(title: "Paris & <more>")))
        #expect(collector.elements.first?.name == "svg")
        let stops = collector.elements.filter { $0.attributes["class"] == "stop" }
        #expect(stops.compactMap { Int($0.attributes["data-order"] ?? "") }.sorted() == Array(1...count))
        let texts = collector.text["text"] ?? []
        for order in 1...count { #expect(texts.contains(String(order))) }
        #expect(texts.contains { $0.contains("km") || $0.contains(" m") })
        #expect(texts.contains("optimal"))
        #expect(texts.contains("Paris & <more>"))
        let svgText = plan.svg()
        #expect(!svgText.contains("nan") && !svgText.contains("inf"))
    }

    @Test("SVG of identical places draws every marker without dividing by zero")
    func svgIdentical() throws {
        let twins = (0..<3).map { RoutePlace(id: "t\($0)", name: "Twin \($0)", latitude: 48.85, longitude: 2.35) }
        let text = try RoutePlanner.plan(RoutePlanRequest(places: twins)).svg()
        let collector = try #require(XMLCollector.parse(text))
        #expect(collector.elements.filter { $0.attributes["class"] == "stop" }.count == 3)
        #expect(!text.contains("nan") && !text.contains("inf"))
    }
}
