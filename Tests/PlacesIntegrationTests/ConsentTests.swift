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

/// Issue 27: a share accepted through a member who is not the owner. Five daemons in a line,
/// each connected only to its neighbours (a hostel network where not everyone sees
/// everyone), nobody a contact of the owner: every invitation but the first arrives through
/// a member, and is accepted with the CLI.
@Suite("Consent along a line of daemons", .serialized)
struct ConsentLineTests {
    @Test(
        "a share accepted through members who are not the owner reaches every daemon of a line, and edits travel both ways",
        arguments: [false, true])
    func acceptedAlongALine(restartMiddle: Bool) async throws {
        let nodes = try (0..<5).map { try SyncNode("U\($0)") }
        for (x, y) in zip(nodes, nodes.dropFirst()) {
            try x.addPeer(y)
            try y.addPeer(x)
        }
        try await eventually("the line is connected") {
            try nodes[1...3].allSatisfy { node in
                try node.d.call(PeerList.self, "GET", "/v1/peers").peers.filter(\.connected).count == 2
            }
        }
        let owner = nodes[0]
        let it = try owner.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Hostel line"}"#)
        for node in nodes.dropFirst() {
            let r = try owner.d.send(
                "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(node.id)","role":"editor"}"#)
            #expect(r.status == 200, "\(r.text)")
        }
        do {
            // Hop by hop: each user sees the invitation once the member before them holds the
            // trip, accepts it with the CLI, and holds the trip within 2 s of accepting.
            for (hop, node) in nodes.enumerated().dropFirst() {
                try await eventually("U\(hop) sees the invitation", timeout: .seconds(10)) {
                    try node.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.contains {
                        $0.id == it.id
                    }
                }
                let accepted = try node.d.cli(["invitations", "accept", String(it.id.prefix(8))])
                #expect(accepted.status == 0, "\(accepted.stderr)")
                let acceptedAt = ContinuousClock.now
                if restartMiddle, hop == 2 {
                    // The middle daemon goes down right after its user accepted, before the
                    // trip's ops arrive, and comes back on its port.
                    node.stop()
                    try node.start()
                }
                try await eventually("U\(hop) holds the trip", timeout: .seconds(restartMiddle && hop == 2 ? 10 : 2)) {
                    try node.itineraryJSON(it.id) != nil
                }
                print("consent line: U\(hop) held the trip \(ContinuousClock.now - acceptedAt) after accepting")
                #expect(try node.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").role == "editor")
            }
            // Later edits by any of them reach all the others.
            _ = try nodes[4].d.call(
                Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"from the far end"}"#)
            try await eventually("U4's edit reaches everyone", timeout: .seconds(5)) {
                try nodes.allSatisfy {
                    try $0.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes == "from the far end"
                }
            }
            _ = try nodes[2].d.call(
                Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"name":"Hostel line, day 2"}"#)
            try await eventually("U2's edit reaches everyone", timeout: .seconds(5)) {
                try nodes.allSatisfy {
                    try $0.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").name == "Hostel line, day 2"
                }
            }
        } catch {
            for node in nodes {
                try? node.d.log.write(toFile: "/tmp/consent-line-\(node.name).log", atomically: true, encoding: .utf8)
            }
            throw error
        }

        // The owner removes U2: U2 receives nothing more. U3 and U4 stay members, but their
        // only path went through U2: they get the trip again as soon as another path exists.
        let removed = try owner.d.send("DELETE", "/v1/itineraries/\(it.id)/members/\(nodes[2].id)")
        #expect(removed.status == 200, "\(removed.text)")
        _ = try owner.d.call(
            Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"after U2 was removed"}"#)
        try await eventually("U1 has the edit") {
            try nodes[1].d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes == "after U2 was removed"
        }
        try nodes[1].addPeer(nodes[3])
        try await eventually("U3 and U4 get the edit through the new path", timeout: .seconds(10)) {
            try nodes[3...4].allSatisfy {
                try $0.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes == "after U2 was removed"
            }
        }
        let atU2 = try nodes[2].d.send("GET", "/v1/itineraries/\(it.id)")
        if atU2.status == 200 {
            #expect(try JSONDecoder().decode(Itinerary.self, from: Data(atU2.body)).notes == "from the far end")
        } else {
            #expect(atU2.status == 404, "\(atU2.text)")
        }
        // And the later edits of the others still reach U3 and U4.
        _ = try nodes[4].d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"U4 again"}"#)
        try await eventually("U4's edit reaches the owner", timeout: .seconds(5)) {
            try owner.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes == "U4 again"
        }
    }
}
