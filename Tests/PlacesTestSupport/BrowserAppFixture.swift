import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `places gui --no-browser --listen 127.0.0.1:0` process in front of a daemon: its
/// URL (with the one-time `?token=`) is the first line of its stdout. Killed at deinit.
public final class GuiProcess: @unchecked Sendable {
    public let process: Process
    private let outFile: String
    private let errFile: String
    /// The URL to open, `http://127.0.0.1:PORT/?token=SECRET` (as printed).
    public private(set) var url = ""

    /// Starts the app server on `daemon`'s data dir and waits for its URL.
    public init(daemon: DaemonProcess, extraArguments: [String] = []) throws {
        outFile = daemon.dataDir + ".gui.out"
        errFile = daemon.dataDir + ".gui.err"
        process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.places)
        process.arguments =
            ["--data-dir", daemon.dataDir, "gui", "--no-browser", "--listen", "127.0.0.1:0"] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        // No tile server: the tests never send traffic beyond loopback.
        environment["PLACES_TILES"] = nil
        environment["BROWSER"] = nil
        process.environment = environment
        for file in [outFile, errFile] { FileManager.default.createFile(atPath: file, contents: nil) }
        process.standardOutput = FileHandle(forWritingAtPath: outFile)
        process.standardError = FileHandle(forWritingAtPath: errFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try waitUntil("places gui prints its URL", timeout: 15) {
            if !process.isRunning { throw HarnessError("places gui exited: \(log)") }
            let out = (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
            guard let line = out.split(separator: "\n", omittingEmptySubsequences: false).first,
                out.contains("\n")
            else { return false }
            url = line.trimmingCharacters(in: .whitespaces)
            return true
        }
        guard url.hasPrefix("http://127.0.0.1:"), token != nil, port > 0 else {
            throw HarnessError("places gui's first line is not http://127.0.0.1:PORT/?token=…: \(url)")
        }
    }

    /// `http://127.0.0.1:PORT` (no path).
    public var origin: String {
        guard let components = URLComponents(string: url), let host = components.host, let port = components.port
        else { return "" }
        return "http://\(host):\(port)"
    }

    public var port: Int { URLComponents(string: url)?.port ?? 0 }

    /// The secret of the printed URL.
    public var token: String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == "token" }?.value
    }

    /// What the server wrote on stdout and stderr.
    public var log: String {
        ((try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "")
            + ((try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "")
    }

    /// SIGTERM, then SIGKILL if it has not ended within 5 s.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
        for file in [outFile, errFile] { try? FileManager.default.removeItem(atPath: file) }
    }
}

/// What a browser test runs against: a real placesd with an identity, logged in, listening
/// for peers on loopback with discovery off (`node`), the real `places gui` in front of it
/// (`gui`), and a headless Chromium (`browser`) that has not opened the app yet.
public final class BrowserApp: @unchecked Sendable {
    public let node: PeerNode
    public let gui: GuiProcess
    public let browser: WebDriver
    /// Console lines every test tolerates (none by default).
    public var allowedConsoleErrors: [String] = []

    public var daemon: DaemonProcess { node.daemon }

    /// Starts the daemon (as `name`), the app server and the browser.
    public init(name: String = "Ana", browserHosts: [String] = []) throws {
        node = try PeerNode(name)
        gui = try GuiProcess(daemon: node.daemon)
        browser = try WebDriver(hosts: browserHosts)
    }

    /// Opens the printed URL (the token becomes the session cookie) and waits until the app
    /// has rendered its first view.
    public func open(_ hash: String? = nil, timeout: TimeInterval = 15) throws {
        try browser.navigate(gui.url)
        try browser.waitFor("main[data-ready=true]", visible: false, timeout: timeout)
        if let hash { try browser.go(hash, timeout: timeout) }
    }

    /// Fails with the console's errors (JS exceptions, failed requests) beyond those allowed.
    public func assertNoConsoleErrors(allowing more: [String] = []) throws {
        let errors = browser.consoleErrors(allowing: allowedConsoleErrors + more)
        guard errors.isEmpty else {
            throw HarnessError(
                "the browser console holds errors:\n  " + errors.map(\.description).joined(separator: "\n  "))
        }
    }

    /// A JSON call to the daemon's socket (not through the browser): what is really stored.
    @discardableResult
    public func api(_ method: String, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        try node.json(method, path, body)
    }

    /// Ends the browser first, then the app server; the daemon stops when `node` goes.
    public func close() {
        browser.quit()
        gui.stop()
    }

    deinit { close() }
}
