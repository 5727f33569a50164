import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `contrib/netlab/lan.sh`, found from this file: Tests/PlacesIntegrationTests/ → repo root.
private let lanScript = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("contrib/netlab/lan.sh").path

private let ipTool = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Network namespaces need root and iproute2; CI runs as root, a developer's `swift test`
/// usually does not, and then the test is skipped rather than failed.
private let canBuildLAN: Bool = {
    guard geteuid() == 0, let ipTool, FileManager.default.isExecutableFile(atPath: lanScript) else { return false }
    return (try? runCommand(ipTool, ["netns", "list"]).status) == 0
}()

/// A real `placesd` inside one lab namespace (`ip netns exec` execs it, so the pid is the
/// daemon's). Its Unix control socket is a file in the shared /tmp, reachable from here.
private final class NamespacedDaemon: @unchecked Sendable {
    let namespace: String
    let dir = TempDir()
    private var process: Process?
    var socketPath: String { dir.path + "/placesd.sock" }
    private var stderrPath: String { dir.path + ".stderr" }

    init(namespace: String) { self.namespace = namespace }

    func start(listen: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ipTool ?? "ip")
        p.arguments = [
            "netns", "exec", namespace, Binaries.placesd, "--data-dir", dir.path, "--log-level", "debug",
            "--listen", listen,
        ]
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: stderrPath)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if !p.isRunning { throw HarnessError("placesd in \(namespace) exited at start: \(log)") }
            if let r = try? send("GET", "/v1/status"), r.status == 200 { return }
            usleep(50_000)
        }
        throw HarnessError("placesd in \(namespace) did not answer within 15 s: \(log)")
    }

    func send(_ method: String, _ path: String, json: String? = nil) throws -> ControlClient.Response {
        try ControlClient(socketPath: socketPath).send(method, path, body: json.map { Array($0.utf8) })
    }

    /// Sends and decodes a 2xx JSON response, failing with the body otherwise.
    func call<T: Decodable>(_ type: T.Type, _ method: String, _ path: String, json: String? = nil) throws -> T {
        let r = try send(method, path, json: json)
        guard (200..<300).contains(r.status) else {
            throw HarnessError("\(namespace): \(method) \(path) → \(r.status): \(r.text)")
        }
        return try JSONDecoder().decode(T.self, from: Data(r.body))
    }

    /// The last few KB of stderr, for failure messages.
    var log: String {
        let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return "\n--- \(namespace) log ---\n" + String(text.suffix(6000))
    }

    func stop() {
        guard let p = process else { return }
        process = nil
        if p.isRunning {
            kill(p.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while p.isRunning, Date() < deadline { usleep(20_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        p.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: stderrPath)
        dir.remove()
    }
}

// Only the fields this test relies on, so that additions to the API do not break it.
private struct StatusBody: Decodable { var id: String? }
private struct PeersBody: Decodable {
    struct Peer: Decodable {
        var id: String
        var addresses: [String]?
    }
    var peers: [Peer]
}
private struct CreatedBody: Decodable { var id: String }
private struct ItinerariesBody: Decodable {
    struct Row: Decodable {
        var id: String
        var name: String
    }
    var itineraries: [Row]
}

/// Polls `condition` every 200 ms until it holds or `seconds` pass.
private func eventually(within seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(200))
    } while Date() < deadline
    return try condition()
}

@Suite("LAN discovery across network namespaces", .serialized)
struct LANDiscoveryTests {
    @Test(
        "two daemons on a bridged LAN find each other with no configuration, then sync a shared itinerary",
        .enabled(if: canBuildLAN, "needs root and `ip netns` (CI runs as root)"),
        .timeLimit(.minutes(2)))
    func discoverAndSync() async throws {
        let up = try runCommand(lanScript, ["up", "2"])
        defer { _ = try? runCommand(lanScript, ["down"]) }
        try #require(up.status == 0, "lan.sh up 2 failed: \(up.stderr)")

        let a = NamespacedDaemon(namespace: "places-ns1")
        let b = NamespacedDaemon(namespace: "places-ns2")
        defer {
            a.stop()
            b.stop()
        }
        // The default sync port on both: discovery must not need distinct ports.
        try a.start(listen: "0.0.0.0:7478")
        try b.start(listen: "0.0.0.0:7478")
        for (d, name) in [(a, "A"), (b, "B")] {
            let r = try d.send(
                "POST", "/v1/init", json: #"{"name":"\#(name)","username":"\#(name.lowercased())","noPassphrase":true}"#
            )
            try #require(r.status == 201, "init \(name) failed: \(r.status) \(r.text)")
        }
        let aID = try #require(try a.call(StatusBody.self, "GET", "/v1/status").id)
        let bID = try #require(try b.call(StatusBody.self, "GET", "/v1/status").id)

        // Discovery: each lists the other, at its namespace address and sync port.
        func lists(_ d: NamespacedDaemon, _ id: String) throws -> PeersBody.Peer? {
            try d.call(PeersBody.self, "GET", "/v1/peers").peers.first { $0.id == id }
        }
        let found = try await eventually(within: 20) { try lists(a, bID) != nil && lists(b, aID) != nil }
        #expect(found, "the daemons did not find each other within 20 s\(a.log)\(b.log)")
        try #require(found)
        let bSeenByA = try lists(a, bID)?.addresses ?? [], aSeenByB = try lists(b, aID)?.addresses ?? []
        #expect(bSeenByA.contains("10.77.0.2:7478"), "A lists B at \(bSeenByA), not at HOST:PORT 10.77.0.2:7478")
        #expect(aSeenByB.contains("10.77.0.1:7478"), "B lists A at \(aSeenByB), not at HOST:PORT 10.77.0.1:7478")

        // Sync: A shares an itinerary with B over the connection discovery set up. B accepts
        // A's shares directly (a contact), as after accepting a first invitation.
        let trust = try b.send("POST", "/v1/contacts", json: #"{"id":"\#(aID)"}"#)
        try #require(trust.status == 200, "contacts add failed: \(trust.status) \(trust.text)")
        let trip = try a.call(CreatedBody.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon in spring"}"#)
        let share = try a.send(
            "POST", "/v1/itineraries/\(trip.id)/share", json: #"{"member":"\#(bID)","role":"editor"}"#)
        try #require((200..<300).contains(share.status), "share failed: \(share.status) \(share.text)")
        let synced = try await eventually(within: 20) {
            try b.call(ItinerariesBody.self, "GET", "/v1/itineraries?scope=shared").itineraries.contains {
                $0.id == trip.id && $0.name == "Lisbon in spring"
            }
        }
        #expect(synced, "B did not list the shared itinerary within 20 s\(a.log)\(b.log)")
    }
}
