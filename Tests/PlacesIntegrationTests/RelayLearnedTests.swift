import Foundation
import PlacesAPI
import Testing

@testable import PlacesTestSupport

/// Issue 30, step 4 (`Protocol/relay.md` §5.1) with real daemons: the owner names her relay
/// inside the trip, so a member reaches the trip through it without having added it; while
/// both can reach each other directly, the member does not dial the relay at all.
@Suite("Relay: relays named in documents, direct first (Protocol/relay.md §5.1)", .serialized)
struct RelayLearnedTests {
    /// Whether `node` has a session with the relay.
    static func connected(_ node: SyncNode, to relay: RelayNode) throws -> Bool {
        let relayID = try relay.d.call(Status.self, "GET", "/v1/status").id ?? "?"
        return try node.d.call(PeerList.self, "GET", "/v1/peers").peers.contains {
            $0.id == relayID && $0.connected && $0.relay == true
        }
    }

    @Test("Bruno reaches Ana's trip through the relay her trip names, only while she is not reachable directly")
    func learnedThroughTheTrip() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let (ana, bruno) = try RelayDocumentTests.friends("Ana\(tag)", "Bruno\(tag)")
        let it = try RelayDocumentTests.share("Sintra-\(tag)", from: ana, with: bruno)
        try await eventually("Bruno holds the trip") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it)").name == "Sintra-\(tag)"
        }
        // Only Ana adds the relay; Bruno never types its address.
        try RelayDocumentTests.add(ana, relay)
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 && relay.summary.bytes > 0 }
        // The relay entity reaches Bruno with the trip; he is connected to Ana, so he leaves
        // the relay alone and sees Ana as reached directly.
        let anaID = try ana.d.call(Status.self, "GET", "/v1/status").id ?? "?"
        try await eventually("Bruno sees Ana directly") {
            try bruno.d.call(PeerList.self, "GET", "/v1/peers").peers.first { $0.id == anaID }?.via == "direct"
        }
        try await Task.sleep(for: .seconds(2))
        #expect(try !Self.connected(bruno, to: relay), "Bruno dialled the relay although Ana is reachable directly")

        // Ana goes away: Bruno dials the relay the trip names and reaches Ana's trip through it.
        bruno.stop()
        let before = try relay.summary.bytes
        let note = "sintra-note-\(tag)"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it)", json: #"{"notes":"\#(note)"}"#)
        try await eventually("the relay holds Ana's edit") { try relay.summary.bytes > before }
        ana.stop()
        try bruno.start()
        try await eventually("Bruno has Ana's edit from the relay he never added", timeout: .seconds(30)) {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it)").notes == note
        }
        #expect(try Self.connected(bruno, to: relay))
        #expect(try bruno.d.call(RelayList.self, "GET", "/v1/relays").relays.isEmpty)
        try await eventually("Bruno sees Ana reached through the relay") {
            try bruno.d.call(PeerList.self, "GET", "/v1/peers").peers.first { $0.id == anaID }?.via == "relay"
        }

        // His reply goes through the relay too, and reaches Ana when she is back.
        let reply = "Sintra-\(tag)-bruno"
        let beforeReply = try relay.summary.bytes
        _ = try bruno.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it)", json: #"{"name":"\#(reply)"}"#)
        try await eventually("the relay holds Bruno's reply") { try relay.summary.bytes > beforeReply }
        bruno.stop()
        try ana.start()
        try await eventually("Ana has Bruno's reply through her relay", timeout: .seconds(30)) {
            try ana.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it)").name == reply
        }

        // Ana stops using the relay: the trip names it no more, and Bruno, left alone again,
        // does not dial it.
        try bruno.start()
        try await eventually("Bruno and Ana meet directly") {
            try bruno.d.call(PeerList.self, "GET", "/v1/peers").peers.first { $0.id == anaID }?.via == "direct"
        }
        let relayID = try relay.d.call(Status.self, "GET", "/v1/status").id ?? "?"
        let removed = try ana.d.send("DELETE", "/v1/relays/\(relayID)")
        #expect(removed.status == 204, "\(removed.text)")
        try await Task.sleep(for: .seconds(3))
        ana.stop()
        try await Task.sleep(for: .seconds(5))
        #expect(try !Self.connected(bruno, to: relay), "Bruno dialled a relay the trip no longer names")
        #expect(try bruno.d.call(PeerList.self, "GET", "/v1/peers").peers.first { $0.id == anaID }?.via == nil)
    }

    @Test("Ana's phone reaches her trip through the relay her laptop added, with the laptop and Bruno away")
    func phoneUsesTheLaptopsRelay() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let (laptop, bruno) = try RelayDocumentTests.friends("Ana\(tag)", "Bruno\(tag)")
        let it = try RelayDocumentTests.share("Evora-\(tag)", from: laptop, with: bruno)
        try RelayDocumentTests.add(laptop, relay)
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 }
        let phone = try BlankNode()
        try await DeviceTests.pair(phone, to: laptop, name: "Ana's phone")
        try await eventually("the phone holds the trip", timeout: .seconds(30)) {
            try phone.d.send("GET", "/v1/itineraries/\(it)").status == 200
        }
        try await eventually("Bruno holds the trip") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it)").name == "Evora-\(tag)"
        }
        // The laptop has signed a list naming the phone once it saw the phone's certificate.
        try await Task.sleep(for: .seconds(2))
        laptop.stop()
        phone.d.stop()
        // Bruno edits with no device of Ana's online: his daemon dials the relay the trip names.
        let before = try relay.summary.bytes
        _ = try bruno.d.call(
            Itinerary.self, "PATCH", "/v1/itineraries/\(it)", json: #"{"notes":"from-bruno-\#(tag)"}"#)
        try await eventually("the relay holds Bruno's edit", timeout: .seconds(30)) { try relay.summary.bytes > before }
        bruno.stop()
        // The phone, which never added a relay, reads the laptop's relay in Ana's own trip.
        try phone.d.start(extraArguments: ["--listen", "127.0.0.1:0", "--no-discovery"])
        do {
            try await eventually("the phone has Bruno's edit through the laptop's relay", timeout: .seconds(30)) {
                try phone.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it)").notes == "from-bruno-\(tag)"
            }
        } catch {
            print("PHONE LOG\n\(phone.d.log.suffix(6000))\nRELAY LOG\n\(relay.d.log.suffix(6000))")
            throw error
        }
        #expect(try phone.d.call(RelayList.self, "GET", "/v1/relays").relays.isEmpty)
    }
}
