import Foundation
import PlacesTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `places gui` (issue 18) as a browser and an attacker meet it: a real placesd, the real
/// `places gui --no-browser` process, and raw TCP requests that can say anything (a forged
/// `Host`, another `Origin`, no cookie). Each test asserts what a person would notice: a
/// page or data they get, or a refusal that leaves their trips unchanged.
@Suite("places gui: the app server's gate", .serialized)
struct WebGateTests {
    @Test("only the printed URL lets a browser in, and again for as long as the app runs")
    func theWayIn() throws {
        let app = try GateApp.start()
        defer { app.stop() }
        let http = GateHTTP(port: app.port)

        let bare = try http.send("GET", "/")
        #expect(bare.status == 401)
        #expect(bare.text.contains("places gui") && !bare.text.contains(app.token))
        #expect(bare.header("Content-Security-Policy") == GateApp.csp)
        let api = try http.send("GET", "/v1/status")
        #expect(api.status == 401 && api.header("Content-Type") == "application/problem+json")
        #expect(api.text.contains(#""code":"app-session-required""#) && !api.text.contains("dataDir"))
        #expect(api.header("Content-Security-Policy") == GateApp.csp)
        #expect(try http.send("GET", "/app/js/app.js").status == 401)

        let wrong = try http.send("GET", "/?token=" + String(app.token.reversed()))
        #expect(wrong.status == 401 && wrong.header("Set-Cookie") == nil)
        #expect(try http.send("GET", "/?token=").status == 401)

        for _ in 0..<2 {
            let exchanged = try http.send("GET", "/?token=" + app.token)
            #expect(exchanged.status == 303 && exchanged.header("Location") == "/")
            let cookies = exchanged.all("Set-Cookie")
            let session = cookies.first { $0.hasPrefix("places_session=") } ?? ""
            let csrf = cookies.first { $0.hasPrefix("places_csrf=") } ?? ""
            #expect(session.contains("; HttpOnly") && session.contains("SameSite=Strict") && session.contains("Path=/"))
            #expect(csrf.contains("SameSite=Strict") && !csrf.contains("HttpOnly"))
            #expect(!(exchanged.header("Location") ?? "").contains(app.token))
        }
        let session = try app.session()
        let page = try http.send("GET", "/", cookie: session.cookie)
        #expect(page.status == 200 && page.text.contains("<script type=\"module\" src=\"/app/js/app.js\">"))
        #expect(page.header("Content-Security-Policy") == GateApp.csp)
        #expect(page.header("X-Frame-Options") == "DENY" && page.header("X-Content-Type-Options") == "nosniff")
        let script = try http.send("GET", "/app/js/app.js", cookie: session.cookie)
        #expect(script.status == 200 && script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.header("Content-Security-Policy") == GateApp.csp)
        let config = try http.send("GET", "/app/config.json", cookie: session.cookie)
        #expect(config.status == 200 && config.text.contains(#""version":"#) && !config.text.contains("tiles"))

        for escape in [
            "/app/../Package.swift", "/app/%2e%2e/%2e%2e/Package.swift", "/app/..%2f..%2fPackage.swift",
            "/app/js/../../../../Package.swift", "/app/.hidden.js", "/Package.swift", "/app/index.swift",
        ] {
            let refused = try http.send("GET", escape, cookie: session.cookie)
            #expect(refused.status == 404, "\(escape)")
            #expect(!refused.text.contains("PackageDescription"), "\(escape)")
        }
    }

    @Test("a Host that is not the loopback address and port is refused, even with a valid cookie")
    func hostHeader() throws {
        let app = try GateApp.start()
        defer { app.stop() }
        let http = GateHTTP(port: app.port)
        let session = try app.session()
        for host in ["evil.example:\(app.port)", "127.0.0.1:\(app.port + 1)", "evil.example", "127.0.0.1"] {
            let status = try http.send("GET", "/v1/status", host: host, cookie: session.cookie)
            #expect(status.status == 421 && !status.text.contains("dataDir"), "\(host)")
            #expect(status.header("Content-Security-Policy") == GateApp.csp)
            #expect(try http.send("GET", "/?token=" + app.token, host: host).status == 421, "\(host)")
        }
        for host in ["localhost:\(app.port)", "[::1]:\(app.port)"] {
            #expect(try http.send("GET", "/v1/status", host: host, cookie: session.cookie).status == 200, "\(host)")
        }
        let crossSite = try http.send(
            "GET", "/v1/status", headers: ["Sec-Fetch-Site": "cross-site"], cookie: session.cookie)
        #expect(crossSite.status == 403 && !crossSite.text.contains("dataDir"))
    }

    @Test("the API answers as on the socket; changes need the app's Origin and CSRF token")
    func apiThroughTheGate() throws {
        let app = try GateApp.start()
        defer { app.stop() }
        try app.daemon.initialize()
        let http = GateHTTP(port: app.port)
        let session = try app.session()

        let viaGate = try http.send("GET", "/v1/status", cookie: session.cookie)
        let viaSocket = try app.daemon.send("GET", "/v1/status")
        #expect(viaGate.status == 200 && viaGate.body == viaSocket.body)
        #expect(viaGate.header("Content-Type") == "application/json")
        #expect(viaGate.header("Content-Security-Policy") == GateApp.csp)

        let before = try app.daemon.send("GET", "/v1/places").body
        let place = Array(#"{"name":"Belem Tower","latitude":38.6916,"longitude":-9.2160}"#.utf8)
        let json = ["Content-Type": "application/json"]
        let noCSRF = try http.send(
            "POST", "/v1/places", headers: json.merging(["Origin": app.origin]) { a, _ in a }, cookie: session.cookie,
            body: place)
        #expect(noCSRF.status == 403 && noCSRF.text.contains("csrf-token"))
        let wrongCSRF = try http.send(
            "POST", "/v1/places", headers: json.merging(["Origin": app.origin, "X-Places-CSRF": "x"]) { a, _ in a },
            cookie: session.cookie, body: place)
        #expect(wrongCSRF.status == 403)
        let evil = try http.send(
            "POST", "/v1/places",
            headers: json.merging(["Origin": "http://evil.example", "X-Places-CSRF": session.csrf]) { a, _ in a },
            cookie: session.cookie, body: place)
        #expect(evil.status == 403 && evil.text.contains("cross-origin"))
        let noOrigin = try http.send(
            "POST", "/v1/places", headers: json.merging(["X-Places-CSRF": session.csrf]) { a, _ in a },
            cookie: session.cookie, body: place)
        #expect(noOrigin.status == 403)
        #expect(try app.daemon.send("GET", "/v1/places").body == before)

        let created = try http.send(
            "POST", "/v1/places",
            headers: json.merging(["Origin": app.origin, "X-Places-CSRF": session.csrf]) { a, _ in a },
            cookie: session.cookie, body: place)
        #expect(created.status == 201, "\(created.text)")
        #expect(try app.daemon.send("GET", "/v1/places").text.contains("Belem Tower"))
        #expect(created.header("Content-Security-Policy") == GateApp.csp)

        // A body over the daemon's 1 MiB limit streams through and gets the daemon's answer.
        let large = [UInt8](repeating: UInt8(ascii: " "), count: 3 << 20)
        let tooLarge = try http.send(
            "POST", "/v1/places",
            headers: json.merging(["Origin": app.origin, "X-Places-CSRF": session.csrf]) { a, _ in a },
            cookie: session.cookie, body: large)
        #expect(tooLarge.status == 413 && tooLarge.text.contains("body-too-large"))

        // A browser keeps its connection: requests one after the other on it.
        let connection = try GateConnection(port: app.port)
        for _ in 0..<3 {
            try connection.write(
                GateHTTP.request("GET", "/v1/status", host: "127.0.0.1:\(app.port)", cookie: session.cookie))
            #expect(try connection.readResponse().status == 200)
        }
    }

    @Test("live events arrive through the app server as they happen")
    func eventsStream() throws {
        let app = try GateApp.start()
        defer { app.stop() }
        try app.daemon.initialize()
        let session = try app.session()
        let stream = try GateConnection(port: app.port)
        try stream.write(GateHTTP.request("GET", "/v1/events", host: "127.0.0.1:\(app.port)", cookie: session.cookie))
        let head = try stream.readHead()
        #expect(head.status == 200 && head.header("Content-Type") == "application/x-ndjson")
        #expect(head.header("Content-Security-Policy") == GateApp.csp)
        #expect(try stream.readChunk(timeoutSeconds: 5).contains(#""type":"hello""#))

        let started = Date()
        _ = try app.daemon.send(
            "POST", "/v1/places", json: #"{"name":"Cabo da Roca","latitude":38.78,"longitude":-9.5}"#)
        var lines = ""
        while !lines.contains(#""type":"changed""#), Date().timeIntervalSince(started) < 1 {
            lines += try stream.readChunk(timeoutSeconds: 1)
        }
        #expect(lines.contains(#""type":"changed""#), "no change line within 1 s: \(lines)")
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test("a tile server given to places gui reaches the page's config and its image policy, and no further")
    func tileServer() throws {
        let app = try GateApp.start(extraArguments: ["--tiles", "https://{s}.tile.example.org/{z}/{x}/{y}.png"])
        defer { app.stop() }
        let session = try app.session()
        let config = try GateHTTP(port: app.port).send("GET", "/app/config.json", cookie: session.cookie)
        #expect(config.text.contains(#""tiles":"https://{s}.tile.example.org/{z}/{x}/{y}.png""#))
        let policy = config.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("img-src 'self' data: blob: https://*.tile.example.org;"))
        #expect(policy.contains("connect-src 'self';") && policy.contains("script-src 'self';"))

        let bad = try runCommand(
            Binaries.places, ["gui", "--no-browser", "--tiles", "https://tile.example.org/{z}/{x}"])
        #expect(bad.status != 0 && bad.stderr.contains("{y} is missing"))
    }

    @Test("--listen refuses any address that is not loopback", arguments: ["0.0.0.0:0", "192.168.1.1:80", "[::]:0"])
    func nonLoopbackRefused(address: String) throws {
        let result = try runCommand(Binaries.places, ["gui", "--no-browser", "--listen", address])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("not a loopback address") && result.stderr.contains("127.0.0.1"))
    }
}

/// A placesd and a `places gui` in front of it, on a free loopback port.
final class GateApp: @unchecked Sendable {
    /// The Content-Security-Policy every answer must carry (no tile server set).
    static let csp =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    let dir: TempDir
    let daemon: DaemonProcess
    let gui: Process
    let port: Int
    let token: String
    var origin: String { "http://127.0.0.1:\(port)" }

    private init(dir: TempDir, daemon: DaemonProcess, gui: Process, port: Int, token: String) {
        self.dir = dir
        self.daemon = daemon
        self.gui = gui
        self.port = port
        self.token = token
    }

    /// Starts both and reads the URL from the first line `places gui` prints.
    static func start(extraArguments: [String] = []) throws -> GateApp {
        let dir = TempDir()
        let daemon = DaemonProcess(dataDir: dir.path)
        try daemon.start()
        let gui = Process()
        gui.executableURL = URL(fileURLWithPath: Binaries.places)
        gui.arguments = ["--data-dir", dir.path, "gui", "--no-browser", "--listen", "127.0.0.1:0"] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment["PLACES_TILES"] = nil
        gui.environment = environment
        let out = Pipe()
        gui.standardOutput = out
        gui.standardError = FileHandle.nullDevice
        try gui.run()
        var line = [UInt8]()
        while !line.contains(10) {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { throw HarnessError("places gui printed no URL (exit \(gui.terminationStatus))") }
            line += data
        }
        let url = String(decoding: line.prefix { $0 != 10 }, as: UTF8.self)
        let pattern = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43})$/
        guard let match = url.wholeMatch(of: pattern), let port = Int(match.1), port > 0 else {
            throw HarnessError("places gui printed \(url)")
        }
        return GateApp(dir: dir, daemon: daemon, gui: gui, port: port, token: String(match.2))
    }

    /// A browser's session: its cookie header and CSRF token, from the token exchange.
    func session() throws -> (cookie: String, csrf: String) {
        let exchanged = try GateHTTP(port: port).send("GET", "/?token=" + token)
        var pairs: [String: String] = [:]
        for cookie in exchanged.all("Set-Cookie") {
            let pair = cookie.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { pairs[pair[0]] = pair[1] }
        }
        guard let id = pairs["places_session"], let csrf = pairs["places_csrf"] else {
            throw HarnessError("no session cookies: \(exchanged.status)")
        }
        return ("places_session=\(id); places_csrf=\(csrf)", csrf)
    }

    /// SIGTERM to the app server (which must exit 0 at once), then the daemon.
    func stop() {
        if gui.isRunning {
            kill(gui.processIdentifier, SIGTERM)
            gui.waitUntilExit()
        }
        #expect(gui.terminationStatus == 0)
        daemon.stop()
        dir.remove()
    }
}

/// One HTTP exchange at a time over a new TCP connection, with any headers at all.
struct GateHTTP {
    let port: Int

    static func request(
        _ method: String, _ target: String, host: String, headers: [String: String] = [:], cookie: String? = nil,
        body: [UInt8]? = nil
    ) -> [UInt8] {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if let cookie { text += "Cookie: \(cookie)\r\n" }
        if let body { text += "Content-Length: \(body.count)\r\n" }
        return Array((text + "\r\n").utf8) + (body ?? [])
    }

    func send(
        _ method: String, _ target: String, host: String? = nil, headers: [String: String] = [:],
        cookie: String? = nil, body: [UInt8]? = nil
    ) throws -> GateResponse {
        let connection = try GateConnection(port: port)
        try connection.write(
            Self.request(
                method, target, host: host ?? "127.0.0.1:\(port)", headers: headers, cookie: cookie, body: body))
        return try connection.readResponse()
    }
}

/// A response as it came off the wire.
struct GateResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8] = []
    var text: String { String(decoding: body, as: UTF8.self) }

    func all(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    func header(_ name: String) -> String? { all(name).first }
}

/// A blocking TCP connection to 127.0.0.1 that reads HTTP/1.1 responses.
final class GateConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        guard let port16 = UInt16(exactly: port) else { throw HarnessError("port \(port) out of range") }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port16.bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw HarnessError("cannot connect to 127.0.0.1:\(port)")
        }
        setTimeout(seconds: 20)
    }

    deinit { close(fd) }

    func setTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer and stop reading a body it refuses: what was sent is enough.
            guard n > 0 else { return }
            sent += n
        }
    }

    /// Reads more bytes; false at the end of the stream (a timeout throws).
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { throw HarnessError("read timed out or failed (errno \(errno))") }
        buffer += chunk.prefix(n)
        return n > 0
    }

    private func line() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return text.hasSuffix("\r") ? String(text.dropLast()) : text
            }
            guard try fill() else { throw HarnessError("connection closed mid-line") }
        }
    }

    func readHead() throws -> GateResponse {
        let statusLine = try line()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw HarnessError("bad status line \(statusLine)") }
        var response = GateResponse(status: status, headers: [])
        while case let header = try line(), !header.isEmpty {
            let kv = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2 { response.headers.append((kv[0], kv[1])) }
        }
        return response
    }

    /// The data of the next chunk of a chunked body ("" at its end).
    func readChunk(timeoutSeconds: Int) throws -> String {
        setTimeout(seconds: timeoutSeconds)
        defer { setTimeout(seconds: 20) }
        guard let size = Int(try line(), radix: 16) else { throw HarnessError("bad chunk size") }
        while buffer.count < size + 2 {
            guard try fill() else { throw HarnessError("connection closed mid-chunk") }
        }
        let data = String(decoding: buffer[..<size], as: UTF8.self)
        buffer.removeSubrange(..<(size + 2))
        return data
    }

    func readResponse() throws -> GateResponse {
        var response = try readHead()
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { throw HarnessError("connection closed mid-body") }
            }
            response.body = Array(buffer[..<length])
            buffer.removeSubrange(..<length)
        } else if response.header("Transfer-Encoding") == "chunked" {
            while case let chunk = try readChunk(timeoutSeconds: 20), !chunk.isEmpty {
                response.body += Array(chunk.utf8)
            }
            _ = try line()
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }
}
