import Foundation
import PlacesAPI
import PlacesCrypto
import Testing

@testable import PlacesAccess
@testable import PlacesTestSupport

/// Ana and Bruno sharing a trip, both users of one relay, with no direct path between them
/// once set up: Ana dialled Bruno through `direct`, which is then cut. A member marked to go
/// through a proxy reaches the relay only through it: its link is one the relay issued, with
/// the proxy's address in place of the relay's (as a port forward in front of a relay would).
final class RelayTrip {
    let tag = String(UUID().uuidString.prefix(8))
    let relay: RelayNode
    let ana: SyncNode, bruno: SyncNode
    let direct: TamperProxy
    let anaPath: TamperProxy?, brunoPath: TamperProxy?
    let trip: String

    init(anaThroughProxy: Bool = false, brunoThroughProxy: Bool = false) async throws {
        relay = try RelayNode()
        ana = try SyncNode("Ana")
        bruno = try SyncNode("Bruno")
        direct = try TamperProxy(to: bruno.address)
        anaPath = anaThroughProxy ? try TamperProxy(to: relay.address) : nil
        brunoPath = brunoThroughProxy ? try TamperProxy(to: relay.address) : nil
        let peered = try ana.d.send("POST", "/v1/peers", json: #"{"address":"\#(direct.address)"}"#)
        guard peered.status == 200 else { throw HarnessError("peers add: \(peered.text)") }
        try bruno.trust(ana)
        trip = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Sintra-\#(tag)"}"#).id
        let shared = try ana.d.send(
            "POST", "/v1/itineraries/\(trip)/share", json: #"{"member":"\#(bruno.id)","role":"editor"}"#)
        guard shared.status == 200 else { throw HarnessError("share: \(shared.text)") }
        try await eventually("Bruno holds the trip", timeout: .seconds(30)) { try self.notes(self.bruno) != nil }
        try Self.add(ana, relay, through: anaPath)
        try Self.add(bruno, relay, through: brunoPath)
        try await eventually("the relay keeps the trip", timeout: .seconds(30)) {
            try self.relay.summary.documents == 1
        }
        direct.block(true)
    }

    /// `node` redeems a fresh link of `relay`, naming `proxy`'s address when given.
    static func add(_ node: SyncNode, _ relay: RelayNode, through proxy: TamperProxy?) throws {
        var link = try RelayLink(parsing: try relay.invite())
        if let proxy {
            link = try RelayLink.issue(
                by: try relay.key(), id: link.id, addresses: [proxy.address], expiresMs: link.expiresMs)
        }
        let r = try RelayTests.add(node, link.text, wait: 30)
        guard r.status == 201 else { throw HarnessError("relay add: \(r.text)") }
    }

    func edit(_ node: SyncNode, notes: String) throws {
        let r = try node.d.send("PATCH", "/v1/itineraries/\(trip)", json: #"{"notes":"\#(notes)"}"#)
        guard r.status == 200 else { throw HarnessError("edit: \(r.text)") }
    }

    /// The trip's notes as `node`'s user sees them (nil: no such trip there, "" none yet).
    func notes(_ node: SyncNode) throws -> String? {
        let r = try node.d.send("GET", "/v1/itineraries/\(trip)")
        guard r.status == 200 else { return nil }
        return try JSONDecoder().decode(Itinerary.self, from: Data(r.body)).notes ?? ""
    }

    /// Whether `node`'s daemon shows its relay connected.
    func relayConnected(_ node: SyncNode) throws -> Bool {
        try node.d.call(RelayList.self, "GET", "/v1/relays").relays.first?.state == "connected"
    }

    /// Log lines of a member (or the relay) that show an op which should never have reached
    /// the op checks: a corrupted one.
    static func corruptOps(in log: String) -> [Substring] {
        log.split(separator: "\n").filter {
            $0.contains("rejected an op") && ($0.contains("bad signature") || $0.contains("malformed op"))
        }
    }

    deinit {
        direct.stop()
        anaPath?.stop()
        brunoPath?.stop()
    }
}

/// Issue 30, "Bad input": a path between a member and the relay that flips, duplicates,
/// reorders or withholds bytes (a tampering proxy), and a relay path that withholds an edit
/// until the members meet directly. The link is a Noise session, so tampering closes it with
/// a logged reason and corrupts nothing; the member heals and both members converge. Each
/// case has its own relay, daemons and proxies, so the cases run side by side (the withheld
/// one waits out a 45 s idle timeout while the others run).
@Suite("Relay: a tampering path between a member and the relay")
struct RelayTamperTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let fault: TamperProxy.Fault
        let direction: TamperProxy.Direction
        /// The close reason logged by the daemon that receives the tampered bytes.
        let reason: String
        var testDescription: String { "\(fault.rawValue) \(direction == .up ? "member → relay" : "relay → member")" }
    }

    static let cases: [Case] = [
        Case(fault: .flip, direction: .up, reason: "decryptionFailed"),
        Case(fault: .flip, direction: .down, reason: "decryptionFailed"),
        Case(fault: .duplicate, direction: .up, reason: "decryptionFailed"),
        Case(fault: .reorder, direction: .down, reason: "decryptionFailed"),
        // Nothing more arrives: the member's session ends after the idle timeout (45 s).
        Case(fault: .withhold, direction: .down, reason: "idleTimeout"),
    ]

    @Test("the tampered session closes with a logged reason, the member heals, both members converge", arguments: cases)
    func tamper(_ c: Case) async throws {
        let t = try await RelayTrip(anaThroughProxy: true)
        let path = try #require(t.anaPath)
        // The path works: Ana's edit reaches Bruno through the relay alone.
        let before = "before-\(t.tag)"
        try t.edit(t.ana, notes: before)
        try await eventually("Bruno has Ana's first edit through the relay", timeout: .seconds(30)) {
            try t.notes(t.bruno) == before
        }
        try await eventually("both are connected to the relay") {
            try t.relayConnected(t.ana) && t.relayConnected(t.bruno)
        }
        let connectionsBefore = path.connections
        path.arm(c.fault, c.direction)
        // Edits that cross the tampered path: Ana's to the relay, or Bruno's from it to Ana.
        let writer = c.direction == .up ? t.ana : t.bruno
        let reader = c.direction == .up ? t.bruno : t.ana
        let during = "during-\(t.tag)"
        try t.edit(writer, notes: during + "-1")
        try t.edit(writer, notes: during)
        try await eventually("the proxy tampered with the session", timeout: .seconds(30)) {
            !path.applied.isEmpty
        }
        // The member's daemon dials the relay again, and the edit made across the broken session arrives.
        let timeout: Duration = c.fault == .withhold ? .seconds(90) : .seconds(30)
        try await eventually("the edit reaches the other member once the session healed", timeout: timeout) {
            try t.notes(reader) == during
        }
        #expect(path.connections > connectionsBefore, "Ana's daemon did not open a new session to the relay")
        #expect(path.applied.count == 1, "\(path.applied)")
        // The daemon that got the tampered bytes names the reason it closed the session.
        let receiverLog = c.direction == .up ? t.relay.log : t.ana.d.log
        let closed = receiverLog.split(separator: "\n").filter {
            $0.contains("peer session closed") && $0.contains(c.reason)
        }
        #expect(!closed.isEmpty, "no 'peer session closed' with \(c.reason) in the receiver's log")

        // The healed path carries edits both ways.
        let after = "after-\(t.tag)"
        try t.edit(reader, notes: after)
        try await eventually("the reply crosses the healed path", timeout: .seconds(30)) {
            try t.notes(writer) == after
        }
        // What both users see is the same; nothing corrupted reached the op checks anywhere.
        try await eventually("both members show the same trip", timeout: .seconds(30)) {
            let views = try [t.ana, t.bruno].map { try $0.itineraryJSON(t.trip) }
            return views[0] != nil && views[0] == views[1]
        }
        for (name, log) in [("relay", t.relay.log), ("Ana", t.ana.d.log), ("Bruno", t.bruno.d.log)] {
            #expect(RelayTrip.corruptOps(in: log).isEmpty, "\(name): \(RelayTrip.corruptOps(in: log))")
        }
    }

    @Test("a relay path that withholds Ana's edit from Bruno: Bruno gets it when he meets Ana directly")
    func withheldUntilMeeting() async throws {
        let t = try await RelayTrip(brunoThroughProxy: true)
        let path = try #require(t.brunoPath)
        t.bruno.stop()
        // From now on Bruno's sessions with the relay open, then carry nothing to him.
        path.arm(.withhold, .down, sticky: true)
        let bytes = try t.relay.summary.bytes
        let note = "withheld-\(t.tag)"
        try t.edit(t.ana, notes: note)
        try await eventually("the relay holds Ana's edit", timeout: .seconds(30)) {
            try t.relay.summary.bytes > bytes
        }
        try t.bruno.start()
        try await eventually("Bruno's session with the relay opened", timeout: .seconds(30)) {
            try t.relayConnected(t.bruno) && !path.applied.isEmpty
        }
        try await Task.sleep(for: .seconds(5))
        #expect(try t.notes(t.bruno) != note, "the edit crossed a path that withholds everything")

        // Ana and Bruno meet directly (one LAN): Bruno gets the edit from Ana.
        let met = try t.ana.d.send("POST", "/v1/peers", json: #"{"address":"\#(t.bruno.address)"}"#)
        #expect(met.status == 200, "\(met.text)")
        try await eventually("Bruno has Ana's edit from Ana", timeout: .seconds(30)) { try t.notes(t.bruno) == note }
        try await eventually("both members show the same trip", timeout: .seconds(30)) {
            let views = try [t.ana, t.bruno].map { try $0.itineraryJSON(t.trip) }
            return views[0] != nil && views[0] == views[1]
        }
    }
}
