import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `placesd` with an identity, listening for peers on a loopback port with discovery
/// off, that a test can freeze (SIGSTOP), thaw (SIGCONT), kill (SIGKILL) and restart on the
/// same data dir and port. Talks raw JSON, so that tests using it depend on the wire only.
public final class PeerNode: @unchecked Sendable {
    public let dir: TempDir
    public let daemon: DaemonProcess
    public let name: String
    /// The public id (human form), known once initialized.
    public private(set) var id = ""
    /// HOST:PORT the daemon listens on for peers (kept across restarts).
    public private(set) var address = ""

    /// Starts a daemon on a fresh data dir and creates an identity with an unsealed key.
    public init(_ name: String, username: String? = nil) throws {
        self.name = name
        dir = TempDir()
        daemon = DaemonProcess(dataDir: dir.path)
        try start()
        try daemon.initialize(
            name: name, username: username ?? name.lowercased().filter(\.isLetter), passphrase: nil)
        id = try json("GET", "/v1/status")["id"] as? String ?? ""
    }

    /// Starts on a free port the first time and on the same port afterwards, as a daemon on a
    /// fixed port would, so that the addresses its peers stored stay right.
    public func start() throws {
        try daemon.start(extraArguments: ["--listen", address.isEmpty ? "127.0.0.1:0" : address, "--no-discovery"])
        // The control socket can answer before the sync listener is bound (port still 0).
        let deadline = Date().addingTimeInterval(10)
        repeat {
            address = try json("GET", "/v1/status")["listen"] as? String ?? ""
            if !address.hasSuffix(":0") { break }
            usleep(20_000)
        } while Date() < deadline
    }

    /// The running process id, if any.
    public var pid: pid_t? { daemon.process.map(\.processIdentifier) }

    /// SIGSTOP: the process stays, answers nothing, keeps its sockets open.
    public func freeze() { if let pid { Glibc.kill(pid, SIGSTOP) } }

    /// SIGCONT after `freeze`.
    public func thaw() { if let pid { Glibc.kill(pid, SIGCONT) } }

    /// SIGKILL (also ends a frozen process) and wait.
    public func crash() { daemon.kill() }

    /// SIGTERM and wait (a clean shutdown, the database checkpointed).
    public func stop() {
        thaw()
        daemon.stop()
    }

    /// Sends a request with a JSON body text.
    public func send(_ method: String, _ path: String, _ body: String? = nil) throws -> ControlResponse {
        let r = try daemon.send(method, path, json: body)
        return ControlResponse(status: r.status, body: r.body)
    }

    /// Sends a request and returns the 2xx answer as a JSON object, failing with the body otherwise.
    @discardableResult
    public func json(_ method: String, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        let r = try send(method, path, body)
        guard (200..<300).contains(r.status) else {
            throw HarnessError("\(name): \(method) \(path) → \(r.status): \(r.text)")
        }
        return JSONCanon.parse(r.body) as? [String: Any] ?? [:]
    }

    /// Adds `other` as a contact, so that its shares arrive without an invitation.
    public func trust(_ other: PeerNode, name: String? = nil) throws {
        let body = name.map { #"{"id":"\#(other.id)","name":"\#($0)"}"# } ?? #"{"id":"\#(other.id)"}"#
        try json("POST", "/v1/contacts", body)
    }

    /// Tells this daemon where `other` listens (`places peers add`).
    public func addPeer(_ other: PeerNode) throws {
        try json("POST", "/v1/peers", #"{"address":"\#(other.address)"}"#)
    }

    deinit {
        stop()
        dir.remove()
    }
}

/// A control API answer: status and body bytes.
public struct ControlResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// Whether the API acknowledged the request (2xx).
    public var ok: Bool { (200..<300).contains(status) }
}

/// Polls `condition` every 50 ms until it holds, failing after `timeout`.
public func waitUntil(_ what: String, timeout: TimeInterval = 20, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if (try? condition()) == true { return }
        guard Date() < deadline else { throw HarnessError("timed out after \(Int(timeout)) s waiting until \(what)") }
        usleep(50_000)
    }
}
