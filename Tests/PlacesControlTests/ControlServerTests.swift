import Foundation
import NIOCore
import PlacesControl
import PlacesControlClient
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Answers every request with the same large JSON body.
private struct LargeBodyHandler: ControlHandler {
    let body: [UInt8]
    func handle(_ request: ControlRequest) async -> ControlResponse { .json(status: 200, body: body) }
}

/// Keeps the answer of `/v1/kept`; answers every other path through `handle`, counting calls.
private final class KeepingHandler: ControlHandler, Sendable {
    let handled = Mutex(0)
    let stream: Bool
    init(stream: Bool) { self.stream = stream }
    func handle(_ request: ControlRequest) async -> ControlResponse {
        handled.withLock { $0 += 1 }
        if stream { return .stream(AsyncStream { _ in }) }
        return .json(status: 200, body: Array("handled \(request.path)".utf8))
    }
    func keptAnswer(_ request: ControlRequest) -> ControlResponse? {
        request.path == "/v1/kept" ? .json(status: 200, body: Array("kept".utf8)) : nil
    }
}

/// Keeps a 256 KiB answer for every request, counting the answers asked for.
private final class BigKeptHandler: ControlHandler, Sendable {
    let asked = Mutex(0)
    let body = [UInt8](repeating: 0x61, count: 256 << 10)
    func handle(_ request: ControlRequest) async -> ControlResponse { .json(status: 200, body: Array("small".utf8)) }
    func keptAnswer(_ request: ControlRequest) -> ControlResponse? {
        guard request.path == "/v1/kept" else { return nil }
        asked.withLock { $0 += 1 }
        return .json(status: 200, body: body)
    }
}

/// Answers as the daemon's writes do: `/v1/created` with 201 and the new id, `/v1/parts` in
/// parts, anything else 200 with a body naming the request.
private struct WriteHandler: ControlHandler {
    func handle(_ request: ControlRequest) async -> ControlResponse {
        switch request.path {
        case "/v1/created": .json(status: 201, body: Array(#"{"id":"new"}"#.utf8))
        case "/v1/parts": .jsonParts(status: 200, body: [ByteBuffer(string: "[1,"), ByteBuffer(string: "2]")])
        default: .json(status: 200, body: Array(#"{"\#(request.method)":"\#(request.path)"}"#.utf8))
        }
    }
}

@Suite("Control server")
struct ControlServerTests {
    /// A client that sends many requests at once and never reads: main's async channel
    /// waited for the socket before each answer; the per-connection handler answered them all
    /// into NIO's write queue (400 × 256 KiB held for one 16 KB write).
    @Test("a client that never reads its answers gets no more than the socket takes")
    func pipelinedWithoutReading() async throws {
        let handler = BigKeptHandler()
        try await Self.serving(handler) { client, path, _ in
            let fd = try Self.connect(path)
            defer { close(fd) }
            Self.write(String(repeating: "GET /v1/kept HTTP/1.1\r\nHost: places\r\n\r\n", count: 400), to: fd)
            try await Task.sleep(for: .seconds(2))
            let asked = handler.asked.withLock { $0 }
            #expect(asked < 20, "\(asked) answers of 256 KiB held for a client that reads none")
            // The daemon still serves others.
            let other = try await Self.onThread { try client.send("GET", "/v1/other") }.get()
            #expect(other.status == 200 && other.text == "small")
        }
    }

    @Test("past the connection limit a client is answered 503 and the others are still served")
    func connectionLimit() async throws {
        let limits = ControlServer.Limits(maxConnections: 3, idleTimeout: .seconds(60))
        try await Self.serving(KeepingHandler(stream: false), limits: limits) { client, path, _ in
            // Three connections that send nothing: the limit.
            var held = try (0..<3).map { _ in try Self.connect(path) }
            defer { held.forEach { close($0) } }
            try await Task.sleep(for: .milliseconds(200))
            let refused = try Self.connect(path)
            defer { close(refused) }
            let answer = await Self.onThread { Self.readAll(refused) }
            let text = (try? answer.get()) ?? ""
            #expect(text.hasPrefix("HTTP/1.1 503"), "\(text)")
            #expect(text.contains(#""code":"too-many-connections""#), "\(text)")
            // One closed, there is room again: a request is answered.
            close(held.removeLast())
            try await Task.sleep(for: .milliseconds(200))
            let served = try await Self.onThread { try client.send("GET", "/v1/other") }.get()
            #expect(served.status == 200 && served.text == "handled /v1/other")
        }
    }

    @Test("an idle connection is closed, and a stalled request; one being answered (an event stream) is not")
    func idleConnectionsClosed() async throws {
        let limits = ControlServer.Limits(maxConnections: 256, idleTimeout: .milliseconds(300))
        try await Self.serving(KeepingHandler(stream: true), limits: limits) { _, path, _ in
            let silent = try Self.connect(path)
            defer { close(silent) }
            // A request whose body stops after 3 of its 100 bytes.
            let stalled = try Self.connect(path)
            defer { close(stalled) }
            _ = Array("POST /v1/x HTTP/1.1\r\nHost: places\r\nContent-Length: 100\r\n\r\nabc".utf8)
                .withUnsafeBytes { send(stalled, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let stalledEnd = await Self.onThread { () -> Int in
                var buffer = [UInt8](repeating: 0, count: 4096)
                return recv(stalled, &buffer, buffer.count, 0)
            }
            #expect((try? stalledEnd.get()) == 0, "a stalled request's connection was not closed: \(stalledEnd)")
            let streaming = try Self.connect(path)
            defer { close(streaming) }
            _ = Array("GET /v1/events HTTP/1.1\r\nHost: places\r\n\r\n".utf8).withUnsafeBytes {
                send(streaming, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The silent one ends with EOF (its read timeout is 10 s).
            let silentEnd = await Self.onThread { () -> Int in
                var buffer = [UInt8](repeating: 0, count: 4096)
                return recv(silent, &buffer, buffer.count, 0)
            }
            #expect((try? silentEnd.get()) == 0, "an idle connection was not closed: \(silentEnd)")
            // The stream's head arrives, then the connection stays open well past the idle
            // time: a read waits for its 2 s timeout (-1, EAGAIN) instead of EOF.
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(streaming, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let stream = await Self.onThread { () -> [Int] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                let head = recv(streaming, &buffer, buffer.count, 0)
                let after = recv(streaming, &buffer, buffer.count, 0)
                return [head, after]
            }
            let reads = (try? stream.get()) ?? []
            #expect(reads.count == 2 && reads[0] > 0 && reads[1] == -1, "the stream's connection: \(reads)")
        }
    }

    /// Starts `handler`'s server on a new socket; `body` gets the client and the socket path.
    static func serving(
        _ handler: any ControlHandler, limits: ControlServer.Limits = ControlServer.Limits(),
        _ body: (ControlClient, String, Task<Void, any Error>) async throws -> Void
    ) async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/control.sock"
        let server = ControlServer(socketPath: path, handler: handler, limits: limits, log: { _ in })
        let ready = Mutex(false)
        let serving = Task { try await server.run(onReady: { ready.withLock { $0 = true } }) }
        defer { serving.cancel() }
        while !ready.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        try await body(ControlClient(socketPath: path, readTimeoutSeconds: 10), path, serving)
    }

    @Test("a kept answer is written without a call to handle; other requests are handled")
    func keptAnswer() async throws {
        let handler = KeepingHandler(stream: false)
        try await Self.serving(handler) { client, _, _ in
            let kept = try await Self.onThread { try client.send("GET", "/v1/kept") }.get()
            #expect(kept.status == 200 && kept.text == "kept" && kept.contentType == "application/json")
            #expect(handler.handled.withLock { $0 } == 0)
            let other = try await Self.onThread { try client.send("GET", "/v1/other") }.get()
            #expect(other.status == 200 && other.text == "handled /v1/other")
            #expect(handler.handled.withLock { $0 } == 1)
            // The checks before routing hold for kept answers too.
            let browser = try await Self.onThread {
                try client.send("GET", "/v1/kept", headers: ["Origin": "http://evil.example"])
            }.get()
            #expect(browser.status == 403)
            let long = try await Self.onThread {
                try client.send("GET", "/v1/kept?" + String(repeating: "a", count: ControlServer.maxURIBytes))
            }.get()
            #expect(long.status == 414)
            let large = try await Self.onThread {
                try client.send("POST", "/v1/kept", body: Array(repeating: 32, count: ControlServer.maxBodyBytes + 1))
            }.get()
            #expect(large.status == 413 && large.text.contains("body-too-large"))
            #expect(handler.handled.withLock { $0 } == 1)
        }
    }

    @Test("a write asking Prefer: return=minimal is answered 204 and says so; reads, creations and others are not")
    func preferMinimal() async throws {
        try await Self.serving(WriteHandler()) { client, path, _ in
            let minimal = ["Prefer": "return=minimal"]
            for (method, target) in [
                ("PATCH", "/v1/trip"), ("POST", "/v1/parts"), ("PUT", "/v1/x"), ("DELETE", "/v1/x"),
            ] {
                let answer = try await Self.onThread { try client.send(method, target, body: [], headers: minimal) }
                    .get()
                #expect(answer.status == 204 && answer.body.isEmpty, "\(method) \(target)")
            }
            // Several preferences in one header, other spellings, a parameter.
            for prefer in ["respond-async, return=minimal", "RETURN = \"minimal\"; foo=bar", "wait=5,return=minimal"] {
                let answer = try await Self.onThread {
                    try client.send("PATCH", "/v1/trip", body: [], headers: ["Prefer": prefer])
                }.get()
                #expect(answer.status == 204, "Prefer: \(prefer)")
            }
            // The representation when it is asked for or not declined, when the request is a
            // read, and when the answer is a creation (its id is the point).
            for prefer in ["return=representation", "minimal", "return=minimalist"] {
                let answer = try await Self.onThread {
                    try client.send("PATCH", "/v1/trip", body: [], headers: ["Prefer": prefer])
                }.get()
                #expect(answer.status == 200 && answer.text == #"{"PATCH":"/v1/trip"}"#, "Prefer: \(prefer)")
            }
            let read = try await Self.onThread { try client.send("GET", "/v1/trip", headers: minimal) }.get()
            #expect(read.status == 200 && read.text == #"{"GET":"/v1/trip"}"#)
            let created = try await Self.onThread {
                try client.send("POST", "/v1/created", body: [], headers: minimal)
            }.get()
            #expect(created.status == 201 && created.text == #"{"id":"new"}"#)
            // The 204 names the preference it honoured (RFC 7240 §3).
            let head = try await Self.exchange(
                path,
                "PATCH /v1/trip HTTP/1.1\r\nHost: places\r\nPrefer: return=minimal\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 204"))
            #expect(head.lowercased().contains("preference-applied: return=minimal"))
        }
    }

    @Test("requests sent together on a kept-alive connection are answered in order")
    func pipelined() async throws {
        try await Self.serving(KeepingHandler(stream: false)) { _, path, _ in
            let text = try await Self.exchange(
                path,
                "GET /v1/a HTTP/1.1\r\nHost: places\r\n\r\nGET /v1/kept HTTP/1.1\r\nHost: places\r\n\r\n"
                    + "GET /v1/b HTTP/1.1\r\nHost: places\r\nConnection: close\r\n\r\n")
            let bodies = ["handled /v1/a", "kept", "handled /v1/b"]
            var at = text.startIndex
            for body in bodies {
                guard let found = text.range(of: body, range: at..<text.endIndex) else {
                    Issue.record("'\(body)' missing or out of order in \(text)")
                    return
                }
                at = found.upperBound
            }
        }
    }

    @Test("a stream's connection closes when the server stops")
    func streamEndsAtStop() async throws {
        try await Self.serving(KeepingHandler(stream: true)) { _, path, serving in
            let fd = try Self.connect(path)
            defer { close(fd) }
            _ = Array("GET /v1/events HTTP/1.1\r\nHost: places\r\n\r\n".utf8).withUnsafeBytes {
                send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            let head = await Self.onThread { () -> Int in
                var buffer = [UInt8](repeating: 0, count: 4096)
                return recv(fd, &buffer, buffer.count, 0)
            }
            #expect(((try? head.get()) ?? 0) > 0)
            serving.cancel()
            // The stream ends with EOF, where a connection left open would end in the read
            // timeout (30 s here: a busy machine may take seconds to stop the server).
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let end = await Self.onThread { () -> Int in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { return n }
                }
            }
            #expect((try? end.get()) == 0, "the stream did not end with EOF when the server stopped: \(end)")
        }
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = address(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw CocoaError(.fileReadNoSuchFile)
        }
        return fd
    }

    /// Writes `text` to the socket `fd` at once (what a client sends by hand).
    static func write(_ text: String, to fd: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends `request` (written by hand: heads, pipelined requests) on a new connection to
    /// the socket at `path` and reads everything the server answers until it closes.
    static func exchange(_ path: String, _ request: String) async throws -> String {
        try await onThread { () throws -> String in
            let fd = try connect(path)
            defer { close(fd) }
            write(request, to: fd)
            return readAll(fd)
        }.get()
    }

    /// Reads until EOF (or the read timeout).
    static func readAll(_ fd: Int32) -> String {
        var out = [UInt8](), buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A response larger than the socket buffer, on a connection the client asked to close
    /// (`Connection: close`, as `ControlClient` does): the server used to close the channel
    /// as soon as the response was handed to NIO, dropping the bytes still waiting for the
    /// client to read them ("the daemon closed the connection mid-response").
    @Test("a large response on a closing connection arrives whole")
    func largeResponseArrivesWhole() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/control.sock"
        let body = Array(("[" + String(repeating: "\"0123456789abcdef\",", count: 200_000) + "0]").utf8)
        let server = ControlServer(socketPath: path, handler: LargeBodyHandler(body: body), log: { _ in })
        let ready = Mutex(false)
        let serving = Task { try await server.run(onReady: { ready.withLock { $0 = true } }) }
        defer { serving.cancel() }
        while !ready.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }

        let client = ControlClient(socketPath: path)
        for round in 0..<5 {
            // The blocking client runs on its own thread, away from the server's tasks.
            let result = await Self.onThread { try client.send("GET", "/v1/large") }
            let response = try result.get()
            #expect(response.status == 200, "round \(round)")
            #expect(response.body.count == body.count, "round \(round)")
            #expect(response.body == body, "round \(round)")
        }
    }

    /// The client receives a long body straight into its own array; a daemon that closes
    /// the connection before the body's length is reached is an error, not a short answer.
    @Test("a body cut short by the daemon is an error; a whole one arrives byte for byte")
    func bodyCutShort() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/control.sock"
        let listener = try Self.listen(path)
        defer { close(listener) }
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // Each connection: the head says 300,000 bytes; the first gets them all, the second
        // 200,000 and then the connection closes.
        let server = Thread {
            for sent in [body.count, 200_000] {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 4096)
                _ = recv(fd, &request, request.count, 0)
                let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                let bytes = head + body[..<sent]
                var offset = 0
                while offset < bytes.count {
                    let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard n > 0 else { break }
                    offset += n
                }
                close(fd)
            }
        }
        server.start()
        let client = ControlClient(socketPath: path, readTimeoutSeconds: 10)
        let whole = try await Self.onThread { try client.send("GET", "/v1/whole") }.get()
        #expect(whole.status == 200)
        #expect(whole.body == body)
        let cut = await Self.onThread { try client.send("GET", "/v1/cut") }
        #expect(throws: ControlClientError.self) { try cut.get() }
        if case .failure(let error as ControlClientError) = cut {
            #expect(error.code == .io)
            #expect(error.message.contains("mid-response"))
        }
    }

    /// The Unix socket address of `path` (the tests' paths are short enough).
    static func address(_ path: String) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        return addr
    }

    /// A listening Unix socket at `path`.
    static func listen(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = address(path)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 4) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return fd
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { try body() }) }.start()
        }
    }

    static func temporaryDirectory() throws -> String {
        // Under the run's `$TMPDIR` (scripts/test.sh) when it is short enough for a socket path.
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        let root = tmp.hasPrefix("/") && tmp.utf8.count <= 40 ? tmp : "/tmp"
        var template = Array("\(root)/places-control-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return String(cString: made)
    }
}
