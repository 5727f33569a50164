import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesTestSupport
import Testing

/// Issue 30 across networks, with real daemons in network namespaces (`contrib/netlab/nat.sh`):
/// Ana's and Bruno's daemons each in a home behind its own NAT router (192.168.1.0/24 and
/// 192.168.2.0/24), with no route from one home to the other, and the relay on the internet
/// (203.0.113.10). Ana and Bruno each redeem their own relay invitation.
///
/// - Through the relay: they meet at a café first (one cable, no way out), where Bruno joins
///   Ana's trip with a share link, since joining needs a member who holds the document key and
///   a relay holds none. At home their edits reach each other through the relay alone.
/// - A forwarded port: Ana's router forwards the sync port to her daemon and Bruno adds that
///   address. Bruno joins through it, and with the relay stopped their edits still arrive.
@Suite("Relay across NAT: two homes with no route between them (network namespaces)", .serialized)
struct RelayNATTests {
    static let port = LabNode.port

    static func summary(_ relay: LabNode) throws -> RelaySummary {
        try relay.d.call(RelaySummary.self, "GET", "/v1/relay")
    }

    static func invite(_ relay: LabNode) throws -> String {
        try relay.d.call(RelayInvitation.self, "POST", "/v1/relay/invitations").link
    }

    /// Bruno redeems Ana's editor link for `trip`; returns what Bruno's daemon answered.
    static func join(_ bruno: LabNode, _ ana: LabNode, trip: String) throws -> ControlClient.Response {
        let link = try ana.d.call(
            ShareLinkInfo.self, "POST", "/v1/itineraries/\(trip)/links", json: #"{"role":"editor"}"#)
        return try bruno.d.send("POST", "/v1/join", json: #"{"link":"\#(link.url ?? "")","waitSeconds":20}"#)
    }

    @Test(
        "met at a café, then at home behind two NATs: edits converge through the relay, live and while apart",
        .enabled(if: NATLab.available, "needs root, `ip netns` and nftables (CI runs as root)"),
        .timeLimit(.minutes(2)))
    func throughRelay() async throws {
        let lab = try NATLab()
        defer { lab.down() }
        let tag = String(UUID().uuidString.prefix(6))
        let relay = LabNode("Relay"), ana = LabNode("Ana"), bruno = LabNode("Bruno")
        defer { for node in [ana, bruno, relay] { node.stop() } }

        // At the café: Ana shares her trip with a link; the link's address is her café one.
        try ana.start(in: lab.cafe(1), at: NATLab.cafe(1))
        try bruno.start(in: lab.cafe(2), at: NATLab.cafe(2))
        let tripName = "Lisboa-\(tag)"
        let trip = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"\#(tripName)"}"#)
        let joined = try Self.join(bruno, ana, trip: trip.id)
        #expect(joined.status == 200, "\(joined.text)")
        try await eventually("Bruno holds the trip", timeout: .seconds(20)) {
            try bruno.itinerary(trip.id).name == tripName
        }
        ana.stop()
        bruno.stop()

        // At home, each behind a NAT; each redeems an invitation to the relay (Ana with the CLI).
        try relay.start(in: lab.internet, at: NATLab.relayAddress, extra: ["--relay"])
        try ana.start(in: lab.home(1), at: NATLab.lan(1))
        try bruno.start(in: lab.home(2), at: NATLab.lan(2))
        let added = try ana.d.cli(["relay", "add", try Self.invite(relay)])
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        let brunoAdded = try bruno.d.send("POST", "/v1/relays", json: #"{"link":"\#(try Self.invite(relay))"}"#)
        #expect(brunoAdded.status == 201, "\(brunoAdded.text)")

        // The lab is what it claims: neither home reaches the other's daemon, both reach the
        // relay, and the relay sees them only as their routers' addresses.
        #expect(try !lab.connects(from: lab.home(2), to: NATLab.lan(1), Self.port))
        #expect(try !lab.connects(from: lab.home(1), to: NATLab.lan(2), Self.port))
        #expect(try lab.connects(from: lab.home(2), to: NATLab.relayAddress, Self.port))
        try await eventually("the relay keeps the trip for both, reached through their routers", timeout: .seconds(20))
        {
            try Self.summary(relay).documents == 1
                && lab.peersConnected(in: lab.internet, port: Self.port) == [NATLab.wan(1), NATLab.wan(2)]
        }

        // Both online: edits go both ways through the relay.
        let anaNote = "ana-\(tag)-from-home"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"\#(anaNote)"}"#)
        do {
            try await eventually("Bruno has Ana's edit", timeout: .seconds(25)) {
                try bruno.itinerary(trip.id).notes == anaNote
            }
        } catch {
            Issue.record("\(ana.log)\(bruno.log)\(relay.log)")
            throw error
        }
        let brunoName = "Lisboa-\(tag)-with-Bruno"
        _ = try bruno.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"name":"\#(brunoName)"}"#)
        try await eventually("Ana has Bruno's edit", timeout: .seconds(25)) {
            try ana.itinerary(trip.id).name == brunoName
        }

        // Never online together: Bruno's laptop sleeps, Ana edits and goes, Bruno wakes alone.
        bruno.stop()
        let before = try Self.summary(relay).bytes
        let lateNote = "ana-\(tag)-late"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"\#(lateNote)"}"#)
        try await eventually("the relay holds Ana's late edit") { try Self.summary(relay).bytes > before }
        ana.stop()
        try bruno.start(in: lab.home(2), at: NATLab.lan(2))
        try await eventually("Bruno has the late edit from the relay alone", timeout: .seconds(25)) {
            try bruno.itinerary(trip.id).notes == lateNote
        }
        // Never a direct session: no path exists, and Bruno's daemon does not pretend one.
        #expect(try bruno.peer(ana)?.connected != true)
        #expect(try bruno.relays().first?.state == "connected")
    }

    @Test(
        "with a port forwarded to Ana's daemon, Bruno joins and syncs with her directly, the relay stopped",
        .enabled(if: NATLab.available, "needs root, `ip netns` and nftables (CI runs as root)"),
        .timeLimit(.minutes(2)))
    func forwardedPort() async throws {
        let lab = try NATLab()
        defer { lab.down() }
        try lab.forward(Self.port)
        let tag = String(UUID().uuidString.prefix(6))
        let relay = LabNode("Relay"), ana = LabNode("Ana"), bruno = LabNode("Bruno")
        defer { for node in [ana, bruno, relay] { node.stop() } }
        try relay.start(in: lab.internet, at: NATLab.relayAddress, extra: ["--relay"])
        try ana.start(in: lab.home(1), at: NATLab.lan(1))
        try bruno.start(in: lab.home(2), at: NATLab.lan(2))
        for node in [ana, bruno] {
            let r = try node.d.send("POST", "/v1/relays", json: #"{"link":"\#(try Self.invite(relay))"}"#)
            #expect(r.status == 201, "\(r.text)")
        }

        // Bruno adds the address Ana's router forwards, and joins Ana's trip with her link.
        let public1 = "\(NATLab.wan(1)):\(Self.port)"
        let peered = try bruno.d.send("POST", "/v1/peers", json: #"{"address":"\#(public1)"}"#)
        #expect(peered.status == 200, "\(peered.text)")
        let tripName = "Porto-\(tag)"
        let trip = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"\#(tripName)"}"#)
        // Until Bruno joins, Ana's daemon knows him as no one and closes his session after the
        // stranger's grace (sync.md §5); his daemon dials the forwarded address again. A join
        // that meets such a close answers 504 `no-member-reachable`, and he tries again, as a
        // user would.
        // A join whose answer came after the 504 has made him a member: the retry says so.
        var joined: ControlClient.Response?
        func done() -> Bool { joined?.status == 200 || joined?.text.contains("already-member") == true }
        for _ in 0..<3 where !done() {
            try await eventually("Bruno is connected to Ana", timeout: .seconds(30)) {
                try bruno.peer(ana)?.connected == true
            }
            joined = try Self.join(bruno, ana, trip: trip.id)
        }
        #expect(done(), "\(joined?.text ?? "")")
        try await eventually("Bruno holds the trip", timeout: .seconds(20)) {
            try bruno.itinerary(trip.id).name == tripName
        }
        // The session Ana's daemon serves comes from Bruno's router, through the forward.
        #expect(try lab.peersConnected(in: lab.home(1), port: Self.port).contains(NATLab.wan(2)))
        try await eventually("the relay keeps the trip too", timeout: .seconds(20)) {
            try Self.summary(relay).documents == 1
        }

        // The relay goes down: what Ana and Bruno write still reaches the other, directly.
        relay.stop()
        try await eventually("both see the relay gone", timeout: .seconds(20)) {
            try ana.relays().first?.state != "connected" && bruno.relays().first?.state != "connected"
        }
        let anaNote = "ana-\(tag)-direct"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"\#(anaNote)"}"#)
        do {
            try await eventually("Bruno has Ana's edit", timeout: .seconds(20)) {
                try bruno.itinerary(trip.id).notes == anaNote
            }
        } catch {
            Issue.record("\(ana.log)\(bruno.log)")
            throw error
        }
        let brunoName = "Porto-\(tag)-direct"
        _ = try bruno.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"name":"\#(brunoName)"}"#)
        try await eventually("Ana has Bruno's edit", timeout: .seconds(20)) {
            try ana.itinerary(trip.id).name == brunoName
        }
        #expect(try bruno.peer(ana)?.connected == true)
    }
}
