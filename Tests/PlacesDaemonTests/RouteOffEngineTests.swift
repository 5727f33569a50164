import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// Route solving runs off the engine: the engine reads what to solve, the caller solves, and
/// the engine applies a solved order only to the places to go it was solved for.
@Suite("Routes are solved off the engine")
struct RouteOffEngineTests {
    @Test("a solved order is not applied when the places to go changed while it was solved")
    func staleOrderIsNotApplied() async throws {
        let fixture = try await OffEngineFixture(places: [
            ("A", 38.69, -9.21), ("B", 38.71, -9.13), ("C", 38.70, -9.17),
        ])
        defer { fixture.close() }
        let daemon = fixture.daemon
        let places = fixture.places
        func send(_ method: String, _ path: String, _ body: String) async -> PlacesControl.ControlResponse {
            await fixture.send(method, path, body)
        }
        let list = places.map { "\"\($0)\"" }.joined(separator: ",")
        guard
            case .json(201, let created) = await send(
                "POST", "/v1/itineraries", #"{"name":"Lisbon","places":[\#(list)]}"#)
        else { Issue.record("itinerary not created"); return }
        let itinerary = try JSONDecoder().decode(Itinerary.self, from: Data(created))

        let query = try await daemon.engine.routeQuery(itinerary.id, query: [:])
        let plan = try RouteService.plan(query)
        // Meanwhile someone removes a place to go: the order solved for three is not applied.
        let removed = itinerary.places[1].id
        guard case .json(200, _) = await send("DELETE", "/v1/itineraries/\(itinerary.id)/places/\(removed)", "")
        else { Issue.record("stop not removed"); return }
        let stale = try await daemon.engine.applyRoute(query, order: plan.stops.map(\.place.id))
        #expect(stale == nil)
        // Solved again for what is there now, it is applied.
        let fresh = try await daemon.engine.routeQuery(itinerary.id, query: [:])
        let applied = try await daemon.engine.applyRoute(
            fresh, order: try RouteService.plan(fresh).stops.map(\.place.id))
        #expect(applied?.places.count == 2)
    }
}
