import Foundation
import PlacesCrypto
import PlacesModel
import PlacesStore

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 34's "How cost grows" (`PLACES_BENCH_PROFILE=scale`, run by `make scale-bench`):
/// release daemons over loopback, each curve measured at growing sizes, printed as one JSON
/// object that `scripts/scale-report.py` turns into `docs/scale.md` and its plots.
/// - history: one trip of 10k, 100k, 1M ops: cold start, a fresh daemon's full sync, a live
///   edit's latency, idle RSS, file size;
/// - breadth: 10 … 10,000 shared trips: start, idle RSS, a reconnect's agreement that
///   nothing changed;
/// - fan-out: 2, 8, 32 daemons in a line and in a mesh: an edit's latency to the farthest,
///   bytes sent per edit.
///
/// Knobs (a quick check): `PLACES_SCALE_OPS`, `PLACES_SCALE_DOCS`, `PLACES_SCALE_DAEMONS` (the
/// sizes, comma-separated), `PLACES_SCALE_MAX_OPS`, `PLACES_SCALE_MAX_DOCS`,
/// `PLACES_SCALE_MAX_DAEMONS` (caps), `PLACES_SCALE_EDITS` (live edits per size, 200),
/// `PLACES_SCALE_SKIP=history,breadth,fanout`, `PLACES_BENCH_TRACE=1` (timestamped lines on
/// standard error for each breadth poll and the reconnect's `peer` event, to line up with
/// the daemons' own logs).
enum ScaleBench {
    static let environment = ProcessInfo.processInfo.environment

    static func sizes(_ name: String, _ defaults: [Int], cap capName: String) -> [Int] {
        let listed = environment[name].map { $0.split(separator: ",").compactMap { Int($0) } } ?? defaults
        let cap = environment[capName].flatMap { Int($0) } ?? Int.max
        return listed.filter { $0 <= cap }
    }

    static let edits = environment["PLACES_SCALE_EDITS"].flatMap { Int($0) } ?? 200

    static func run() throws {
        let skipped = Set((environment["PLACES_SCALE_SKIP"] ?? "").split(separator: ",").map(String.init))
        var report: [String: Any] = ["started": ISO8601DateFormatter().string(from: Date())]
        report["loadBefore"] = FloorTable.loadAverage()
        FloorTable.note("scale: 1-core sign rate")
        report["signRate"] = try PlacesBench.measureSignRate()
        report["verifyRate"] = try SyncBench.measureVerifyRate()
        // A curve that fails at some size keeps the sizes measured before it, says why it
        // stopped (`errors`), and the next curve runs.
        var errors = [String]()
        func section(_ name: String, _ measure: () throws -> Void) {
            guard !skipped.contains(name) else { return }
            do { try measure() } catch {
                FloorTable.note("scale: \(name) stopped: \(error)")
                errors.append("\(name): \(error)")
                report["errors"] = errors
                checkpoint(report)
            }
        }
        section("history") {
            var points = [[String: Any]]()
            for ops in sizes("PLACES_SCALE_OPS", [10_000, 100_000, 1_000_000], cap: "PLACES_SCALE_MAX_OPS") {
                points.append(try history(ops: ops))
                report["history"] = points
                checkpoint(report)
            }
        }
        section("fanout") {
            var points = [[String: Any]]()
            for daemons in sizes("PLACES_SCALE_DAEMONS", [2, 8, 32], cap: "PLACES_SCALE_MAX_DAEMONS") {
                for mesh in [false, true] where !(mesh && daemons == 2) {
                    points.append(try fanOut(daemons: daemons, mesh: mesh))
                    report["fanout"] = points
                    checkpoint(report)
                }
            }
        }
        section("breadth") {
            report["breadth"] = try breadth(
                sizes("PLACES_SCALE_DOCS", [10, 100, 1_000, 10_000], cap: "PLACES_SCALE_MAX_DOCS")
            ) { partial in
                report["breadth"] = partial
                checkpoint(report)
            }
            checkpoint(report)
        }
        report["loadAfter"] = FloorTable.loadAverage()
        report["finished"] = ISO8601DateFormatter().string(from: Date())
        checkpoint(report)
        print(
            String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    }

    /// The figures so far, to `PLACES_SCALE_PARTIAL` if set: a long run that fails late keeps them.
    static func checkpoint(_ report: [String: Any]) {
        guard let path = environment["PLACES_SCALE_PARTIAL"],
            let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        else { return }
        try? data.write(to: URL(fileURLWithPath: path))
    }

    // MARK: - History

    /// Stops in the long trip: the first ops create them, the rest rename them in turn, so the
    /// trip's size stays the same while its history grows.
    static let stops = environment["PLACES_SCALE_STOPS"].flatMap { Int($0) } ?? 10_000

    static func history(ops: Int) throws -> [String: Any] {
        FloorTable.note("scale: history of \(FloorTable.grouped(Double(ops))) ops")
        var point: [String: Any] = ["ops": ops, "stops": min(ops, stops)]
        let a = try BenchDaemon(name: "A")
        defer { a.stop() }
        let itID = try a.json("POST", "/v1/itineraries", #"{"name":"Long trip"}"#)["id"] as? String ?? ""
        a.stop()
        let clock = ContinuousClock()
        let writing = clock.now
        try a.appendHistory(itinerary: itID, count: ops, stops: stops)
        point["appendSeconds"] = PlacesBench.seconds(clock.now - writing)
        point["fileBytes"] = a.fileBytes
        // Cold start: the process started until its control socket answers; three starts.
        var starts = [Double]()
        for round in 0..<3 {
            starts.append(try a.start(poll: 2_000))
            if round < 2 { a.stop() }
        }
        point["startSeconds"] = starts.sorted()[1]
        point["startsSeconds"] = starts
        usleep(2_000_000)
        point["idleRSSMB"] = a.rssMB
        let opsA = try a.json("GET", "/v1/status", nil)["opCount"] as? Int ?? 0

        // A fresh daemon's full sync, as `SyncBench.measureDaemons`.
        let b = try BenchDaemon(name: "B")
        defer { b.stop() }
        _ = try a.json("POST", "/v1/peers", #"{"address":"\#(b.listen)"}"#)
        _ = try b.json("POST", "/v1/contacts", #"{"id":"\#(a.id)"}"#)
        let cpuBefore = (a.cpuSeconds, b.cpuSeconds)
        let start = clock.now
        _ = try a.json("POST", "/v1/itineraries/\(itID)/share", #"{"member":"\#(b.id)","role":"editor"}"#)
        var opsB = 0
        let limit = Duration.seconds(max(600, ops / 1_000))
        while opsB < opsA {
            usleep(50_000)
            opsB = (try? b.json("GET", "/v1/status", nil)["opCount"] as? Int) ?? 0
            guard clock.now - start < limit else { throw BenchError("history: B synced \(opsB) of \(opsA) ops") }
        }
        point["syncSeconds"] = PlacesBench.seconds(clock.now - start)
        point["syncedOps"] = opsB
        point["syncCPUSeconds"] = ["sender": a.cpuSeconds - cpuBefore.0, "receiver": b.cpuSeconds - cpuBefore.1]
        usleep(1_000_000)
        point["receiverRSSMB"] = b.rssMB
        point["receiverFileBytes"] = b.fileBytes

        // Live edits: a PATCH at A until B's event stream reports the trip changed.
        let events = EventFollower(client: b.client, doc: itID)
        var latencies = [Double]()
        for i in 0..<edits {
            let t0 = clock.now
            let answer = try a.client.send(
                "PATCH", "/v1/itineraries/\(itID)", body: Array(#"{"notes":"live \#(i)"}"#.utf8))
            guard answer.status == 200 else { throw BenchError("history: PATCH answered \(answer.status)") }
            guard let arrived = events.waitForChange(timeout: 10) else { throw BenchError("history: no event at B") }
            latencies.append(PlacesBench.seconds(arrived - t0) * 1_000)
        }
        point["live"] = summary(latencies)
        point["idleRSSAfterEditsMB"] = a.rssMB
        // B idle 13 s after its sync: it gives back what the sync's batches grew 10 to 12 s
        // after the last (`Engine.trimWhenIdle`, checked every 2 s).
        let idleFrom = clock.now
        let syncEnded = PlacesBench.seconds(idleFrom - start) - (point["syncSeconds"] as? Double ?? 0)
        if syncEnded < 13 { usleep(UInt32((13 - syncEnded) * 1_000_000)) }
        point["receiverIdleRSSMB"] = b.rssMB
        // B restarted: the reconnect's agreement that nothing changed, over this history.
        let reconnect = try restart(b, reconnectingTo: a, docs: 1)
        point["receiverStartSeconds"] = reconnect.startSeconds
        point["reconnectMs"] = reconnect.agreedMs
        point["reconnectPollMs"] = reconnect.pollMs
        return point
    }

    // MARK: - Breadth

    /// One pair of daemons, the trips shared by A with B growing through `sizes`; at each size
    /// B is restarted three times: its start, its idle RSS, and the time from the session's
    /// opening (A's `peer` event) until both daemons' `GET /v1/peers` list every trip in-sync.
    static func breadth(_ sizes: [Int], progress: ([[String: Any]]) -> Void) throws -> [[String: Any]] {
        guard !sizes.isEmpty else { return [] }
        let a = try BenchDaemon(name: "A"), b = try BenchDaemon(name: "B")
        defer {
            a.stop()
            b.stop()
        }
        _ = try b.json("POST", "/v1/contacts", #"{"id":"\#(a.id)"}"#)
        _ = try a.json("POST", "/v1/peers", #"{"address":"\#(b.listen)"}"#)
        let clock = ContinuousClock()
        var points = [[String: Any]]()
        var trips = 0
        for size in sizes {
            FloorTable.note("scale: breadth, \(FloorTable.grouped(Double(size))) shared trips")
            let making = clock.now
            while trips < size {
                let id = try a.json("POST", "/v1/itineraries", #"{"name":"Trip \#(trips)"}"#)["id"] as? String ?? ""
                _ = try a.json("POST", "/v1/itineraries/\(id)/share", #"{"member":"\#(b.id)","role":"editor"}"#)
                trips += 1
            }
            var point: [String: Any] = ["docs": size]
            // B holds every trip once its view of A is in-sync (A's view counts the ops it sent).
            let agreed = try waitInSync(a, b, docs: size, both: false, timeout: .seconds(max(600, size / 5)))
            point["setupSeconds"] = PlacesBench.seconds(clock.now - making)
            point["fileBytes"] = b.fileBytes
            var starts = [Double](), reconnects = [Double](), polls = [Double](), waits = [Double]()
            // Three restarts, or one when a reconnect takes over 20 s (the run would take hours).
            while starts.count < 3 && (reconnects.first ?? 0) < 20_000 {
                let reconnect = try restart(b, reconnectingTo: a, docs: size)
                starts.append(reconnect.startSeconds)
                waits.append(reconnect.redialSeconds)
                reconnects.append(reconnect.agreedMs)
                polls.append(reconnect.pollMs)
            }
            usleep(2_000_000)
            point["idleRSSMB"] = b.rssMB
            point["startSeconds"] = starts.sorted()[starts.count / 2]
            point["startsSeconds"] = starts
            point["reconnectMs"] = reconnects.sorted()[reconnects.count / 2]
            point["reconnectsMs"] = reconnects
            // What one check costs when nothing happens: the reconnect figure's resolution.
            let idle = try waitInSync(a, b, docs: size, timeout: .seconds(60))
            point["peersPollMs"] = idle.pollMs
            point["pollsDuringReconnectMs"] = polls
            point["redialWaitSeconds"] = waits
            point["firstAgreementPollMs"] = agreed.pollMs
            points.append(point)
            progress(points)
        }
        return points
    }

    /// Restarts `b`: its start to serving, how long until `a` reported the session open (A's
    /// `peer` event; A re-dials with backoff), and from then until both list every one of
    /// `docs` documents in-sync.
    static func restart(_ b: BenchDaemon, reconnectingTo a: BenchDaemon, docs: Int) throws -> (
        startSeconds: Double, redialSeconds: Double, agreedMs: Double, pollMs: Double
    ) {
        let connected = EventFollower(client: a.client, type: "peer", containing: "\"summary\":\"connected to")
        b.stop()
        let clock = ContinuousClock()
        let down = clock.now
        let start = try b.start(poll: 2_000)
        guard let opened = connected.waitForChange(timeout: 120) else {
            throw BenchError("A did not reconnect to B")
        }
        if environment["PLACES_BENCH_TRACE"] != nil {
            FloorTable.note(
                "TRACE \(Date().timeIntervalSince1970) connected event (\(PlacesBench.seconds(clock.now - opened)) s ago)"
            )
        }
        let done = try waitInSync(a, b, docs: docs, timeout: .seconds(max(120, docs / 20)))
        return (start, PlacesBench.seconds(opened - down), PlacesBench.seconds(done.at - opened) * 1_000, done.pollMs)
    }

    /// Polls `b`'s `GET /v1/peers` until it lists `a` connected with at least `docs`
    /// documents, all `in-sync`, then (`both`) `a`'s the same way; returns when the last
    /// poll's answer had arrived and how long one check of both (the last poll of each) took.
    /// The pause between two polls of a daemon is 5 ms, or that poll's time when longer: a
    /// list of 10,000 trips is not free to build, and polling back to back would keep the very
    /// engines measured busy answering it. One daemon is asked at a time, so at most one engine
    /// is answering at any moment; a daemon that listed everything in sync is not asked again
    /// (in a reconnect that finds nothing changed, a document's state only goes from `unknown`
    /// to `in-sync`). An answer counts once it holds `docs` `in-sync` states (a byte count);
    /// both are then parsed and checked whole (parsing a list of 10,000 trips takes the bench
    /// about 40 ms), and polling starts again if either is not in sync after all.
    static func waitInSync(_ a: BenchDaemon, _ b: BenchDaemon, docs: Int, both: Bool = true, timeout: Duration)
        throws -> (
            at: ContinuousClock.Instant, pollMs: Double
        )
    {
        let clock = ContinuousClock()
        let start = clock.now
        var at = start
        var checkMs = 0.0
        var answers = [(body: [UInt8], peer: String)]()
        for (daemon, peer) in both ? [(b, a), (a, b)] : [(b, a)] {
            while true {
                let t0 = clock.now
                let answer = try? daemon.client.send("GET", "/v1/peers")
                let t1 = clock.now
                // Parsed below, once both may be in sync (parsing takes the bench ~40 ms).
                let ok = answer.map { occurrences(of: inSyncState, in: $0.body) >= docs } ?? false
                if environment["PLACES_BENCH_TRACE"] != nil {
                    FloorTable.note("TRACE \(Date().timeIntervalSince1970) poll \(ok) \(PlacesBench.seconds(t1 - t0))")
                }
                if ok, let answer {
                    at = t1
                    checkMs += PlacesBench.seconds(t1 - t0) * 1_000
                    answers.append((answer.body, peer.id))
                    break
                }
                guard t1 - start < timeout else { throw BenchError("breadth: \(docs) trips not in sync") }
                usleep(UInt32(max(5_000, min(1_000_000, PlacesBench.seconds(t1 - t0) * 1_000_000))))
            }
        }
        // Every listed document of the right peer in sync, connected: else poll again.
        guard answers.allSatisfy({ inSync($0.body, with: $0.peer, docs: docs) }) else {
            guard clock.now - start < timeout else { throw BenchError("breadth: \(docs) trips not in sync") }
            return try waitInSync(a, b, docs: docs, both: both, timeout: timeout - (clock.now - start))
        }
        return (at, checkMs)
    }

    static let inSyncState = Array(#""state":"in-sync""#.utf8)

    static func inSync(_ body: [UInt8], with peer: String, docs: Int) -> Bool {
        guard let list = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let peers = list["peers"] as? [[String: Any]],
            let other = peers.first(where: { ($0["id"] as? String) == peer }), other["connected"] as? Bool == true,
            let documents = other["documents"] as? [[String: Any]], documents.count >= docs
        else { return false }
        return documents.allSatisfy { $0["state"] as? String == "in-sync" }
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard let first = needle.first, needle.count <= haystack.count else { return 0 }
        var count = 0, offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            if haystack[offset] == first && haystack[offset..<offset + needle.count].elementsEqual(needle) {
                count += 1
                offset += needle.count
            } else {
                offset += 1
            }
        }
        return count
    }

    static func summary(_ samples: [Double]) -> [String: Any] {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return [:] }
        let p99 = min(sorted.count - 1, (sorted.count * 99) / 100)
        return [
            "count": sorted.count, "p50": sorted[sorted.count / 2], "p99": sorted[p99], "max": sorted[sorted.count - 1],
            "mean": sorted.reduce(0, +) / Double(sorted.count),
        ]
    }
}

extension BenchDaemon {
    /// Bytes of the daemon's database files (the SQLite file, its WAL and shared memory).
    var fileBytes: Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDir)) ?? []
        return names.filter { $0.hasPrefix("places.sqlite") }.reduce(0) { sum, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: dataDir + "/" + name)[.size]) as? Int
            return sum + (size ?? 0)
        }
    }

    /// Appends `count` ops to an itinerary in the stopped daemon's database: `stops` new stops,
    /// then renames of them in turn. Signed in batches of 5,000 as they are made.
    func appendHistory(itinerary: String, count: Int, stops: Int) throws {
        let keyData = try Data(contentsOf: URL(fileURLWithPath: dataDir + "/identity.key"))
        let identity = try JSONDecoder().decode(KeyFile.self, from: keyData).open(passphrase: nil)
        let store = try Store(path: dataDir + "/places.sqlite")
        var keyring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            keyring.insert(try SealedBox.open(sealed, with: identity), doc: doc, epoch: epoch)
        }
        guard let doc = DocumentID(hex: itinerary) else { throw BenchError("no such itinerary \(itinerary)") }
        let created = SyncBench.edits(doc: doc, count: min(count, stops))
        var names = created.map { _ in 0 }
        var index = 0
        while index < count {
            let batch = (index..<min(count, index + 5_000)).map { i -> Store.Edit in
                if i < created.count { return created[i] }
                let target = i % created.count
                let entity = created[target].changes[0].entity
                names[target] += 1
                return Store.Edit(
                    doc: doc,
                    changes: [
                        .set(
                            entity: entity, kind: .stop, field: "name",
                            value: .string("Stop \(target) v\(names[target])"),
                            old: nil)
                    ], timeMs: Int64(i))
            }
            try store.append(batch, identity: identity, keyring: keyring)
            index += batch.count
        }
        try store.close()
    }
}
