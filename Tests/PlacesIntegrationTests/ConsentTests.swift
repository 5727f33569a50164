import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

@Suite("Consent: shares from non-contacts are invitations", .serialized)
struct ConsentTests {
    @Test("a share from someone new waits as an invitation; accepting adds it and makes a contact; declining is final")
    func invitationLifecycle() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno"), c = try SyncNode("Carla")
        for (x, y) in [(a, b), (a, c)] {
            try x.addPeer(y)
            try y.addPeer(x)
        }
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#)
        for node in [b, c] {
            let r = try a.d.send(
                "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(node.id)","role":"editor"}"#)
            #expect(r.status == 200, "\(r.text)")
        }
        try await eventually("B and C see an invitation") {
            try [b, c].allSatisfy { try $0.d.call(InvitationList.self, "GET", "/v1/invitations").count == 1 }
        }
        // Nothing was added without the user's consent.
        for node in [b, c] {
            #expect(try node.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0)
            #expect(try node.d.send("GET", "/v1/itineraries/\(it.id)").status == 404)
        }
        let invitation = try #require(try b.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.first)
        #expect(invitation.id == it.id && invitation.kind == "itinerary" && invitation.from == a.id)
        #expect(invitation.name == "Lisbon" && invitation.role == "editor" && invitation.fromName == "Ana")
        let listed = try b.d.cli(["invitations"])
        #expect(listed.status == 0 && listed.stdout.contains("Lisbon") && listed.stdout.contains("editor"))

        // Bruno accepts with the CLI (a prefix of the id will do).
        let accepted = try b.d.cli(["invitations", "accept", String(it.id.prefix(8))])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        try await eventually("the itinerary arrives at B") { try b.itineraryJSON(it.id) != nil }
        #expect(try b.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").role == "editor")
        #expect(try b.d.call(InvitationList.self, "GET", "/v1/invitations").count == 0)
        #expect(try b.d.call(ContactList.self, "GET", "/v1/contacts").contacts.map(\.id) == [a.id])

        // Ana is a contact now: her next share arrives directly.
        let second = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#)
        _ = try a.d.send(
            "POST", "/v1/itineraries/\(second.id)/share", json: #"{"member":"\#(b.id)","role":"viewer"}"#)
        try await eventually("the second itinerary arrives at B directly") { try b.itineraryJSON(second.id) != nil }

        // Carla declines: it is gone from the list and not asked again after a reconnect.
        let declined = try c.d.send("POST", "/v1/invitations/\(it.id)/decline")
        #expect(declined.status == 200 && declined.text.contains(#""status":"declined""#))
        c.stop()
        try c.start()
        try await eventually("C is connected to A again") {
            try c.d.call(PeerList.self, "GET", "/v1/peers").peers.contains { $0.id == a.id && $0.connected }
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(try c.d.call(InvitationList.self, "GET", "/v1/invitations").count == 0)
        #expect(try c.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0)

        // Bad input: an unknown invitation, and an id that is not one.
        #expect(try c.d.send("POST", "/v1/invitations/ffffffff/accept").status == 404)
        let badContact = try c.d.send("POST", "/v1/contacts", json: #"{"id":"not-an-id"}"#)
        #expect(badContact.status == 400 && badContact.text.contains(#""field":"id""#))
    }
}
