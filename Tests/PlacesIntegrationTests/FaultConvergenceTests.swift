import Foundation
import PlacesTestSupport
import Testing

/// Five real daemons in a line (A–B–C–D–E, each peered only with its neighbours) edit one
/// shared itinerary at once while a chaos thread freezes (SIGSTOP/SIGCONT), kills (SIGKILL)
/// and restarts them. Then, all running and quiet, they must converge: the same ops, the
/// same itinerary, members and activity everywhere; no acknowledged edit lost; every
/// database sound.
///
/// Size: `PLACES_FAULT_SECONDS` (default 30) of edits and faults; `PLACES_FAULT_SEED` fixes
/// the edit and fault choices (printed at the start: rerun with it to replay a failure's
/// sequence; the timing still varies); `PLACES_FAULT_CONVERGE_SECONDS` (default 120) bounds
/// the wait for convergence. scripts/fault-long.sh runs it for ten minutes.
@Suite("Convergence under faults", .serialized)
struct FaultConvergenceTests {
    @Test("five daemons in a line converge after concurrent edits under SIGSTOP, SIGKILL and restarts")
    func fiveDaemonsInALine() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["PLACES_FAULT_SECONDS"].flatMap(Double.init) ?? 30
        let seed = env["PLACES_FAULT_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let convergeSeconds = env["PLACES_FAULT_CONVERGE_SECONDS"].flatMap(Double.init) ?? 120
        print("fault run: PLACES_FAULT_SEED=\(seed) PLACES_FAULT_SECONDS=\(Int(seconds))")

        let nodes = try ["Ana", "Bruno", "Carla", "Dora", "Eli"].map { try PeerNode($0) }
        for (x, y) in zip(nodes, nodes.dropFirst()) {
            try x.addPeer(y)
            try y.addPeer(x)
        }
        for node in nodes.dropFirst() { try node.trust(nodes[0]) }
        let itinerary = try nodes[0].json(
            "POST", "/v1/itineraries", #"{"name":"Line trip","notes":"start","transportation":"van"}"#)
        let doc = try #require(itinerary["id"] as? String)
        for node in nodes.dropFirst() {
            try nodes[0].json("POST", "/v1/itineraries/\(doc)/share", #"{"member":"\#(node.id)","role":"editor"}"#)
        }
        try waitUntil("all five hold the itinerary", timeout: 60) {
            try nodes.allSatisfy { try $0.send("GET", "/v1/itineraries/\(doc)").ok }
        }

        // Edits on every daemon and faults, at once, for `seconds`.
        let ledger = FaultLedger()
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for (i, node) in nodes.enumerated() {
            let editor = FaultEditor(node: node, doc: doc, ledger: ledger, seed: seed &+ UInt64(i + 1))
            Self.onThread(group) { editor.run(until: deadline) }
        }
        let chaos = FaultChaos(nodes: nodes, ledger: ledger, seed: seed)
        Self.onThread(group) { chaos.run(until: deadline) }
        group.wait()
        for node in nodes { node.thaw() }
        for node in nodes where node.pid == nil { try FaultChaos.restart(node, ledger: ledger) }
        let edits = ledger.acknowledged
        print("fault run: \(edits.count) acknowledged edits; \(ledger.summary)")

        // Quiet: wait until every replica holds the same ops and shows the same itinerary.
        let quiet = Date()
        let check = ReplicaCheck(nodes: nodes, doc: doc)
        do {
            try waitUntil("the five daemons converge", timeout: convergeSeconds) { try check.converged() }
        } catch {
            Issue.record("seed \(seed): \(error)\n\(check.lastDifference)")
            throw error
        }
        let converged = Date().timeIntervalSince(quiet)
        let finalView = try check.views(of: nodes[0])
        print(String(format: "fault run: converged in %.1f s; seed %llu", converged, seed))

        // Clean shutdown, then the databases: sound, equal, and holding every acknowledged edit.
        for node in nodes { node.stop() }
        let databases = try nodes.map { try DatabaseProbe(path: $0.dir.path + "/places.sqlite") }
        for (node, db) in zip(nodes, databases) {
            #expect(try db.integrityCheck() == ["ok"], "seed \(seed): \(node.name)'s database")
        }
        try check.compareTables(databases, seed: seed)
        for (node, db) in zip(nodes, databases) {
            let lost = try check.lostEdits(edits, in: db, finalItinerary: finalView.itinerary)
            #expect(
                lost.isEmpty, "seed \(seed): \(node.name) lost acknowledged edits:\n\(lost.joined(separator: "\n"))")
        }
        print(
            "fault run: ops=\(try databases[0].rows(ReplicaCheck.opsSQL, arguments: [doc]).count) "
                + "stops=\((finalView.itinerary["places"] as? [Any])?.count ?? 0) seed=\(seed)")
    }

    /// Runs `body` on its own thread (edits block on sockets; the cooperative pool has as many
    /// threads as cores).
    private static func onThread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
