import Foundation
import PlacesAPI
import PlacesAccess
import PlacesControlClient
import PlacesCrypto
import PlacesModel
import PlacesStore

#if canImport(Glibc)
    import Glibc
#endif

/// The sync figures of issue 3: raw Ed25519 verification, bulk ingest (verify + decrypt +
/// store + materialize), a fresh daemon syncing a 100,000-op itinerary from another over
/// real TCP, live propagation latency of one edit, and the RSS of a daemon holding the ops.
enum SyncBench {
    static func run() throws {
        let verifyRate = try measureVerifyRate()
        print(String(format: "ed25519 verify (1 core):          %10.0f verifications/s", verifyRate))
        let ingestRate = try measureIngestRate()
        print(
            String(
                format:
                    "bulk ingest (verify+decrypt+store+materialize): %.0f ops/s (%.0f%% of raw verify; target >= 70%%)",
                ingestRate, 100 * ingestRate / verifyRate))
        let figures = try measureDaemons()
        print(
            String(
                format: "fresh daemon syncs a %d-op itinerary: %.1f s (target <= 2 x ops / verify rate = %.1f s)",
                figures.syncedOps, figures.syncSeconds, 2 * Double(historyOps) / verifyRate))
        print(
            String(
                format: "  CPU used meanwhile: sender %.1f s, receiver %.1f s", figures.senderCPU, figures.receiverCPU))
        print(
            String(
                format: "RSS of a daemon holding %d ops: %.1f MB (target <= 80 MB)", figures.syncedOps,
                figures.receiverRSS))
        print(
            String(
                format:
                    "live propagation A → B (edit request to B's event): p50 %.2f ms, p99 %.2f ms (targets 5 / 20 ms); "
                    + "with the whole itinerary answered: p50 %.2f ms, p99 %.2f ms",
                figures.live.p50, figures.live.p99, figures.liveWholeAnswer.p50, figures.liveWholeAnswer.p99))
        print(
            String(
                format: "  the PATCH itself (answered with the %d-stop itinerary): p50 %.2f ms, p99 %.2f ms",
                historyOps, figures.patch.p50, figures.patch.p99))
    }

    /// Signature verifications per second on `threads` threads at once (each its own key and
    /// message), summed: with 2, the machine's two cores.
    static func measureVerifyRate(threads: Int = 1) throws -> Double {
        let counts = Counter()
        let done = DispatchGroup()
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<threads {
            let pair = try SigningKeyPair()
            done.enter()
            Thread {
                let message = [UInt8](repeating: 7, count: 300)
                let signature = pair.sign(message)
                var count = 0
                while clock.now - start < .seconds(2) {
                    for _ in 0..<200 { precondition(pair.publicKey.verify(signature, for: message)) }
                    count += 200
                }
                counts.add(count)
                done.leave()
            }.start()
        }
        done.wait()
        return Double(counts.total) / PlacesBench.seconds(clock.now - start)
    }

    /// Ops authored in one store, ingested by a replica (what a syncing daemon does).
    /// With `device`, the ops are a certified device's (`Protocol/devices.md` §4).
    static func measureIngestRate(device: Bool = false) throws -> Double {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-ingest-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // `PLACES_BENCH_KEEP` keeps the two stores (to study the replica's file afterwards).
        defer {
            if ProcessInfo.processInfo.environment["PLACES_BENCH_KEEP"] == nil {
                try? FileManager.default.removeItem(at: dir)
            }
        }
        let author = try Store(path: dir.appendingPathComponent("a.sqlite").path)
        let replica = try Store(path: dir.appendingPathComponent("b.sqlite").path)
        let identity = try SigningKeyPair()
        let person = device ? try SigningKeyPair() : identity
        let certificate =
            device
            ? try DeviceCertificate.issue(device: identity.publicKey, admin: false, issuedMs: 0, by: person) : nil
        let doc = DocumentID(bytes: SecureRandom.bytes(16))!
        let key = try SecretBox.randomKey()
        for store in [author, replica] {
            try store.createDocument(
                doc, kind: .itinerary, owner: person.publicKey,
                sealedKey: try SealedBox.seal(key, to: identity.publicKey),
                timeMs: 0)
        }
        var keyring = Keyring()
        keyring.insert(key, doc: doc, epoch: 0)
        // 20,000 ops in batches of 1,000 (the table's row); other sizes to study how the cost
        // grows (`PLACES_BENCH_INGEST_OPS`, `PLACES_BENCH_INGEST_BATCH`).
        let environment = ProcessInfo.processInfo.environment
        let total = environment["PLACES_BENCH_INGEST_OPS"].flatMap(Int.init) ?? 20_000
        let batchSize = max(1, environment["PLACES_BENCH_INGEST_BATCH"].flatMap(Int.init) ?? 1_000)
        let all = edits(doc: doc, count: total)
        var ops = [SignedOp]()
        for start in stride(from: 0, to: total, by: 20_000) {
            ops += try author.append(
                Array(all[start..<min(total, start + 20_000)]), identity: identity, keyring: keyring,
                device: certificate)
        }
        let encoded = ops.map(\.encoded)
        PlacesBench.pauseForProfiler("ingest")
        let clock = ContinuousClock()
        let start = clock.now
        var index = 0
        // As the sync transport does: the next batch (read from the connection while this
        // one is stored) is verified ahead; its ingest stops that and verifies the rest.
        var ahead: VerifiedOps.Ahead? = nil
        while index < encoded.count {
            let batch = Array(encoded[index..<min(encoded.count, index + batchSize)])
            ahead?.cancel()
            ahead = nil
            let next = encoded[(index + batch.count)..<min(encoded.count, index + batch.count + batchSize)]
            if !next.isEmpty, ProcessInfo.processInfo.environment["PLACES_BENCH_NO_AHEAD"] == nil {
                let verifying = VerifiedOps.Ahead()
                VerifiedOps.shared.verifyInBackground(Array(next), ahead: verifying)
                ahead = verifying
            }
            let result = try replica.ingest(batch, doc: doc, keyring: keyring)
            precondition(result.rejected == nil && result.stored.count == batch.count)
            index += batch.count
        }
        return Double(encoded.count) / PlacesBench.seconds(clock.now - start)
    }

    /// Typical itinerary edits: new places to go and renames.
    static func edits(doc: DocumentID, count: Int) -> [Store.Edit] {
        // Each new place goes to the end of the list, as `places itinerary stop add` puts it.
        var previous: String? = nil
        let keys = (0..<count).map { _ in
            previous = FractionalIndex.between(previous, nil)
            return previous!
        }
        return (0..<count).map { i in
            let id = HexCoding.encode(SecureRandom.bytes(16))
            return Store.Edit(
                doc: doc,
                changes: [
                    .create(entity: id, kind: .stop),
                    .set(entity: id, kind: .stop, field: "name", value: .string("Stop \(i)"), old: nil),
                    .set(entity: id, kind: .stop, field: "position", value: .string(keys[i]), old: nil),
                ], timeMs: Int64(i))
        }
    }

    /// Ops in the synced history: 100,000 (the issue's figure) unless `PLACES_BENCH_SYNC_OPS` says otherwise.
    static let historyOps = ProcessInfo.processInfo.environment["PLACES_BENCH_SYNC_OPS"].flatMap(Int.init) ?? 100_000

    /// What `measureDaemons` measured: the fresh daemon's full sync and the live edits after it.
    struct DaemonFigures {
        var syncedOps: Int
        var syncSeconds: Double
        var senderCPU: Double
        var receiverCPU: Double
        var receiverRSS: Double
        /// From the edit request at A (asking for `Prefer: return=minimal`) to B's `changed`
        /// event, ms.
        var live: (p50: Double, p99: Double)
        /// The same with the whole itinerary answered to the bench, ms.
        var liveWholeAnswer: (p50: Double, p99: Double)
        /// The PATCH at A alone (answered with the whole itinerary), ms.
        var patch: (p50: Double, p99: Double)
    }

    static func measureDaemons() throws -> DaemonFigures {
        let a = try BenchDaemon(name: "A"), b = try BenchDaemon(name: "B")
        defer {
            a.stop()
            b.stop()
        }
        // A 100,000-op history written straight into A's store while A is stopped.
        let it = try a.json("POST", "/v1/itineraries", #"{"name":"Long trip"}"#)
        let itID = it["id"] as! String
        a.stop()
        try a.appendHistory(itinerary: itID, count: historyOps)
        try a.start()
        let opsA = try a.json("GET", "/v1/status", nil)["opCount"] as! Int
        _ = try a.json("POST", "/v1/peers", #"{"address":"\#(b.listen)"}"#)
        // B accepts shares from A directly (a contact), as after accepting a first invitation.
        _ = try b.json("POST", "/v1/contacts", #"{"id":"\#(a.id)"}"#)
        PlacesBench.pauseForProfiler("fresh sync (receiver pid \(b.pid))")
        let clock = ContinuousClock()
        let cpuBefore = (a.cpuSeconds, b.cpuSeconds)
        let start = clock.now
        _ = try a.json("POST", "/v1/itineraries/\(itID)/share", #"{"member":"\#(b.id)","role":"editor"}"#)
        var opsB = 0
        while opsB < opsA {  // B: its own profile op plus the itinerary; A: its profile plus the itinerary
            usleep(50_000)
            opsB = (try? b.json("GET", "/v1/status", nil)["opCount"] as? Int) ?? 0
            guard clock.now - start < .seconds(600) else { throw CocoaError(.fileReadUnknown) }
        }
        let syncSeconds = PlacesBench.seconds(clock.now - start)
        let cpu = (a.cpuSeconds - cpuBefore.0, b.cpuSeconds - cpuBefore.1)
        usleep(1_000_000)
        let rss = b.rssMB

        // Live propagation: an edit on A until B's event stream reports it. The event's
        // arrival is timed on the thread that reads the stream, so the time A takes to
        // answer the PATCH (its body is the whole itinerary) is not counted; it is
        // reported on its own.
        let events = b.eventLines()
        // The edits the row measures ask for `Prefer: return=minimal` (answered 204): the
        // whole itinerary (100,000 stops, about 10 MB) that a PATCH otherwise answers would be
        // copied to this process on the same two cores the daemons share, while B ingests.
        // The same edits with the whole answer are measured after them and reported beside.
        let rounds =
            ProcessInfo.processInfo.environment["PLACES_BENCH_LIVE_EDITS"].flatMap(Int.init) ?? 200
        let minimal = try liveEdits(a, b, itinerary: itID, events: events, rounds: rounds, minimal: true)
        let whole = try liveEdits(a, b, itinerary: itID, events: events, rounds: 50, minimal: false)
        return DaemonFigures(
            syncedOps: opsB, syncSeconds: syncSeconds, senderCPU: cpu.0, receiverCPU: cpu.1, receiverRSS: rss,
            live: FloorTable.percentiles(minimal.latencies),
            liveWholeAnswer: FloorTable.percentiles(whole.latencies), patch: FloorTable.percentiles(whole.requests))
    }

    /// `rounds` edits at A (PATCH of the itinerary's notes, one at a time), each timed from
    /// its request until B's event stream reports the change; `requests`, the PATCH's own
    /// answer. With `minimal`, the PATCH asks for `Prefer: return=minimal`.
    static func liveEdits(
        _ a: BenchDaemon, _ b: BenchDaemon, itinerary: String, events: EventFollower, rounds: Int, minimal: Bool
    ) throws -> (latencies: [Double], requests: [Double]) {
        let clock = ContinuousClock()
        var latencies = [Double](), requests = [Double](), startedAt = [Double]()
        let start = clock.now
        if ProcessInfo.processInfo.environment["PLACES_BENCH_VERBOSE"] != nil {
            // To line the edits up with `perf record -k CLOCK_MONOTONIC`.
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            print(String(format: "edits start at CLOCK_MONOTONIC %d.%09d s", now.tv_sec, now.tv_nsec))
        }
        for i in 0..<rounds {
            let t0 = clock.now
            startedAt.append(PlacesBench.seconds(t0 - start) * 1_000)
            // The answer is checked but not parsed: parsing 100,000 stops in this process
            // would compete with the daemons for the two cores.
            let answer = try a.client.send(
                "PATCH", "/v1/itineraries/\(itinerary)", body: Array(#"{"notes":"live \#(i)"}"#.utf8),
                headers: minimal ? ["Prefer": "return=minimal"] : [:])
            guard answer.status == (minimal ? 204 : 200) else { throw BenchError("PATCH answered \(answer.status)") }
            requests.append(PlacesBench.seconds(clock.now - t0) * 1_000)
            guard let arrived = events.waitForChange(timeout: 5) else { throw BenchError("B never saw edit \(i)") }
            latencies.append(PlacesBench.seconds(arrived - t0) * 1_000)
        }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_VERBOSE"] != nil {
            print(
                "\(minimal ? "minimal" : "whole") answers, latencies (ms, in order):",
                latencies.map { String(format: "%.1f", $0) }.joined(separator: " "))
            let slow = zip(startedAt, latencies).filter { $0.1 > 5 }
            print(
                "  slower than 5 ms (ms since the first edit: latency):",
                slow.map { String(format: "%.0f:%.1f", $0.0, $0.1) }.joined(separator: " "))
        }
        return (latencies, requests)
    }
}

/// A sum that threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = 0
    func add(_ n: Int) { lock.withLock { sum += n } }
    var total: Int { lock.withLock { sum } }
}

/// A release `placesd` on a temp data dir with an unsealed identity, for the benchmarks.
final class BenchDaemon {
    let dataDir: String
    var process: Process?
    var listen = ""
    var id = ""
    var client: ControlClient { ControlClient(socketPath: dataDir + "/placesd.sock") }

    /// Whether its log (level info) goes to `logPath`, for benchmarks that wait for a log line.
    let logged: Bool
    var logPath: String { dataDir + "/placesd.log" }
    /// The log so far (empty unless `logged`).
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// A daemon initialized as `name`, or a blank one (no identity: a device about to join).
    init(name: String, initialize: Bool = true, logged: Bool = false) throws {
        self.logged = logged
        var template = Array("/tmp/places-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        dataDir = String(cString: made)
        try start()
        guard initialize else { return }
        _ = try json("POST", "/v1/init", #"{"name":"\#(name)","username":"\#(name.lowercased())","noPassphrase":true}"#)
        id = try json("GET", "/v1/status", nil)["id"] as! String
    }

    /// Starts the daemon; returns the seconds from the process's start until its control
    /// socket answered (polled every `poll` µs).
    @discardableResult
    func start(poll: useconds_t = 20_000) throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("placesd")
        p.arguments = [
            "--data-dir", dataDir,
            "--log-level", logged ? "info" : ProcessInfo.processInfo.environment["PLACES_BENCH_LOG"] ?? "error",
            "--no-discovery", "--listen",
            listen.isEmpty ? "127.0.0.1:0" : listen,
        ]
        if logged {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            p.standardError = FileHandle(forWritingAtPath: logPath)
        }
        let clock = ContinuousClock()
        let started = clock.now
        try p.run()
        process = p
        while (try? client.send("GET", "/v1/status"))?.status != 200 { usleep(poll) }
        let serving = PlacesBench.seconds(clock.now - started)
        listen = try json("GET", "/v1/status", nil)["listen"] as? String ?? ""
        return serving
    }

    func stop() {
        guard let p = process, p.isRunning else { return }
        p.terminate()
        p.waitUntilExit()
        process = nil
    }

    deinit {
        stop()
        // `PLACES_BENCH_KEEP=1` keeps the data dirs, to profile their daemons afterwards.
        if ProcessInfo.processInfo.environment["PLACES_BENCH_KEEP"] == "1" {
            FloorTable.note("kept \(dataDir) (\(id), listening on \(listen))")
        } else {
            try? FileManager.default.removeItem(atPath: dataDir)
        }
    }

    func json(_ method: String, _ path: String, _ body: String?) throws -> [String: Any] {
        let r = try client.send(method, path, body: body.map { Array($0.utf8) })
        guard (200..<300).contains(r.status) else { throw CocoaError(.fileReadCorruptFile) }
        return (try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
    }

    var cpuSeconds: Double { process.map { PlacesBench.cpuSeconds($0.processIdentifier) } ?? -1 }
    /// The daemon's process id (0 when it is not running).
    var pid: Int32 { process?.processIdentifier ?? 0 }

    var rssMB: Double {
        guard let pid = process?.processIdentifier else { return -1 }
        return PlacesBench.rssMB(pid)
    }

    /// Appends `count` ops to an itinerary directly in the stopped daemon's database.
    func appendHistory(itinerary: String, count: Int) throws {
        let keyData = try Data(contentsOf: URL(fileURLWithPath: dataDir + "/identity.key"))
        let identity = try JSONDecoder().decode(KeyFile.self, from: keyData).open(passphrase: nil)
        let store = try Store(path: dataDir + "/places.sqlite")
        var keyring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            keyring.insert(try SealedBox.open(sealed, with: identity), doc: doc, epoch: epoch)
        }
        let doc = DocumentID(hex: itinerary)!
        var index = 0
        let all = SyncBench.edits(doc: doc, count: count)
        while index < all.count {
            try store.append(Array(all[index..<min(all.count, index + 5_000)]), identity: identity, keyring: keyring)
            index += 5_000
        }
        try store.close()
    }

    /// Follows `GET /v1/events` on a thread; `waitForChange` waits for the next `changed`.
    func eventLines() -> EventFollower { EventFollower(client: client) }
}

final class EventFollower: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrivals = [ContinuousClock.Instant]()
    private var seen = 0

    /// Follows `changed` events (of `doc` only, if given), or events of another `type` whose
    /// line contains `containing`.
    init(client: ControlClient, doc: String? = nil, type: String = "changed", containing: String? = nil) {
        let marks =
            ["\"type\":\"\(type)\""] + (doc.map { ["\"doc\":\"\($0)\""] } ?? []) + (containing.map { [$0] } ?? [])
        let thread = Thread { [self] in
            _ = try? client.streamLines("/v1/events") { line in
                let text = String(decoding: line, as: UTF8.self)
                if marks.allSatisfy({ text.contains($0) }) {
                    let now = ContinuousClock.now
                    self.condition.lock()
                    self.arrivals.append(now)
                    self.condition.signal()
                    self.condition.unlock()
                }
                return true
            }
        }
        thread.start()
        usleep(200_000)
    }

    /// How many matching events have arrived so far.
    var received: Int { condition.withLock { arrivals.count } }

    /// When the next `changed` event arrived (waiting for it up to `timeout` seconds).
    func waitForChange(timeout: Double) -> ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while arrivals.count <= seen {
            if !condition.wait(until: deadline) { return nil }
        }
        defer { seen = arrivals.count }
        return arrivals[seen]
    }
}
