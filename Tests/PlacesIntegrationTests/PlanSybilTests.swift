import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Suggested trips (issue 31) and published trips: the user's own published trip through a
/// place says so beside it; a stranger publishing trips through the same place, however many,
/// adds nothing (anyone can publish a thousand).
@Suite("Plans and strangers' published trips (issue 31)", .serialized)
struct PlanSybilTests {
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
}
