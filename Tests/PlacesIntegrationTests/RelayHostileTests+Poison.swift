import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

extension RelayHostileTests {
    /// A relay stores an op it cannot open (relay.md §4: authorization is the members'): a
    /// member's op that every other member refuses sits in the relay's log before the owner's
    /// later edits. Those must still reach the others through the relay.
    @Test("an op the members refuse, pushed to the relay by a member, holds back no one's later edits")
    func refusedOpHoldsNothingBack() async throws {
        let t = try await RelayTrip()
        let trip = try #require(DocumentID(hex: t.trip))
        let mallory = try AdversarialPeer()
        // Ana shares the trip with Mallory, a viewer: her key is on the trip's list at the relay.
        let shared = try t.ana.d.send(
            "POST", "/v1/itineraries/\(t.trip)/share", json: #"{"member":"\#(mallory.humanID)","role":"viewer"}"#)
        #expect(shared.status == 200, "\(shared.text)")
        try await eventually("the relay holds a list naming Mallory", timeout: .seconds(30)) {
            Self.logged(t.relay, "access list kept", "doc.id=\(trip)", "keys=3")
        }
        let session = try mallory.connect(to: t.relay.address)
        let mirror = try session.fetch(trip, timeout: 20)
        t.bruno.stop()
        // An op whose body opens with no key of the trip: signed by Mallory, in sequence, its
        // dependencies held — the relay cannot tell; Ana and Bruno refuse it.
        let poison = try mallory.op(
            doc: trip, seq: 1, lamport: mirror.maxLamport + 1, deps: mirror.heads, key: SecureRandom.bytes(32),
            body: Wire.body([Wire.set(t.trip, kind: "itinerary", field: "notes", value: #""mallory""#)]))
        let before = try Self.opCount(t.relay)
        try session.send(ops: [poison])
        try await eventually("the relay stores Mallory's op") { try Self.opCount(t.relay) == before + 1 }
        let note = "after-poison-\(t.tag)"
        try t.edit(t.ana, notes: note)
        try await eventually("the relay holds Ana's edit", timeout: .seconds(30)) {
            try Self.opCount(t.relay) > before + 1
        }
        try t.bruno.start()
        try await eventually("Bruno has Ana's edit through the relay", timeout: .seconds(30)) {
            try t.notes(t.bruno) == note
        }
        #expect(t.bruno.d.log.contains("the body cannot be decrypted"))
        try await Self.flows(t, "later")
        #expect(try t.notes(t.ana) == "later-\(t.tag)")
    }
}
