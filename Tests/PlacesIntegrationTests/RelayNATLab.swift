import Foundation
import PlacesAPI
import PlacesTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `contrib/netlab/nat.sh` run from a test: two homes behind NAT, the internet with a relay,
/// and a café (the script's header draws the lab). Each lab has a prefix of its own
/// (`rn-PID-RANDOM`), so that labs of suites running at once, or of `LANDiscoveryTests`
/// (`places-ns*`), never meet; `down` runs from the test's `defer`, and a lab left by a test
/// process that crashed is swept by the next `up`.
final class NATLab: @unchecked Sendable {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("contrib/netlab/nat.sh").path

    /// Root, iproute2 and nftables (which `scripts/bootstrap.sh` installs); CI runs as root, a
    /// developer's `swift test` usually does not, and then the tests are skipped.
    static let available: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: script),
            ["/usr/sbin/nft", "/sbin/nft", "/usr/bin/nft"].contains(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return false }
        return (try? runCommand(Binaries.ip, ["netns", "list"]).status) == 0
    }()

    static let relayAddress = "203.0.113.10"
    /// Home N's router's WAN address, what the relay sees of its hosts.
    static func wan(_ home: Int) -> String { "203.0.113.\(home)" }
    /// Home N's host on its LAN.
    static func lan(_ home: Int) -> String { "192.168.\(home).2" }
    static func cafe(_ seat: Int) -> String { "10.66.0.\(seat)" }

    let prefix = "rn-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"

    init() throws {
        _ = try? runCommand(Self.script, ["sweep"])
        let up = try runCommand(Self.script, ["up", prefix])
        guard up.status == 0 else { throw HarnessError("nat.sh up \(prefix) failed: \(up.stderr)") }
    }

    var internet: String { prefix + "-inet" }
    func home(_ n: Int) -> String { prefix + "-home\(n)" }
    func cafe(_ n: Int) -> String { prefix + "-cafe\(n)" }

    /// Home 1's router forwards `port` on its WAN address to home 1's host.
    func forward(_ port: Int) throws {
        let r = try runCommand(Self.script, ["forward", prefix, "\(port)"])
        guard r.status == 0 else { throw HarnessError("nat.sh forward failed: \(r.stderr)") }
    }

    /// Whether a TCP connection from `namespace` to `host:port` opens within 3 s.
    func connects(from namespace: String, to host: String, _ port: Int) throws -> Bool {
        try runCommand(
            Binaries.ip,
            ["netns", "exec", namespace, "timeout", "3", "bash", "-c", "exec 3<>/dev/tcp/\(host)/\(port)"]
        ).status == 0
    }

    /// The remote addresses of the TCP sessions established to `port` in `namespace`.
    func peersConnected(in namespace: String, port: Int) throws -> Set<String> {
        let r = try runCommand(
            Binaries.ip, ["netns", "exec", namespace, "ss", "-tnH", "state", "established", "( sport = :\(port) )"])
        guard r.status == 0 else { throw HarnessError("ss failed: \(r.stderr)") }
        // Columns: Recv-Q Send-Q Local:Port Peer:Port (state columns are left out with `state`).
        return Set(
            r.stdout.split(separator: "\n").compactMap { line in
                let columns = line.split(whereSeparator: \.isWhitespace)
                guard columns.count >= 4, let colon = columns[3].lastIndex(of: ":") else { return nil }
                return String(columns[3][..<colon])
            })
    }

    func down() { _ = try? runCommand(Self.script, ["down", prefix]) }
}

/// A person's daemon (or the relay) whose data dir moves between the lab's namespaces, as a
/// laptop between a café and home: each `start` runs it in a namespace, listening on an
/// address there on the default sync port, with discovery off.
final class LabNode {
    static let port = 7478
    let dir = TempDir()
    let d: DaemonProcess
    let name: String
    private(set) var id = ""

    init(_ name: String) { self.name = name; d = DaemonProcess(dataDir: dir.path) }

    func start(in namespace: String, at host: String, extra: [String] = []) throws {
        d.networkNamespace = namespace
        try d.start(extraArguments: ["--listen", "\(host):\(Self.port)", "--no-discovery"] + extra)
        // The control socket can answer before the sync listener is bound.
        let deadline = ContinuousClock.now + .seconds(10)
        while try d.call(Status.self, "GET", "/v1/status").listen != "\(host):\(Self.port)",
            ContinuousClock.now < deadline
        {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if id.isEmpty, !extra.contains("--relay") {
            try d.initialize(name: name, username: name.lowercased(), passphrase: nil)
        }
        if id.isEmpty { id = try d.call(Status.self, "GET", "/v1/status").id ?? "" }
    }

    func stop() { d.stop() }

    /// This daemon's view of a peer: nil when it lists none with that id.
    func peer(_ other: LabNode) throws -> Peer? {
        try d.call(PeerList.self, "GET", "/v1/peers").peers.first { $0.id == other.id }
    }

    func itinerary(_ id: String) throws -> Itinerary { try d.call(Itinerary.self, "GET", "/v1/itineraries/\(id)") }

    func relays() throws -> [RelayInfo] { try d.call(RelayList.self, "GET", "/v1/relays").relays }

    /// The last few KB of the daemon's log, for failure messages.
    var log: String { "\n--- \(name) ---\n" + String(d.log.suffix(5000)) }

    deinit {
        d.stop()
        try? FileManager.default.removeItem(atPath: dir.path + ".stderr")
        dir.remove()
    }
}
