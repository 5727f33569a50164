import Foundation
import PlacesControlClient

#if canImport(Glibc)
    import Glibc
#endif

/// Errors of the test harness.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where the built executables are: next to the test binary (`.build/<triple>/debug`),
/// unless `PLACES_BIN_DIR` says otherwise.
public enum Binaries {
    public static var directory: URL {
        if let dir = ProcessInfo.processInfo.environment["PLACES_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    public static var placesd: String { directory.appendingPathComponent("placesd").path }
    public static var places: String { directory.appendingPathComponent("places").path }
    /// iproute2's `ip` (for `ip netns exec`), or "ip" when none of the usual paths has it.
    public static let ip =
        ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        ?? "ip"
}

/// A temporary data dir (short, so the socket path stays under the limit), removed when the
/// test is done with it. It is made under `$TMPDIR` when that is short: `scripts/test.sh`
/// points it at one directory per run and removes that at the end, so what a test leaves
/// (a crashed daemon's dir, a log) does not pile up in /tmp run after run.
public final class TempDir: @unchecked Sendable {
    public let path: String

    /// `$TMPDIR` if it leaves room for a socket path in a dir made under it, else /tmp.
    public static var root: String {
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        return tmp.hasPrefix("/") && tmp.utf8.count <= 40 ? tmp : "/tmp"
    }

    public init() {
        var template = Array("\(TempDir.root)/places-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = made.map { String(cString: $0) } ?? "/tmp/places-test-\(UUID().uuidString.prefix(8))"
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The output of a finished command.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs an executable to completion, feeding `input` on stdin.
public func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe(), inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
    try inp.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// A real `placesd` process on a data dir, driven over its real control socket.
public final class DaemonProcess: @unchecked Sendable {
    public let dataDir: String
    public private(set) var process: Process?
    private var stderrFile: String { dataDir + ".stderr" }

    public var socketPath: String { dataDir + "/placesd.sock" }
    /// The network namespace the next `start` runs the daemon in (`ip netns exec NS placesd
    /// …`, which execs: the process is the daemon); nil for the test's own. The control
    /// socket is a file in the shared /tmp, so it is reached the same way either way.
    public var networkNamespace: String?
    /// A hung request fails the test after two minutes instead of hanging the run.
    public var client: ControlClient { ControlClient(socketPath: socketPath, readTimeoutSeconds: 120) }

    public init(dataDir: String) { self.dataDir = dataDir }

    /// Starts the daemon and waits until its socket answers `GET /v1/status`.
    public func start(extraArguments: [String] = []) throws {
        let p = Process()
        // Tests run many daemons at once: unless a test says otherwise, each listens for
        // peers on a free loopback port with discovery off.
        let sync = extraArguments.contains("--listen") ? [] : ["--listen", "127.0.0.1:0", "--no-discovery"]
        let arguments = ["--data-dir", dataDir, "--log-level", "debug"] + sync + extraArguments
        if let networkNamespace {
            p.executableURL = URL(fileURLWithPath: Binaries.ip)
            p.arguments = ["netns", "exec", networkNamespace, Binaries.placesd] + arguments
        } else {
            p.executableURL = URL(fileURLWithPath: Binaries.placesd)
            p.arguments = arguments
        }
        FileManager.default.createFile(atPath: stderrFile, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: stderrFile)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if !p.isRunning { throw HarnessError("placesd exited at start: \(log)") }
            if let r = try? client.send("GET", "/v1/status"), r.status == 200 { return }
            usleep(20_000)
        }
        throw HarnessError("placesd did not answer within 15 s: \(log)")
    }

    /// The daemon's stderr so far.
    public var log: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    public func stop() -> Int32 { signalAndWait(SIGTERM) }

    /// SIGKILL (a crash) and wait.
    public func kill() { _ = signalAndWait(SIGKILL) }

    /// SIGSTOP (`true`) or SIGCONT (`false`): a daemon frozen, as on a laptop whose lid closed.
    public func freeze(_ frozen: Bool) {
        guard let p = process, p.isRunning else { return }
        Glibc.kill(p.processIdentifier, frozen ? SIGSTOP : SIGCONT)
    }

    private func signalAndWait(_ signal: Int32) -> Int32 {
        guard let p = process, p.isRunning else { return process?.terminationStatus ?? 0 }
        Glibc.kill(p.processIdentifier, signal)
        p.waitUntilExit()
        process = nil
        return p.terminationStatus
    }

    deinit { _ = signalAndWait(SIGKILL) }

    // MARK: Raw HTTP helpers

    /// Sends a request with a JSON body given as text. Every response is checked against
    /// `Protocol/control-api.yaml` (`ResponseChecker`): one that breaks it fails the test.
    public func send(
        _ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:],
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> ControlClient.Response {
        let r = try client.send(method, path, body: json.map { Array($0.utf8) }, headers: headers)
        ResponseChecker.record(
            method: method, target: path, status: r.status, contentType: r.contentType, body: r.body,
            fileID: fileID, filePath: filePath, line: line)
        return r
    }

    /// Sends and decodes a 2xx JSON response, failing with the body otherwise.
    public func call<T: Decodable>(
        _ type: T.Type, _ method: String, _ path: String, json: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> T {
        let r = try send(method, path, json: json, fileID: fileID, filePath: filePath, line: line)
        guard (200..<300).contains(r.status) else { throw HarnessError("\(method) \(path) → \(r.status): \(r.text)") }
        return try JSONDecoder().decode(T.self, from: Data(r.body))
    }

    /// Runs the real `places` CLI against this daemon.
    public func cli(_ arguments: [String], input: String? = nil) throws -> CommandResult {
        try runCommand(Binaries.places, ["--data-dir", dataDir] + arguments, input: input)
    }

    /// `places init` with a passphrase file, as a new user would on a headless box.
    public func initialize(name: String = "Ana", username: String = "ana", passphrase: String? = "correct horse") throws
    {
        let body: String
        if let passphrase {
            body = #"{"name":"\#(name)","username":"\#(username)","passphrase":"\#(passphrase)"}"#
        } else {
            body = #"{"name":"\#(name)","username":"\#(username)","noPassphrase":true}"#
        }
        let r = try send("POST", "/v1/init", json: body)
        guard r.status == 201 else { throw HarnessError("init failed: \(r.status) \(r.text)") }
    }
}
