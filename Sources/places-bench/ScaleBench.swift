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

    // MARK: - Fan-out

    /// `daemons` daemons over loopback, connected in a line (each dials the next) or a full
    /// mesh; the first owns a trip shared with all. Edits at the first: the time until the
    /// last daemon's event stream reports it, and the bytes every TCP connection sent.
    static func fanOut(daemons count: Int, mesh: Bool) throws -> [String: Any] {
        FloorTable.note("scale: fan-out, \(count) daemons in a \(mesh ? "mesh" : "line")")
        var point: [String: Any] = ["daemons": count, "topology": mesh ? "mesh" : "line"]
        var daemons = [BenchDaemon]()
        defer { for d in daemons { d.stop() } }
        for i in 0..<count { daemons.append(try BenchDaemon(name: "D\(i)")) }
        let owner = daemons[0]
        // Everyone knows everyone (a group of friends), so no session is closed as a stranger's
        // while a trip's ops are still on their way along the line.
        for d in daemons {
            for other in daemons where other !== d { _ = try d.json("POST", "/v1/contacts", #"{"id":"\#(other.id)"}"#) }
        }
        let itID = try owner.json("POST", "/v1/itineraries", #"{"name":"Group trip"}"#)["id"] as? String ?? ""
        for d in daemons.dropFirst() {
            _ = try owner.json("POST", "/v1/itineraries/\(itID)/share", #"{"member":"\#(d.id)","role":"editor"}"#)
        }
        // A line: each dials the next. A mesh: each pair once, each daemon dialling half of the
        // others (the next ones around the circle), so no daemon takes more than 16 connections
        // from 127.0.0.1 (sync.md §5: inbound connections per address).
        var dials = 0
        for (i, d) in daemons.enumerated() {
            let targets =
                mesh
                ? (1...(count / 2)).compactMap { j -> Int? in
                    j == count - j && i >= count / 2 ? nil : (i + j) % count
                } : (i + 1 < count ? [i + 1] : [])
            for t in targets {
                _ = try d.json("POST", "/v1/peers", #"{"address":"\#(daemons[t].listen)"}"#)
                dials += 1
            }
        }
        point["dials"] = dials
        // Every daemon holds the trip once a first edit has reached each of them.
        _ = try owner.client.send("PATCH", "/v1/itineraries/\(itID)", body: Array(#"{"notes":"warm-up"}"#.utf8))
        let clock = ContinuousClock()
        let setup = clock.now
        for d in daemons {
            while true {
                let r = try? d.client.send("GET", "/v1/itineraries/\(itID)")
                if let r, r.status == 200, String(decoding: r.body, as: UTF8.self).contains("warm-up") { break }
                guard clock.now - setup < .seconds(600) else { throw BenchError("fan-out: the trip did not arrive") }
                usleep(50_000)
            }
        }
        point["setupSeconds"] = PlacesBench.seconds(clock.now - setup)
        usleep(2_000_000)  // let the session openings settle before counting bytes
        let pids = Set(daemons.compactMap { $0.process?.processIdentifier })
        let followers = daemons.dropFirst().map { EventFollower(client: $0.client, doc: itID) }
        let rounds = max(20, edits / 2)
        // Bytes sent while nothing is edited, over about as long as the edits take.
        let idleStart = TCPCounters(pids: pids)
        let idleFrom = clock.now
        usleep(useconds_t(min(10_000_000, 100_000 + rounds * count * 3_000)))
        let idleBytes = TCPCounters(pids: pids).sent(since: idleStart)
        let idleSeconds = PlacesBench.seconds(clock.now - idleFrom)

        let before = TCPCounters(pids: pids)
        let editFrom = clock.now
        var farthest = [Double](), last = [Double]()
        for i in 0..<rounds {
            let t0 = clock.now
            let answer = try owner.client.send(
                "PATCH", "/v1/itineraries/\(itID)", body: Array(#"{"notes":"edit \#(i)"}"#.utf8))
            guard answer.status == 200 else { throw BenchError("fan-out: PATCH answered \(answer.status)") }
            var arrivals = [Double]()
            for f in followers {
                guard let at = f.waitForChange(timeout: 30) else { throw BenchError("fan-out: an edit was lost") }
                arrivals.append(PlacesBench.seconds(at - t0) * 1_000)
            }
            farthest.append(arrivals.max() ?? 0)
            last.append(arrivals.last ?? 0)
        }
        let editSeconds = PlacesBench.seconds(clock.now - editFrom)
        usleep(500_000)
        // One `changed` event per edit at each daemon: more would mean an edit applied twice
        // (or the figures above paired with the wrong edit).
        point["extraEvents"] = followers.map { $0.received - rounds }.reduce(0, +)
        let after = TCPCounters(pids: pids)
        let sent = after.sent(since: before)
        let background = idleSeconds > 0 ? Double(idleBytes.values.reduce(0, +)) * editSeconds / idleSeconds : 0
        let total = Double(sent.values.reduce(0, +))
        point["edits"] = rounds
        point["latestArrival"] = summary(farthest)
        point["lastDaemon"] = summary(last)
        point["connections"] = after.connections
        point["bytesPerEdit"] = total / Double(rounds)
        point["idleBytesPerEdit"] = background / Double(rounds)
        point["maxConnectionBytesPerEdit"] = Double(sent.values.max() ?? 0) / Double(rounds)
        point["connectionsCarryingEdits"] = sent.values.filter { $0 >= rounds * 100 }.count
        return point
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

/// The bytes each established TCP connection of the given processes has sent (`ss -tinp`:
/// `bytes_sent`), keyed by its local and remote address.
struct TCPCounters {
    var bytes: [String: Int] = [:]
    var connections: Int { bytes.count }

    init(pids: Set<Int32>) {
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        ss.arguments = ["-tinpH", "state", "established"]
        let pipe = Pipe()
        ss.standardOutput = pipe
        guard (try? ss.run()) != nil else { return }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        ss.waitUntilExit()
        // Each connection: a line of addresses and processes, then an indented line of counters.
        var current: (key: String, ours: Bool)? = nil
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = line.first, first != " ", first != "\t" {
                let addresses = fields.filter { $0.contains(":") && !$0.hasPrefix("users:") }
                let ours = pids.contains { line.contains("pid=\($0),") }
                current = (addresses.prefix(2).joined(separator: "→"), ours)
            } else if let c = current, c.ours {
                let sent = fields.first { $0.hasPrefix("bytes_sent:") }.flatMap { Int($0.dropFirst(11)) } ?? 0
                bytes[c.key] = sent
                current = nil
            }
        }
    }

    /// Bytes sent on each connection since `earlier` (a connection opened since counts whole).
    func sent(since earlier: TCPCounters) -> [String: Int] {
        bytes.reduce(into: [:]) { out, entry in out[entry.key] = max(0, entry.value - (earlier.bytes[entry.key] ?? 0)) }
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
