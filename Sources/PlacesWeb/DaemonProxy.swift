import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The request parts a browser connection delivers.
typealias RequestParts = NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator
/// Where a browser connection's answer goes.
typealias ResponseWriter = NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>

/// Forwards one API request from the browser to the daemon's control socket and relays the
/// answer, part by part in both directions: nothing holds a whole body (a 20 MiB photo, the
/// endless event stream), and the next part is read only once the previous one is written.
/// A new socket connection per request; it is closed with the browser's connection.
struct DaemonProxy: Sendable {
    /// The daemon's control socket.
    let socketPath: String
    let security: SecurityHeaders

    /// The request headers the daemon gets; every other one (`Cookie`, `Origin`, `Referer`,
    /// `Sec-Fetch-*`, the CSRF token, …) stays on this side. The daemon refuses a request
    /// with `Origin` or `Referer` (403 `browser-request`).
    static let forwardedHeaders: Set<String> = ["content-type", "content-length", "transfer-encoding", "accept"]

    /// Forwards the request whose head is `head`, reading its body from `parts` and writing
    /// the answer to `writer`. `upstream` holds the daemon connection of the moment, which
    /// the browser's connection closes when it closes. Returns whether the browser's
    /// connection may take another request; throws when that connection failed.
    func forward(
        _ head: HTTPRequestHead, parts: inout RequestParts, to writer: ResponseWriter, client: any Channel,
        upstream: NIOLockedValueBox<(any Channel)?>
    ) async throws -> Bool {
        let daemon: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            daemon = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            let complete = try await Self.drainBody(&parts)
            let problem = WebResponse.problem(
                .serviceUnavailable, code: "daemon-unreachable", title: "Daemon unreachable",
                detail:
                    "placesd is not running (nothing answers on \(socketPath)): start it with `placesd`, then reload this page"
            )
            try await write(problem, for: head, keepAlive: complete, to: writer)
            return complete && head.isKeepAlive
        }
        // A browser that goes away (a closed tab ends the event stream) closes the daemon's
        // connection too, which ends the relay below.
        upstream.withLockedValue { $0 = daemon.channel }
        defer { upstream.withLockedValue { $0 = nil } }
        if !client.isActive { daemon.channel.close(promise: nil) }
        return try await daemon.executeThenClose { answer, request in
            var headers = HTTPHeaders()
            for (name, value) in head.headers where Self.forwardedHeaders.contains(name.lowercased()) {
                headers.add(name: name, value: value)
            }
            headers.add(name: "Host", value: "localhost")
            headers.add(name: "Connection", value: "close")
            var daemonTakesBody = true
            do {
                try await request.write(
                    .head(HTTPRequestHead(version: .http1_1, method: head.method, uri: head.uri, headers: headers)))
            } catch {
                daemonTakesBody = false
            }
            var requestComplete = false
            while let part = try await parts.next() {
                switch part {
                case .head:
                    // The HTTP decoder delivers a head only after the previous request's end.
                    continue
                case .body(let buffer):
                    guard daemonTakesBody else { continue }
                    do { try await request.write(.body(.byteBuffer(buffer))) } catch { daemonTakesBody = false }
                case .end(let trailers):
                    if daemonTakesBody { try? await request.write(.end(trailers)) }
                    requestComplete = true
                }
                if requestComplete { break }
            }
            guard requestComplete else { return false }
            let relayed = try await relay(answer, for: head, to: writer)
            return relayed && head.isKeepAlive
        }
    }

    /// Relays the daemon's answer to the browser; returns whether it arrived whole.
    private func relay(
        _ answer: NIOAsyncChannelInboundStream<HTTPClientResponsePart>, for request: HTTPRequestHead,
        to writer: ResponseWriter
    ) async throws -> Bool {
        var headSent = false
        do {
            for try await part in answer {
                switch part {
                case .head(let daemonHead):
                    var headers = daemonHead.headers
                    headers.remove(name: "connection")
                    headers.remove(name: "keep-alive")
                    if !request.isKeepAlive { headers.add(name: "Connection", value: "close") }
                    security.apply(to: &headers)
                    headSent = true
                    try await writer.write(
                        .head(HTTPResponseHead(version: request.version, status: daemonHead.status, headers: headers)))
                case .body(let buffer):
                    try await writer.write(.body(.byteBuffer(buffer)))
                case .end(let trailers):
                    try await writer.write(.end(trailers))
                    return true
                }
            }
        } catch  where !headSent {
            // The daemon failed before answering; the browser gets a problem below.
        }
        guard !headSent else { return false }
        let problem = WebResponse.problem(
            .badGateway, code: "daemon-unreachable", title: "Daemon unreachable",
            detail: "placesd closed the connection without answering: is it still running? Reload this page")
        try await write(problem, for: request, keepAlive: false, to: writer)
        return false
    }

    /// Writes one of the server's own answers, with the security headers and its length.
    func write(_ response: WebResponse, for request: HTTPRequestHead, keepAlive: Bool, to writer: ResponseWriter)
        async throws
    {
        var headers = response.headers
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        if !keepAlive || !request.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        security.apply(to: &headers)
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        if request.method == .HEAD || response.body.isEmpty {
            try await writer.write(contentsOf: [.head(head), .end(nil)])
        } else {
            try await writer.write(contentsOf: [
                .head(head), .body(.byteBuffer(ByteBuffer(bytes: response.body))), .end(nil),
            ])
        }
    }

    /// Reads and discards the rest of a request's body (one not forwarded), so that the
    /// connection can take the next request. Returns false when the browser closed first.
    static func drainBody(_ parts: inout RequestParts) async throws -> Bool {
        while let part = try await parts.next() {
            if case .end = part { return true }
        }
        return false
    }
}
