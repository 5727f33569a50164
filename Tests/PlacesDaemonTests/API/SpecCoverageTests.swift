import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesTestSupport
import Testing

/// Answers no behaviour test asked for, requested so that the response check
/// (`ResponseChecker`, run on every response) sees them too: the solver's plans, the
/// profile, a contact's removal, the peer list of a daemon without sync.
@Suite("Responses no other test asks for match the spec")
struct SpecCoverageTests {
    @Test("the stateless solver answers a plan, from points and from a matrix")
    func solve() async throws {
        let t = try await LoggedInDaemon.start()
        let points = try await t.d.send(
            "POST", "/v1/routes/solve",
            json: #"{"points":[{"latitude":38.69,"longitude":-9.21},{"latitude":38.71,"longitude":-9.13},"#
                + #"{"latitude":38.70,"longitude":-9.17}],"mode":"cycling","by":"distance","roundTrip":true}"#)
        #expect(points.status == 200, "\(points.text)")
        let matrix = try await t.d.send(
            "POST", "/v1/routes/solve", json: #"{"matrix":[[0,5,9],[4,0,2],[8,3,0]],"start":0,"end":2}"#)
        #expect(matrix.status == 200, "\(matrix.text)")
    }

    @Test("profile, peers, contacts added and removed")
    func account() async throws {
        let t = try await LoggedInDaemon.start()
        let profile = try await t.d.call(Profile.self, "GET", "/v1/profile")
        #expect(profile.username == "ana")
        #expect(try await t.d.send("GET", "/v1/peers").status == 200)
        let other = try await LoggedInDaemon.start()
        let id = try await other.d.call(Profile.self, "GET", "/v1/profile").id
        let added = try await t.d.call(ContactList.self, "POST", "/v1/contacts", json: #"{"id":"\#(id)","name":"B"}"#)
        #expect(added.count == 1)
        let removed = try await t.d.call(ContactList.self, "DELETE", "/v1/contacts/\(id)")
        #expect(removed.count == 0)
        #expect(try await t.d.send("DELETE", "/v1/contacts/\(id)").status == 404)
    }
}
