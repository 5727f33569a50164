import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client for 127.0.0.1 only (chromedriver, the app's server in the
/// browser tests): one request per connection (`Connection: close`), a Content-Length or
/// chunked body, the whole answer read before returning. It never resolves a name, so it
/// cannot reach beyond loopback.
public enum LoopbackHTTP {
    public struct Response: Sendable {
        public var status: Int
        /// Header names lowercased; a repeated header keeps its values joined by "\n".
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends `method path` to 127.0.0.1:`port` with `headers` (Host defaults to
    /// 127.0.0.1:port) and waits at most `timeout` seconds for each read.
    public static func send(
        port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [],
        timeout: TimeInterval = 60
    ) throws -> Response {
        guard let port16 = UInt16(exactly: port), timeout.isFinite, timeout >= 0, timeout < 86_400 else {
            throw HarnessError("port \(port) or timeout \(timeout) out of range")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        defer { close(fd) }
        // Finite, 0…86,400 (checked above): both conversions fit an Int.
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port16.bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw HarnessError("connect 127.0.0.1:\(port): errno \(errno)") }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        var all = headers
        if all.keys.first(where: { $0.lowercased() == "host" }) == nil { all["Host"] = "127.0.0.1:\(port)" }
        all["Connection"] = "close"
        if !body.isEmpty || method == "POST" || method == "PUT" { all["Content-Length"] = String(body.count) }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try writeAll(fd, Array(head.utf8) + body)
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("\(method) \(path) on port \(port): no answer within \(Int(timeout)) s")
            }
            received.append(contentsOf: buffer[0..<n])
            // Some servers (chromedriver) keep the connection open despite `close`: stop
            // reading once the whole answer is here.
            if isComplete(received, method: method) { break }
        }
        return try parse(received, what: "\(method) \(path)")
    }

    /// Whether `bytes` hold a whole answer: its headers and the body they announce.
    static func isComplete(_ bytes: [UInt8], method: String) -> Bool {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return false }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
        let bodyCount = bytes.count - end.upperBound
        if method == "HEAD" || head.hasPrefix("http/1.1 204") || head.hasPrefix("http/1.1 304") { return true }
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix("content-length:"),
                let length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces))
            {
                return bodyCount >= length
            }
            if line.hasPrefix("transfer-encoding:") && line.contains("chunked") {
                return bytes[end.upperBound...].firstRange(of: Array("\r\n0\r\n\r\n".utf8)) != nil
                    || bytes[end.upperBound...].starts(with: Array("0\r\n\r\n".utf8))
            }
        }
        return false
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("send: errno \(errno)")
            }
            offset += n
        }
    }

    static func parse(_ bytes: [UInt8], what: String) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.firstRange(of: separator) else {
            throw HarnessError("\(what): a truncated answer (\(bytes.count) bytes)")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw HarnessError("\(what): a bad status line \(lines[0])")
        }
        var headers = [String: String]()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + "\n" + value } ?? value
        }
        var body = Array(bytes[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](), at = 0
        while at < bytes.count {
            guard let lineEnd = bytes[at...].firstRange(of: [13, 10]) else { break }
            let sizeText = String(decoding: bytes[at..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            out += bytes[start..<min(bytes.count, start + size)]
            at = start + size + 2
        }
        return out
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound, read and closed).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw HarnessError("no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Finds an executable on PATH.
public func executableOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
