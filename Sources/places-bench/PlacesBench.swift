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

/// `places-bench`: the foundation's figures in one run (build with `-c release`):
/// raw Ed25519 signing, batched op append + materialize, control-API latency for
/// `GET /v1/favorites` with 1,000 favorites over the real socket of a real daemon, and the
/// daemon's idle RSS.
@main
struct PlacesBench {
    static func main() throws {
        // Profiling aids: `PLACES_BENCH_PROFILE=append` or `=ingest` runs only that loop.
        switch ProcessInfo.processInfo.environment["PLACES_BENCH_PROFILE"] {
        case "table": return try FloorTable.run()
        case "scale": return try ScaleBench.run()
        case "append": return print(String(format: "append: %.0f ops/s", try measureAppendRate()))
        case "ingest": return print(String(format: "ingest: %.0f ops/s", try SyncBench.measureIngestRate()))
        case "trips": return try TripBench.run()
        case "expenses": return try ExpenseBench.run()
        case "discover": return try DiscoverBench.run()
        case "feed": return try FeedBench.run()
        case "explore": return try ExploreBench.run()
        case "devices": return try DeviceBench.run()
        case "plans": return try PlanBench.run()
        case "nearby": return try NearbyBench.run()
        case "messages": return try MessageBench.run()
        case "dashboard": return try DashboardBench.run()
        case "ed25519": return try Ed25519Bench.run()
        default: break
        }
        let signRate = try measureSignRate()
        print(String(format: "ed25519 sign (1 core):            %10.0f signatures/s", signRate))
        let appendRate = try measureAppendRate()
        print(
            String(
                format: "op append+materialize (batched): %10.0f ops/s  (%.0f%% of raw sign rate; target >= 50%%)",
                appendRate, 100 * appendRate / signRate))
        // The store's figures only (sign, append, verify, ingest): for profiling the store.
        if ProcessInfo.processInfo.environment["PLACES_BENCH_STORE_ONLY"] != nil {
            let verifyRate = try SyncBench.measureVerifyRate()
            print(String(format: "ed25519 verify (1 core):          %10.0f verifications/s", verifyRate))
            let ingestRate = try SyncBench.measureIngestRate()
            print(
                String(
                    format:
                        "bulk ingest (verify+decrypt+store+materialize): %.0f ops/s (%.0f%% of raw verify; target >= 70%%)",
                    ingestRate, 100 * ingestRate / verifyRate))
            return
        }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_DAEMON"] == nil { try measureDaemon() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_TRIPS"] == nil { try TripBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_EXPENSES"] == nil { try ExpenseBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_DISCOVER"] == nil { try DiscoverBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_FEED"] == nil { try FeedBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_SYNC"] == nil { try SyncBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_DEVICES"] == nil { try DeviceBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_PLANS"] == nil { try PlanBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_NEARBY"] == nil { try NearbyBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_MESSAGES"] == nil { try MessageBench.run() }
        if ProcessInfo.processInfo.environment["PLACES_BENCH_SKIP_DASHBOARD"] == nil { try DashboardBench.run() }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func measureSignRate() throws -> Double {
        let pair = try SigningKeyPair()
        let message = [UInt8](repeating: 7, count: 300)  // about one op's signed bytes
        var count = 0
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(2) {
            for _ in 0..<200 { _ = pair.sign(message) }
            count += 200
        }
        return Double(count) / seconds(clock.now - start)
    }

    /// With `device`, the ops are a certified device's (`Protocol/devices.md` §4): the cost of
    /// device certificates per op.
    static func measureAppendRate(device: Bool = false) throws -> Double {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store(path: dir.appendingPathComponent("bench.sqlite").path)
        let identity = try SigningKeyPair()
        let person = device ? try SigningKeyPair() : identity
        let certificate =
            device
            ? try DeviceCertificate.issue(device: identity.publicKey, admin: false, issuedMs: 0, by: person) : nil
        let doc = DocumentID(bytes: SecureRandom.bytes(16))!
        let key = try SecretBox.randomKey()
        try store.createDocument(
            doc, kind: .library, owner: person.publicKey, sealedKey: try SealedBox.seal(key, to: identity.publicKey),
            timeMs: 0)
        var keyring = Keyring()
        keyring.insert(key, doc: doc, epoch: 0)
        let batches = 20, batchSize = 1_000
        // A user hearting 20,000 places, in batches of 1,000; the edits are made before the
        // clock starts, so that only the store's work is timed.
        var keys = FractionalIndex.spread(batches * batchSize)[...]
        let workload = (0..<batches).map { b in
            (0..<batchSize).map { i -> Store.Edit in
                let id = HexCoding.encode(SecureRandom.bytes(16))
                return Store.Edit(
                    doc: doc,
                    changes: [
                        .create(entity: id, kind: .favorite),
                        .set(entity: id, kind: .favorite, field: "placeId", value: .string("p\(b)-\(i)"), old: nil),
                        .set(
                            entity: id, kind: .favorite, field: "position", value: .string(keys.removeFirst()), old: nil
                        ),
                    ], timeMs: Int64(b * batchSize + i))
            }
        }
        pauseForProfiler("append")
        let clock = ContinuousClock()
        let start = clock.now
        for edits in workload { try store.append(edits, identity: identity, keyring: keyring, device: certificate) }
        return Double(batches * batchSize) / seconds(clock.now - start)
    }

    /// With `PLACES_BENCH_PAUSE` set, says on standard error that the timed part of `profile`
    /// starts in a second, and waits that second: time to attach `perf record -p` to this
    /// process so that it sees only the timed part, not the set-up.
    static func pauseForProfiler(_ profile: String) {
        guard ProcessInfo.processInfo.environment["PLACES_BENCH_PAUSE"] != nil else { return }
        FileHandle.standardError.write(Data("timed \(profile) starts in 1 s (pid \(getpid()))\n".utf8))
        usleep(1_000_000)
    }

    static func measureDaemon() throws {
        let binDir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var template = Array("/tmp/places-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let dataDir = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let process = Process()
        process.executableURL = binDir.appendingPathComponent("placesd")
        // Loopback only, as every daemon a bench or test starts (no beacons on the network).
        process.arguments = [
            "--data-dir", dataDir, "--log-level", "warning", "--no-discovery", "--listen", "127.0.0.1:0",
        ]
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let client = ControlClient(socketPath: dataDir + "/placesd.sock")
        while (try? client.send("GET", "/v1/status"))?.status != 200 { usleep(20_000) }
        _ = try client.send(
            "POST", "/v1/init", body: Array(#"{"name":"Bench","username":"bench","noPassphrase":true}"#.utf8))
        usleep(1_500_000)
        let idleRSS = rssMB(process.processIdentifier)

        let check = try addFavorites(client)

        var latencies = [Double]()
        let clock = ContinuousClock()
        for _ in 0..<100 { _ = try client.send("GET", "/v1/favorites") }  // warm up
        let start = clock.now
        for _ in 0..<2_000 {
            let t0 = clock.now
            let r = try client.send("GET", "/v1/favorites")
            latencies.append(seconds(clock.now - t0) * 1_000)
            precondition(r.status == 200 && r.body.count > 100_000)
        }
        let total = seconds(clock.now - start)
        latencies.sort()
        let p50 = latencies[latencies.count / 2], p99 = latencies[latencies.count * 99 / 100]
        print(
            String(
                format:
                    "GET /v1/favorites (1,000 favorites, %d KB, new connection each): p50 %.2f ms, p99 %.2f ms (target <= 2 ms), %.0f requests/s",
                check.favorites.count > 0 ? (try client.send("GET", "/v1/favorites").body.count / 1024) : 0, p50, p99,
                Double(latencies.count) / total))
        // Uncached: every GET follows a change (a favorite moved), so the list is read from
        // SQLite and encoded afresh each time.
        let favoriteIDs = check.favorites.map(\.id)
        var cold = [Double]()
        for i in 0..<300 {
            _ = try client.send(
                "POST", "/v1/favorites/\(favoriteIDs[i % favoriteIDs.count])/move", body: Array(#"{"position":1}"#.utf8)
            )
            let t0 = clock.now
            _ = try client.send("GET", "/v1/favorites")
            cold.append(seconds(clock.now - t0) * 1_000)
        }
        cold.sort()
        print(
            String(
                format: "GET /v1/favorites right after a change (uncached):   p50 %.2f ms, p99 %.2f ms",
                cold[cold.count / 2], cold[cold.count * 99 / 100]))
        print(String(format: "placesd idle RSS after start and init: %.1f MB (target <= 25 MB)", idleRSS))
        usleep(1_000_000)
        print(String(format: "placesd RSS after the load above:      %.1f MB", rssMB(process.processIdentifier)))
    }

    /// 1,000 places, each made a favorite; the favorites as read back.
    static func addFavorites(_ client: ControlClient) throws -> FavoriteList {
        for i in 0..<1_000 {
            let place = try client.send(
                "POST", "/v1/places",
                body: Array(
                    #"{"name":"Place \#(i)","latitude":\#(Double(i % 180) - 89.5),"longitude":\#(Double(i % 360) - 179.5)}"#
                        .utf8))
            let id = try JSONDecoder().decode(Place.self, from: Data(place.body)).id
            _ = try client.send("POST", "/v1/favorites", body: Array(#"{"placeId":"\#(id)"}"#.utf8))
        }
        let check = try JSONDecoder().decode(
            FavoriteList.self, from: Data(try client.send("GET", "/v1/favorites").body))
        guard check.count == 1_000 else { throw CocoaError(.fileReadCorruptFile) }
        return check
    }

    /// CPU time (user + system) a process has used, in seconds.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return -1 }
        // Fields after the command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func rssMB(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? -1
            return kb / 1024
        }
        return -1
    }
}
