import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesAccess
@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 30's relay benchmark against the daemons in `PLACES_BIN_DIR` (`make relay-bench`:
/// release builds). Runs only with `PLACES_RELAY_BENCH=1`: `make test` never runs it. Each
/// figure is printed on a line starting with `relay ` (docs/benchmarks.md, "Relay (issue 30)").
@Suite(
    "Relay benchmark (issue 30)", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["PLACES_RELAY_BENCH"] == "1"))
struct RelayBench {
    /// Benchmarks run the daemons at `info`: the tests' usual `debug` writes lines per op.
    static let quiet = ["--log-level", "info"]

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    /// This machine's single-core Ed25519 sign rate now (the figures' yardstick).
    static func signRate() throws -> Double {
        let key = try SigningKeyPair()
        let message = [UInt8](repeating: 7, count: 200)
        let started = ContinuousClock.now
        var count = 0
        while ContinuousClock.now - started < .seconds(1) {
            for _ in 0..<100 { _ = key.sign(message) }
            count += 100
        }
        return Double(count) / (milliseconds(ContinuousClock.now - started) / 1_000)
    }

    /// Polls `condition` without sleeping between reads (each read is a control request).
    static func timeUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) throws
        -> Duration
    {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < timeout {
            if (try? condition()) == true { return ContinuousClock.now - started }
            usleep(1_000)
        }
        throw HarnessError("timed out waiting until \(what)")
    }

    static func item(_ node: SyncNode, _ trip: String, _ item: String) throws -> TripItem {
        try node.d.call(TripItem.self, "GET", "/v1/itineraries/\(trip)/items/\(item)")
    }

    /// A trip of `count` dated items with places and prices, made on `node`.
    static func trip(on node: SyncNode, items count: Int) throws -> (trip: String, items: [String]) {
        let trip = try node.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Portugal","startDate":"2027-07-01","endDate":"2027-07-30","timeZone":"Europe/Lisbon"}"#)
        let types = ["activity", "food", "activity", "transport", "food"]
        var items = [String]()
        for i in 0..<count {
            let day = i % 30 + 1, slot = i / 30
            let type = types[i % types.count]
            let json =
                #"{"type":"\#(type)","title":"Stop \#(i + 1)","start":"2027-07-\#(String(format: "%02d", day))T\#(String(format: "%02d", 7 + slot)):00","#
                + #""location":{"name":"Place \#(i + 1)","latitude":\#(37.0 + Double(i % 200) * 0.02),"longitude":-9.3},"#
                + #""price":{"amountMinor":\#(500 + i * 3),"currency":"EUR"}\#(type == "transport" ? #","mode":"train""# : "")}"#
            items.append(try node.d.call(TripItem.self, "POST", "/v1/itineraries/\(trip.id)/items", json: json).id)
        }
        return (trip.id, items)
    }

    static func relayConnected(_ node: SyncNode) -> Bool {
        (try? node.d.call(RelayList.self, "GET", "/v1/relays").relays.first?.state) == "connected"
    }

    static func opCount(_ relay: RelayNode) throws -> Int {
        try relay.d.call(Status.self, "GET", "/v1/status").opCount ?? 0
    }

    @Test("a 200-item trip: an edit reaches B through the relay alone, both online and after B starts")
    func tripLatency() async throws {
        print(String(format: "relay Ed25519 sign rate, 1 core: %.0f/s", try Self.signRate()))
        let relay = try RelayNode(extraArguments: Self.quiet)
        let a = try SyncNode("Ana", extraArguments: Self.quiet), b = try SyncNode("Bruno", extraArguments: Self.quiet)
        try a.addPeer(b)
        try b.trust(a)
        let (trip, items) = try Self.trip(on: a, items: 200)
        let shared = try a.d.send(
            "POST", "/v1/itineraries/\(trip)/share", json: #"{"member":"\#(b.id)","role":"editor"}"#)
        #expect(shared.status == 200, "\(shared.text)")
        try await eventually("B holds the 200 items", timeout: .seconds(60)) {
            try b.d.call(ItemList.self, "GET", "/v1/itineraries/\(trip)/items").count == 200
        }
        try RelayDocumentTests.add(a, relay)
        try RelayDocumentTests.add(b, relay)
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 }
        // No direct session from here on: both move to ports the other never learns.
        try a.moveToNewPort()
        try b.moveToNewPort()
        try await eventually("A and B are connected to the relay again", timeout: .seconds(30)) {
            Self.relayConnected(a) && Self.relayConnected(b)
        }
        // A first edit through the relay (the relay offers the trip to B in this session).
        let target = items[100]
        _ = try a.d.call(TripItem.self, "PATCH", "/v1/itineraries/\(trip)/items/\(target)", json: #"{"title":"warm"}"#)
        try await eventually("the first edit reaches B through the relay", timeout: .seconds(30)) {
            try Self.item(b, trip, target).title == "warm"
        }
        let peers = try a.d.call(PeerList.self, "GET", "/v1/peers").peers
        #expect(!peers.contains { $0.id == b.id && $0.connected }, "A and B have a direct session")

        var online = [Double]()
        for i in 0..<40 {
            let title = "Edit \(i)"
            let started = ContinuousClock.now
            let r = try a.d.send(
                "PATCH", "/v1/itineraries/\(trip)/items/\(items[i * 5])", json: #"{"title":"\#(title)"}"#)
            #expect(r.status == 200, "\(r.text)")
            _ = try Self.timeUntil("B shows \(title)") { try Self.item(b, trip, items[i * 5]).title == title }
            online.append(Self.milliseconds(ContinuousClock.now - started))
        }
        #expect(!(try a.d.call(PeerList.self, "GET", "/v1/peers").peers.contains { $0.id == b.id && $0.connected }))
        print(
            "relay 200-item trip, both online, A's PATCH until B's API shows it (ms): \(HostileBench.Percentiles(online))"
        )

        var fromStart = [Double](), fromServing = [Double]()
        for i in 0..<5 {
            b.stop()
            let before = try Self.opCount(relay)
            let title = "Offline \(i)"
            _ = try a.d.call(
                TripItem.self, "PATCH", "/v1/itineraries/\(trip)/items/\(items[i])", json: #"{"title":"\#(title)"}"#)
            try await eventually("the relay holds the edit") { try Self.opCount(relay) > before }
            a.stop()
            let started = ContinuousClock.now
            try b.start()
            let serving = ContinuousClock.now
            _ = try Self.timeUntil("B shows \(title)") { try Self.item(b, trip, items[i]).title == title }
            let shown = ContinuousClock.now
            fromStart.append(Self.milliseconds(shown - started))
            fromServing.append(Self.milliseconds(shown - serving))
            try a.start()
            try await eventually("A is connected to the relay again", timeout: .seconds(30)) { Self.relayConnected(a) }
        }
        print(
            "relay 200-item trip, B starts after A left: B's start until its API shows the edit (ms): \(HostileBench.Percentiles(fromStart))"
        )
        print("  of which after B's control API first answered (ms): \(HostileBench.Percentiles(fromServing))")
        #expect((online.max() ?? 0) > 0)
    }
}
