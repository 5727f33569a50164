import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for `placesd` on a Unix socket that answers from a script: for testing what
/// the `places` CLI sends and how it prints answers, without a daemon. One request per
/// connection (the CLI's client sends `Connection: close`); every request is recorded.
final class ScriptedDaemon: @unchecked Sendable {
    /// One answer: status, media type and body.
    struct Answer {
        var status: Int
        var contentType: String
        var body: [UInt8]

        /// A JSON body.
        static func json(_ status: Int = 200, _ text: String) -> Answer {
            Answer(status: status, contentType: "application/json", body: Array(text.utf8))
        }
    }

    /// One request as the server read it.
    struct Request: Sendable {
        var method: String
        var target: String
        var contentType: String?
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let socketPath: String
    private let script: [String: Answer]
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var listener: Int32 = -1
    private let done = DispatchSemaphore(value: 0)

    /// `script` maps `"METHOD /target"` (query included) to an answer; anything else is a
    /// 404 problem document.
    init(socketPath: String, script: [String: Answer]) throws {
        self.socketPath = socketPath
        self.script = script
        unlink(socketPath)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in pathBytes.enumerated() { raw[i] = b }
            raw[pathBytes.count] = 0
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        Thread.detachNewThread { [self] in serve() }
    }

    /// The requests so far, in order.
    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Stops accepting and removes the socket.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        done.wait()
        unlink(socketPath)
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            handle(client)
            close(client)
        }
    }

    private func handle(_ fd: Int32) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        var contentLength = 0
        while true {
            if let end = headEnd, bytes.count >= end + contentLength { break }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            bytes += buffer[0..<n]
            if headEnd == nil, let range = find([13, 10, 13, 10], in: bytes) {
                headEnd = range + 4
                let head = String(decoding: bytes[0..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let headEnd else { return }
        let head = String(decoding: bytes[0..<(headEnd - 4)], as: UTF8.self).split(separator: "\r\n")
        let requestLine = head.first.map { $0.split(separator: " ") } ?? []
        guard requestLine.count >= 2 else { return }
        let contentType = head.dropFirst().first { $0.lowercased().hasPrefix("content-type:") }
            .map { $0.dropFirst(13).trimmingCharacters(in: .whitespaces) }
        let request = Request(
            method: String(requestLine[0]), target: String(requestLine[1]), contentType: contentType,
            body: Array(bytes[headEnd..<(headEnd + contentLength)]))
        lock.lock()
        recorded.append(request)
        lock.unlock()
        let answer =
            script["\(request.method) \(request.target)"]
            ?? Answer.json(
                404,
                #"{"code":"not-found","detail":"no item with id \#(request.target) in this itinerary","status":404,"title":"Not found","type":"https://places.invalid/problems/not-found"}"#
            )
        var response = "HTTP/1.1 \(answer.status) Scripted\r\nContent-Type: \(answer.contentType)\r\n"
        response += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        let out = Array(response.utf8) + answer.body
        var offset = 0
        while offset < out.count {
            let n = out[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }
}
