import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why the client could not get an answer from the daemon.
public struct ControlClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// Nothing listens on the socket: the daemon is not running.
        case noDaemon
        /// The socket path is longer than a Unix socket address allows.
        case pathTooLong
        /// Reading or writing the socket failed, or the answer was not HTTP.
        case io
    }

    public var code: Code
    public var message: String

    public var description: String { message }
}

/// A small blocking HTTP/1.1 client for the control socket, used by the `places` CLI and
/// by tests (one request per connection).
public struct ControlClient: Sendable {
    /// The socket the daemon listens on.
    public let socketPath: String
    /// When set, a request whose answer stalls this long fails (`io`) instead of waiting
    /// forever (tests set it; the CLI waits as long as the daemon takes).
    public let readTimeoutSeconds: Int?

    public init(socketPath: String, readTimeoutSeconds: Int? = nil) {
        self.socketPath = socketPath
        self.readTimeoutSeconds = readTimeoutSeconds
    }

    /// A response: status, content type and body.
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// The body as text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request and reads the whole response. A body is sent as
    /// `application/json` unless `headers` has a `Content-Type`.
    public func send(
        _ method: String, _ target: String, body: [UInt8]? = nil, headers: [String: String] = [:]
    ) throws(ControlClientError) -> Response {
        let fd = try connect()
        defer { close(fd) }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: places\r\nConnection: close\r\n"
        for (k, v) in headers { request += "\(k): \(v)\r\n" }
        if let body {
            // JSON unless the caller names the media type (a place import sends KML or GPX).
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                request += "Content-Type: application/json\r\n"
            }
            request += "Content-Length: \(body.count)\r\n"
        }
        request += "\r\n"
        try writeAll(fd, Array(request.utf8) + (body ?? []))
        var reader = HTTPResponseReader(fd: fd)
        let head = try reader.readHead()
        var out = [UInt8]()
        try reader.readBody(head) { chunk in
            out += chunk
            return true
        }
        return Response(status: head.status, contentType: head.headers["content-type"] ?? "", body: out)
    }

    /// Opens a streaming GET and hands each complete line to `onLine` until it returns false
    /// or the daemon ends the stream.
    public func streamLines(_ target: String, onLine: ([UInt8]) -> Bool) throws(ControlClientError) -> Int {
        let fd = try connect()
        defer { close(fd) }
        try writeAll(fd, Array("GET \(target) HTTP/1.1\r\nHost: places\r\nConnection: close\r\n\r\n".utf8))
        var reader = HTTPResponseReader(fd: fd)
        let head = try reader.readHead()
        var pending = [UInt8]()
        var errorBody = [UInt8]()
        try reader.readBody(head) { chunk in
            if head.status != 200 {
                errorBody += chunk
                return true
            }
            pending += chunk
            while let nl = pending.firstIndex(of: 10) {
                let line = Array(pending[..<nl])
                pending.removeSubrange(...nl)
                if !onLine(line) { return false }
            }
            return true
        }
        if head.status != 200 { _ = onLine(errorBody) }
        return head.status
    }

    private func connect() throws(ControlClientError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlClientError(code: .io, message: "cannot create a socket") }
        if let readTimeoutSeconds {
            var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard pathBytes.count < capacity else {
            close(fd)
            throw ControlClientError(
                code: .pathTooLong,
                message:
                    "the socket path \(socketPath) is \(pathBytes.count) bytes; Unix sockets allow \(capacity - 1): use a shorter --data-dir"
            )
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in pathBytes.enumerated() { raw[i] = b }
            raw[pathBytes.count] = 0
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let err = errno
            close(fd)
            throw ControlClientError(
                code: .noDaemon,
                message:
                    "no daemon is running at \(socketPath) (\(String(cString: strerror(err)))): start one with `placesd` (or `make run`)"
            )
        }
        return fd
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(ControlClientError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ControlClientError(
                    code: .io, message: "writing to the daemon failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

/// Incremental reader of one HTTP/1.1 response (Content-Length, chunked, or until EOF).
struct HTTPResponseReader {
    struct Head {
        var status: Int
        var headers: [String: String]
    }

    let fd: Int32
    var buffer = [UInt8]()
    var eof = false

    init(fd: Int32) { self.fd = fd }

    mutating func fill() throws(ControlClientError) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ControlClientError(code: .io, message: "reading from the daemon failed") }
            if n == 0 { eof = true } else { buffer += chunk[..<n] }
            return
        }
    }

    mutating func readLine() throws(ControlClientError) -> String {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<i])
                buffer.removeSubrange(...i)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if eof { throw ControlClientError(code: .io, message: "the daemon closed the connection mid-response") }
            try fill()
        }
    }

    mutating func readHead() throws(ControlClientError) -> Head {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw ControlClientError(code: .io, message: "the answer on the socket is not HTTP")
        }
        var headers = [String: String]()
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
        return Head(status: status, headers: headers)
    }

    mutating func readExactly(_ n: Int) throws(ControlClientError) -> [UInt8] {
        if buffer.count >= n {
            defer { buffer.removeSubrange(..<n) }
            return Array(buffer[..<n])
        }
        // The rest is received straight into the answer's own array: a long body (a trip of
        // 100,000 places is megabytes) is copied once, not through `buffer` and again out.
        var failure: ControlClientError?
        let body = [UInt8](unsafeUninitializedCapacity: n) { out, count in
            guard let base = out.baseAddress else { return }
            count = buffer.withUnsafeBufferPointer { have in
                guard let from = have.baseAddress else { return 0 }
                base.initialize(from: from, count: have.count)
                return have.count
            }
            buffer.removeAll()
            while count < n {
                let got = recv(fd, base + count, n - count, 0)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 {
                    if got == 0 { eof = true }
                    failure = ControlClientError(
                        code: .io,
                        message: got == 0
                            ? "the daemon closed the connection mid-response" : "reading from the daemon failed")
                    return
                }
                count += got
            }
        }
        if let failure { throw failure }
        return body
    }

    mutating func readBody(_ head: Head, _ sink: ([UInt8]) -> Bool) throws(ControlClientError) {
        if head.headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw ControlClientError(code: .io, message: "bad chunk size from the daemon")
                }
                if size == 0 { return }
                let chunk = try readExactly(size)
                _ = try readLine()
                if !sink(chunk) { return }
            }
        } else if let length = head.headers["content-length"].flatMap(Int.init) {
            _ = sink(try readExactly(length))
        } else {
            while !eof { try fill() }
            _ = sink(buffer)
            buffer.removeAll()
        }
    }
}
