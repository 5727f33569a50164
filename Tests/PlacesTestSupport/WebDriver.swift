import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A W3C WebDriver client for headless Chromium: starts its own `chromedriver --port=0`
/// with a fresh profile under /tmp, opens one session and, on `quit()` or deinit (a failed
/// test included), ends the session and kills chromedriver and every browser process it
/// started. Only loopback: every host name but those mapped in `hosts` fails to resolve
/// inside the browser.
public final class WebDriver: @unchecked Sendable {
    /// A W3C element reference.
    public struct Element: Sendable, CustomStringConvertible {
        public let id: String
        public let selector: String
        public var json: [String: Any] { [WebDriver.elementKey: id] }
        public var description: String { "<\(selector)>" }
    }

    /// One line of the browser's console (levels SEVERE, WARNING, INFO, DEBUG).
    public struct LogEntry: Sendable, CustomStringConvertible {
        public var level: String
        public var message: String
        public var description: String { "[\(level)] \(message)" }
    }

    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    public let profile: TempDir
    private var driver: Process?
    public private(set) var port = 0
    public private(set) var sessionID = ""
    /// Every console line read so far (`consoleLog()` appends).
    public private(set) var console = [LogEntry]()

    /// Starts chromedriver and a headless session. `hosts` maps names to 127.0.0.1 in the
    /// browser's resolver (the DNS-rebinding test); `extraArguments` go to Chromium.
    public init(hosts: [String] = [], extraArguments: [String] = []) throws {
        profile = TempDir()
        guard let chromedriver = ProcessInfo.processInfo.environment["CHROMEDRIVER"] ?? executableOnPath("chromedriver")
        else { throw HarnessError("chromedriver is not on PATH (scripts/bootstrap.sh installs chromium-driver)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromedriver)
        p.arguments = ["--port=0", "--log-path=\(profile.path)/chromedriver.log"]
        let out = profile.path + "/chromedriver.out"
        FileManager.default.createFile(atPath: out, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle.nullDevice
        try p.run()
        driver = p
        do {
            try waitUntil("chromedriver says its port", timeout: 15) {
                let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                guard let range = text.range(of: "started successfully on port ") else { return false }
                port = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
                return port > 0
            }
            try newSession(hosts: hosts, extraArguments: extraArguments)
        } catch {
            quit()
            throw error
        }
    }

    private func newSession(hosts: [String], extraArguments: [String]) throws {
        // Every name resolves nowhere except those mapped to loopback: nothing the page (or
        // Chromium itself) asks for can leave the machine by name.
        let rules = hosts.map { "MAP \($0) 127.0.0.1" } + ["MAP * ~NOTFOUND", "EXCLUDE 127.0.0.1"]
        let args =
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)/profile",
                "--host-resolver-rules=\(rules.joined(separator: ", "))", "--no-proxy-server",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,MediaRouter,OptimizationHints",
                "--no-first-run", "--no-default-browser-check", "--disable-crash-reporter", "--disable-breakpad",
                "--lang=en-US",
            ] + extraArguments
        var options: [String: Any] = ["args": args]
        if let binary = ProcessInfo.processInfo.environment["CHROMIUM"] { options["binary"] = binary }
        let capabilities: [String: Any] = [
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": ["browser": "ALL"],
            "pageLoadStrategy": "normal", "unhandledPromptBehavior": "dismiss",
        ]
        let value = try raw("POST", "/session", ["capabilities": ["alwaysMatch": capabilities]], timeout: 60)
        guard let object = value as? [String: Any], let id = object["sessionId"] as? String else {
            throw HarnessError("chromedriver: no session in \(String(describing: value))")
        }
        sessionID = id
        _ = try command("POST", "/timeouts", ["script": 30_000, "pageLoad": 30_000, "implicit": 0])
    }

    // MARK: The protocol

    /// Sends a command to the session (`path` after `/session/{id}`) and answers its `value`.
    @discardableResult
    public func command(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: TimeInterval = 60)
        throws -> Any?
    {
        guard !sessionID.isEmpty else { throw HarnessError("WebDriver: no session") }
        return try raw(method, "/session/\(sessionID)\(path)", body, timeout: timeout)
    }

    /// A WebDriver error: the W3C `error` code and its message.
    public struct Failure: Error, CustomStringConvertible {
        public var code: String
        public var message: String
        public var description: String { "WebDriver \(code): \(message.prefix(600))" }
    }

    private func raw(_ method: String, _ path: String, _ body: [String: Any]?, timeout: TimeInterval) throws -> Any? {
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let response = try LoopbackHTTP.send(
            port: port, method, path, headers: ["Content-Type": "application/json; charset=utf-8"], body: bytes,
            timeout: timeout)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed]))
        let value = (object as? [String: Any])?["value"]
        if response.status >= 400 {
            let error = value as? [String: Any]
            throw Failure(
                code: error?["error"] as? String ?? "http-\(response.status)",
                message: error?["message"] as? String ?? response.text)
        }
        return value is NSNull ? nil : value
    }

    // MARK: Navigation and scripts

    public func navigate(_ url: String) throws { try command("POST", "/url", ["url": url]) }

    public var currentURL: String { (try? command("GET", "/url")) as? String ?? "" }

    public var title: String { (try? command("GET", "/title")) as? String ?? "" }

    /// The page's source as the DOM serializes it now.
    public var pageSource: String { (try? command("GET", "/source")) as? String ?? "" }

    /// Runs `script` (a function body; `arguments[i]` are `args`, elements as `Element.json`).
    @discardableResult
    public func execute(_ script: String, _ args: [Any] = []) throws -> Any? {
        try command("POST", "/execute/sync", ["script": script, "args": args])
    }

    /// Runs `script` until it calls `arguments[arguments.length - 1](result)`.
    @discardableResult
    public func executeAsync(_ script: String, _ args: [Any] = [], timeout: TimeInterval = 30) throws -> Any? {
        try command("POST", "/execute/async", ["script": script, "args": args], timeout: timeout + 10)
    }

    /// Runs a Chrome DevTools command through chromedriver.
    @discardableResult
    public func devTools(_ cmd: String, _ params: [String: Any] = [:]) throws -> Any? {
        try command("POST", "/goog/cdp/execute", ["cmd": cmd, "params": params])
    }

    // MARK: Elements

    /// The first element matching `css`, or nil.
    public func first(_ css: String, in parent: Element? = nil) -> Element? { all(css, in: parent).first }

    /// Every element matching `css` (inside `parent` when given), in document order.
    public func all(_ css: String, in parent: Element? = nil) -> [Element] {
        let path = parent.map { "/element/\($0.id)/elements" } ?? "/elements"
        let found = (try? command("POST", path, ["using": "css selector", "value": css])) as? [[String: Any]] ?? []
        return found.compactMap { ($0[Self.elementKey] as? String).map { Element(id: $0, selector: css) } }
    }

    /// The first element matching `css`, failing the test if there is none.
    public func find(_ css: String, in parent: Element? = nil) throws -> Element {
        guard let element = first(css, in: parent) else { throw HarnessError("no element matches \(css)") }
        return element
    }

    public func click(_ element: Element) throws { try command("POST", "/element/\(element.id)/click", [:]) }

    /// Types `text` into the element (after focusing it). `\u{E007}` is Enter.
    public func type(_ element: Element, _ text: String) throws {
        try command("POST", "/element/\(element.id)/value", ["text": text])
    }

    public func clear(_ element: Element) throws { try command("POST", "/element/\(element.id)/clear", [:]) }

    /// The element's rendered text (what the user sees, `innerText`-like).
    public func text(_ element: Element) throws -> String {
        try command("GET", "/element/\(element.id)/text") as? String ?? ""
    }

    public func attribute(_ element: Element, _ name: String) throws -> String? {
        try command("GET", "/element/\(element.id)/attribute/\(name)") as? String
    }

    public func property(_ element: Element, _ name: String) throws -> Any? {
        try command("GET", "/element/\(element.id)/property/\(name)")
    }

    public func isDisplayed(_ element: Element) -> Bool {
        ((try? command("GET", "/element/\(element.id)/displayed")) as? Bool) ?? false
    }

    /// The element's box in CSS pixels (x, y, width, height).
    public func rect(_ element: Element) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let r = try command("GET", "/element/\(element.id)/rect") as? [String: Any] ?? [:]
        func number(_ key: String) -> Double { (r[key] as? NSNumber)?.doubleValue ?? 0 }
        return (number("x"), number("y"), number("width"), number("height"))
    }

    /// Sets a file input's files (absolute paths on this machine).
    public func upload(_ input: Element, path: String) throws { try type(input, path) }

    // MARK: Cookies, screenshots, the console

    /// The cookies the browser holds for the current page's origin, as WebDriver reports
    /// them (HttpOnly ones included).
    public func cookies() throws -> [[String: Any]] { try command("GET", "/cookie") as? [[String: Any]] ?? [] }

    /// A PNG of the viewport.
    public func screenshot() throws -> Data {
        guard let base64 = try command("GET", "/screenshot") as? String, let data = Data(base64Encoded: base64) else {
            throw HarnessError("no screenshot")
        }
        return data
    }

    /// Reads the console lines logged since the last read, appends them to `console` and
    /// answers them.
    @discardableResult
    public func consoleLog() -> [LogEntry] {
        let entries = (try? command("POST", "/se/log", ["type": "browser"])) as? [[String: Any]] ?? []
        let read = entries.map {
            LogEntry(level: $0["level"] as? String ?? "", message: $0["message"] as? String ?? "")
        }
        console += read
        return read
    }

    /// The SEVERE console lines so far (JS errors, failed requests), minus those containing
    /// one of `allowed`.
    public func consoleErrors(allowing allowed: [String] = []) -> [LogEntry] {
        consoleLog()
        return console.filter { entry in
            entry.level == "SEVERE" && !allowed.contains { entry.message.contains($0) }
        }
    }

    // MARK: Ending

    /// Ends the session and kills chromedriver and every process under it (also called by
    /// deinit). Safe to call twice.
    public func quit() {
        if !sessionID.isEmpty {
            _ = try? raw("DELETE", "/session/\(sessionID)", nil, timeout: 10)
            sessionID = ""
        }
        if let driver {
            let pids = descendants(of: driver.processIdentifier) + processes(mentioning: profile.path)
            for pid in Set(pids) where pid != driver.processIdentifier { Glibc.kill(pid, SIGKILL) }
            if driver.isRunning {
                Glibc.kill(driver.processIdentifier, SIGKILL)
                driver.waitUntilExit()
            }
            self.driver = nil
        }
        profile.remove()
    }

    deinit { quit() }
}

/// Every process under `root` (children, theirs, …), read from /proc.
func descendants(of root: pid_t) -> [pid_t] {
    var children = [pid_t: [pid_t]]()
    for (pid, stat) in procStats() {
        // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
        guard let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let ppid = pid_t(fields[1]) { children[ppid, default: []].append(pid) }
    }
    var found = [pid_t](), queue = [root]
    while let next = queue.popLast() {
        for child in children[next] ?? [] {
            found.append(child)
            queue.append(child)
        }
    }
    return found
}

/// The processes whose command line holds `text` (a unique temporary path of ours).
func processes(mentioning text: String) -> [pid_t] {
    let own = getpid()
    return procStats().compactMap { pid, _ in
        guard pid != own, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        return String(decoding: data, as: UTF8.self).contains(text) ? pid : nil
    }
}

private func procStats() -> [(pid_t, String)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name in
        guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8)
        else { return nil }
        return (pid, stat)
    }
}
