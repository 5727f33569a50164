import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesPlanner
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// A plan is made off the engine: the engine reads what to plan, the caller plans, and the
/// engine writes it only if the itinerary still holds the places to go the plan kept.
@Suite("Plans are made off the engine")
struct PlanOffEngineTests {
    @Test("a plan is not applied when a place to go it kept was removed meanwhile: nothing is written")
    func stalePlanIsNotApplied() async throws {
        let fixture = try await OffEngineFixture(places: [
            ("Sé", 38.7100, -9.1335), ("Carmo", 38.7120, -9.1405), ("Aljube", 38.7105, -9.1320),
        ])
        defer { fixture.close() }
        let daemon = fixture.daemon
        let places = fixture.places
        func send(_ method: String, _ path: String, _ body: String) async -> PlacesControl.ControlResponse {
            await fixture.send(method, path, body)
        }
        // The route through the three without an itinerary: the first and last become places
        // to go, so the middle one's item is written before the last one's move.
        var probe = try await daemon.engine.planInputs(["near": .string("38.7107,-9.1365")])
        probe.plan = TripPlanner.plan(probe.request)
        let route = probe.plan.days.flatMap(\.stops).map { probe.request.candidates[$0.candidate].id }
        try #require(route.count == 3)
        let kept = Set([route[0], route[2]])
        let list = kept.sorted().map { "\"\($0)\"" }.joined(separator: ",")
        guard
            case .json(201, let created) = await send(
                "POST", "/v1/itineraries",
                #"{"name":"Lisbon","startDate":"2027-05-04","endDate":"2027-05-04","places":[\#(list)]}"#)
        else { Issue.record("itinerary not created"); return }
        let itinerary = try JSONDecoder().decode(Itinerary.self, from: Data(created))

        let body: [String: JSONValue] = [
            "near": .string("38.7107,-9.1365"), "itinerary": .string(itinerary.id), "apply": .bool(true),
        ]
        var context = try await daemon.engine.planInputs(body)
        context.plan = TripPlanner.plan(context.request)
        #expect(context.plan.days.flatMap(\.stops).count == 3, "the two places to go and the third")
        // Meanwhile someone removes a place to go visited after a new visit (its move would come
        // after that visit's item was written): the plan made with it is not written.
        let order = context.plan.days.flatMap(\.stops).map { context.request.candidates[$0.candidate].id }
        let firstNew = try #require(order.firstIndex { !kept.contains($0) })
        let victim = try #require(order[(firstNew + 1)...].first { kept.contains($0) }, "route \(order)")
        guard case .json(200, _) = await send("DELETE", "/v1/itineraries/\(itinerary.id)/places/\(victim)", "")
        else { Issue.record("stop not removed"); return }
        await #expect(throws: ServiceError.self) { _ = try await daemon.engine.writePlan(context, create: nil) }
        guard case .json(200, let items) = await send("GET", "/v1/itineraries/\(itinerary.id)/items", "") else {
            Issue.record("no items")
            return
        }
        let written = try JSONDecoder().decode(JSONValue.self, from: Data(items))
        #expect(written.objectValue?["items"]?.arrayValue?.isEmpty == true, "nothing written: \(written)")

        // Planned again for what is there now, it is written.
        var fresh = try await daemon.engine.planInputs(body)
        fresh.plan = TripPlanner.plan(fresh.request)
        _ = try await daemon.engine.writePlan(fresh, create: nil)
        guard case .json(200, let after) = await send("GET", "/v1/itineraries/\(itinerary.id)/items", "") else {
            Issue.record("no items")
            return
        }
        let now = try JSONDecoder().decode(JSONValue.self, from: Data(after))
        #expect(now.objectValue?["items"]?.arrayValue?.count == 2, "the removed place comes back as a visit: \(now)")
    }
}
