import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesAccess
@testable import PlacesTestSupport

/// Catching up a long history from a relay against catching it up from a member.
extension RelayBench {
    /// Ops in the caught-up history: 100,000 (the issue's figure) unless
    /// `PLACES_RELAY_BENCH_OPS` says otherwise.
    static let historyOps = ProcessInfo.processInfo.environment["PLACES_RELAY_BENCH_OPS"].flatMap(Int.init) ?? 100_000

    /// Appends `count` new stops to `trip` straight into the stopped daemon's store, each at
    /// the end of the list as `places itinerary stop add` puts it (as places-bench does).
    static func appendHistory(to node: SyncNode, trip: String, count: Int) throws {
        let keyData = try Data(contentsOf: URL(fileURLWithPath: node.dir.path + "/identity.key"))
        let identity = try JSONDecoder().decode(KeyFile.self, from: keyData).open(passphrase: nil)
        let store = try Store(path: node.dir.path + "/places.sqlite")
        var keyring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            keyring.insert(try SealedBox.open(sealed, with: identity), doc: doc, epoch: epoch)
        }
        let doc = try #require(DocumentID(hex: trip))
        var previous: String? = nil
        var edits = [Store.Edit]()
        for i in 0..<count {
            let position = FractionalIndex.between(previous, nil)
            previous = position
            let id = HexCoding.encode(SecureRandom.bytes(16))
            edits.append(
                Store.Edit(
                    doc: doc,
                    changes: [
                        .create(entity: id, kind: .stop),
                        .set(entity: id, kind: .stop, field: "name", value: .string("Stop \(i)"), old: nil),
                        .set(entity: id, kind: .stop, field: "position", value: .string(position), old: nil),
                    ], timeMs: Int64(i)))
            if edits.count == 5_000 || i == count - 1 {
                try store.append(edits, identity: identity, keyring: keyring)
                edits = []
            }
        }
        try store.close()
    }

    static func opCount(_ node: SyncNode) throws -> Int {
        try node.d.call(Status.self, "GET", "/v1/status").opCount ?? 0
    }

    @Test("catching up 100,000 ops from the relay against catching them up from a member")
    func catchUp() async throws {
        let relay = try RelayNode(extraArguments: Self.quiet)
        // A owns the trip; B catches up from the relay, C from A. B and C hold the trip
        // (its first ops and their keys) before the long history is written.
        let a = try SyncNode("Ana", extraArguments: Self.quiet)
        let b = try SyncNode("Bruno", extraArguments: Self.quiet), c = try SyncNode("Carla", extraArguments: Self.quiet)
        for node in [b, c] {
            try a.addPeer(node)
            try node.addPeer(a)
            try node.trust(a)
        }
        let trip = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Long trip"}"#).id
        for node in [b, c] {
            let r = try a.d.send(
                "POST", "/v1/itineraries/\(trip)/share", json: #"{"member":"\#(node.id)","role":"editor"}"#)
            #expect(r.status == 200, "\(r.text)")
        }
        try await eventually("B and C hold the trip") {
            try b.d.send("GET", "/v1/itineraries/\(trip)").status == 200
                && c.d.send("GET", "/v1/itineraries/\(trip)").status == 200
        }
        try RelayDocumentTests.add(a, relay)
        try RelayDocumentTests.add(b, relay)
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 }
        try await Task.sleep(for: .seconds(1))
        let (bBefore, cBefore) = (try Self.opCount(b), try Self.opCount(c))
        b.stop()
        c.stop()
        a.stop()
        try Self.appendHistory(to: a, trip: trip, count: Self.historyOps)
        let relayBefore = try Self.opCount(relay)
        let uploadStarted = ContinuousClock.now
        try a.start()
        let upload = try Self.timeUntil("the relay holds the history", timeout: .seconds(900)) {
            try Self.opCount(relay) >= relayBefore + Self.historyOps
        }
        print(
            String(
                format: "relay %d ops of A's uploaded to the relay after A starts: %.2f s", Self.historyOps,
                Self.milliseconds(ContinuousClock.now - uploadStarted) / 1_000))
        _ = upload

        // From a member: C starts and dials A (the relay is no peer of C's).
        var started = ContinuousClock.now
        try c.start()
        _ = try Self.timeUntil("C holds the history", timeout: .seconds(900)) {
            try Self.opCount(c) >= cBefore + Self.historyOps
        }
        let fromMember = Self.milliseconds(ContinuousClock.now - started) / 1_000
        c.stop()
        // From the relay: A is gone; B starts and dials the relay (A's address is dead).
        a.stop()
        started = ContinuousClock.now
        try b.start()
        _ = try Self.timeUntil("B holds the history", timeout: .seconds(900)) {
            try Self.opCount(b) >= bBefore + Self.historyOps
        }
        let fromRelay = Self.milliseconds(ContinuousClock.now - started) / 1_000
        print(
            String(
                format:
                    "relay catch-up of %d ops, the member's start until it holds them: from a member %.2f s, from the relay %.2f s (%.2f×; target ≤ 1.5×)",
                Self.historyOps, fromMember, fromRelay, fromRelay / fromMember))
        #expect(fromRelay > 0 && fromMember > 0)
    }
}
