import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Suggested trips (issue 31) with other people: the user's own published trip through a
/// place says so beside it; a stranger publishing trips through the same place, however many,
/// adds nothing (anyone can publish a thousand); a viewer of a shared itinerary can plan from
/// it but not write into it.
@Suite("Plans with other people (issue 31)", .serialized)
struct PlanPeerTests {
    static func reasons(_ v: SyncNode, of name: String) throws -> [String] {
        let (status, plan) = try HostileExplorePeerTests.json(
            v, "POST", "/v1/plans", body: #"{"near":"38.7107,-9.1365","startDate":"2027-05-04"}"#)
        #expect(status == 200)
        let days = plan["days"] as? [[String: Any]] ?? []
        let stops = days.flatMap { $0["stops"] as? [[String: Any]] ?? [] }
        return stops.first { $0["name"] as? String == name }?["reasons"] as? [String] ?? []
    }

    @Test("five network trips by a stranger through the user's place count for nothing; the user's own counts once")
    func strangerTrips() async throws {
        let v = try SyncNode("Vera")
        let place = try v.d.call(
            Place.self, "POST", "/v1/places", json: #"{"name":"Casa Sybil","latitude":38.7107,"longitude":-9.1365}"#)
        let before = try Self.reasons(v, of: "Casa Sybil")
        #expect(before.contains("saved by you") && !before.contains { $0.contains("published trip") }, "\(before)")

        let m = try AdversarialPeer()
        let session = try m.connectPublished(to: v.address)
        for n in 0..<5 {
            var trip = try PublishedDraft(author: m)
            let stop = SecureRandom.bytes(16).map { String(format: "%02x", $0) }.joined()
            try trip.append(
                trip.rootChanges("Sybil tour \(n)") + [
                    Wire.create(stop, kind: "stop"),
                    Wire.set(stop, kind: "stop", field: "name", value: Wire.string("Casa Sybil")),
                    Wire.set(stop, kind: "stop", field: "latitude", value: "38.7107"),
                    Wire.set(stop, kind: "stop", field: "longitude", value: "-9.1365"),
                    Wire.set(stop, kind: "stop", field: "position", value: #""n""#),
                ])
            try HostileExplorePeerTests.deliver(trip, from: session)
        }
        try await eventually("the stranger's trips are listed in explore", timeout: .seconds(20)) {
            (HostileExplorePeerTests.explore(v) ?? []).filter { $0.hasPrefix("Sybil tour") }.count == 5
        }
        let afterStranger = try Self.reasons(v, of: "Casa Sybil")
        #expect(afterStranger == before, "a stranger's trips count: \(afterStranger)")

        // Vera's own published trip through the place does count, once.
        let trip = try v.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Mine","startDate":"2027-03-26","endDate":"2027-03-27"}"#)
        _ = try v.d.call(
            Itinerary.self, "POST", "/v1/itineraries/\(trip.id)/places", json: #"{"placeId":"\#(place.id)"}"#)
        let (published, answer) = try HostileExplorePeerTests.json(
            v, "POST", "/v1/itineraries/\(trip.id)/publish", body: #"{"audience":"network"}"#)
        #expect(published == 200 || published == 201, "\(answer)")
        try await eventually("the user's own trip counts", timeout: .seconds(10)) {
            try Self.reasons(v, of: "Casa Sybil").contains("in a published trip")
        }
        #expect(!(try Self.reasons(v, of: "Casa Sybil")).contains { $0.contains("published trips") })
    }

    @Test("a viewer's apply is 403 with nothing written anywhere; planning from it, or into a new trip, works")
    func viewerApply() async throws {
        let a = try SyncNode("Ana"), c = try SyncNode("Carla")
        try a.addPeer(c)
        try c.addPeer(a)
        try c.trust(a)
        let it = try a.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-02"}"#)
        let shared = try a.d.send(
            "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(c.id)","role":"viewer"}"#)
        #expect(shared.status == 200, "\(shared.text)")
        try await eventually("Carla holds the shared itinerary") {
            try c.d.call(ItineraryList.self, "GET", "/v1/itineraries?scope=shared").count == 1
        }
        _ = try c.d.call(
            Place.self, "POST", "/v1/places", json: #"{"name":"Sé de Lisboa","latitude":38.7100,"longitude":-9.1335}"#)
        let near = #""near":"38.7107,-9.1365","itinerary":"\#(it.id)""#
        let applied = try c.d.send("POST", "/v1/plans", json: "{\(near),\"apply\":true}")
        #expect(applied.status == 403, "\(applied.text)")
        let items = try HostileExplorePeerTests.json(c, "GET", "/v1/itineraries/\(it.id)/items").1
        #expect((items["items"] as? [Any])?.isEmpty == true, "nothing written: \(items)")
        try await Task.sleep(for: .milliseconds(500))
        let ana = try HostileExplorePeerTests.json(a, "GET", "/v1/itineraries/\(it.id)/items").1
        #expect((ana["items"] as? [Any])?.isEmpty == true, "nothing reached the owner: \(ana)")

        let (planned, plan) = try HostileExplorePeerTests.json(c, "POST", "/v1/plans", body: "{\(near)}")
        #expect(planned == 200 && (plan["days"] as? [Any])?.count == 2, "the trip's two days: \(plan)")
        let (created, copy) = try HostileExplorePeerTests.json(
            c, "POST", "/v1/plans", body: "{\(near),\"create\":\"Carla's Lisbon\"}")
        #expect(created == 200 && copy["itinerary"] as? String != it.id, "\(copy)")
    }
}
