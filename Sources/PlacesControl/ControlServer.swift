import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlacesAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The control API server: HTTP/1.1 on a Unix domain socket. Each connection runs in its
/// own child task; a failing connection never takes the listener down. Requests from
/// another uid (checked with `SO_PEERCRED`) are refused, and so is any request carrying an
/// `Origin` or `Referer` header (a browser being tricked into calling the API).
public struct ControlServer: Sendable {
    /// Largest accepted request body.
    public static let maxBodyBytes = 1 << 20
    /// The limit of a file uploaded to `POST /v1/places/import` (a Google Takeout export
    /// of thousands of saved places is several MiB).
    public static let maxImportBodyBytes = 32 << 20

    /// The limit of a photo uploaded to `POST /v1/photos` (20 MiB, the photo cap).
    public static let maxPhotoBodyBytes = 20 << 20

    /// The limit of `POST /v1/plans/solve`, whose `travel` matrix may be 501×501 numbers.
    public static let maxPlanSolveBodyBytes = 8 << 20

    /// The body limit of a request: imports and photos take files, the orienteering solver a
    /// travel matrix, everything else JSON objects.
    static func bodyLimit(_ head: HTTPRequestHead) -> Int {
        guard head.method == .POST,
            let path = head.uri.split(separator: "?").first.map({ path in
                path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
            })
        else { return maxBodyBytes }
        switch path {
        case ["v1", "places", "import"]: return maxImportBodyBytes
        case ["v1", "photos"]: return maxPhotoBodyBytes
        case ["v1", "plans", "solve"]: return maxPlanSolveBodyBytes
        default: return maxBodyBytes
        }
    }
    /// Largest accepted request target (path and query).
    public static let maxURIBytes = 8 << 10

    public let socketPath: String
    let handler: any ControlHandler
    let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - socketPath: where to bind; an existing (stale) socket file is replaced.
    ///   - handler: the router.
    ///   - log: receives one line per refused or failed connection.
    public init(socketPath: String, handler: any ControlHandler, log: @escaping @Sendable (String) -> Void) {
        self.socketPath = socketPath
        self.handler = handler
        self.log = log
    }

    /// Binds, then serves until the task is cancelled; removes the socket file on the way out.
    /// `onReady` runs once the socket accepts connections.
    public func run(onReady: @Sendable () -> Void = {}) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 128)
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true) { [log] channel in
                // The peer's uid is checked before any byte is read; a stranger's connection
                // fails here and is closed by NIO.
                ControlServer.peerCredentials(channel).flatMapThrowing { cred in
                    guard cred.uid == getuid() else {
                        log("refused a control connection from uid \(cred.uid)")
                        channel.close(promise: nil)
                        throw ChannelError.inputClosed
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        chmod(socketPath, 0o600)
        onReady()
        defer { unlink(socketPath) }
        try await withTaskCancellationHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await self.serve(connection) }
                    }
                }
                group.cancelAll()
            }
        } onCancel: {
            server.channel.close(promise: nil)
        }
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                var body = [UInt8]()
                var tooLarge = false
                var limit = ControlServer.maxBodyBytes
                for try await part in inbound {
                    switch part {
                    case .head(let h):
                        head = h
                        body.removeAll(keepingCapacity: true)
                        tooLarge = false
                        limit = ControlServer.bodyLimit(h)
                    case .body(var buffer):
                        if body.count + buffer.readableBytes > limit {
                            tooLarge = true
                        } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                            body += bytes
                        }
                    case .end:
                        guard let h = head else { continue }
                        let response: ControlResponse
                        if tooLarge {
                            response = .problem(
                                Problem(
                                    status: 413, code: "body-too-large", title: "Request body too large",
                                    detail: "the request body is over \(limit) bytes"))
                        } else {
                            response = await route(h, body: body)
                        }
                        let keepAlive = h.isKeepAlive && !tooLarge
                        let more = try await write(response, keepAlive: keepAlive, to: outbound)
                        if !keepAlive || !more {
                            await ControlServer.finishWriting(connection.channel)
                            return
                        }
                        head = nil
                    }
                }
            }
        } catch {
            // A client that went away or sent garbage: only this connection ends.
            log("control connection ended: \(error)")
        }
    }

    /// How long a closing connection may take to hand its last response to a client that
    /// does not read it, before the connection is dropped anyway.
    static let lingerTimeout = TimeAmount.seconds(30)

    /// Waits until everything written to `channel` has reached the socket, then shuts down
    /// its write side (the client reads the end of the response, then EOF).
    ///
    /// `executeThenClose` closes the channel as soon as the body returns, and a NIO close
    /// drops the writes still pending: a response larger than the socket buffer (a long
    /// itinerary, with a client that had not read it all yet) was cut short, and the client
    /// saw "the daemon closed the connection mid-response". A half-close waits for the
    /// pending writes, so it must come first. A client that never reads gets the full close
    /// after `lingerTimeout`, or at once when the server stops.
    static func finishWriting(_ channel: any Channel) async {
        let deadline = channel.eventLoop.scheduleTask(in: lingerTimeout) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        await withTaskCancellationHandler {
            try? await channel.close(mode: .output).get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    private func route(_ head: HTTPRequestHead, body: [UInt8]) async -> ControlResponse {
        if head.headers.contains(name: "origin") || head.headers.contains(name: "referer") {
            return .problem(
                Problem(
                    status: 403, code: "browser-request", title: "Forbidden",
                    detail:
                        "requests carrying an Origin or Referer header are refused: the control API is for local programs, not web pages"
                ))
        }
        guard head.uri.utf8.count <= ControlServer.maxURIBytes else {
            return .problem(
                Problem(
                    status: 414, code: "uri-too-long", title: "URI too long", detail: "the request path is too long"))
        }
        let (path, query) = ControlServer.split(uri: head.uri)
        let request = ControlRequest(
            method: head.method.rawValue, path: path, query: query, body: body,
            contentType: ControlRequest.mediaType(head.headers.first(name: "content-type")))
        return await handler.handle(request)
    }

    /// Writes a response; returns false when the connection must close afterwards.
    private func write(
        _ response: ControlResponse, keepAlive: Bool, to out: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws -> Bool {
        var headers = HTTPHeaders()
        headers.add(name: "Server", value: "placesd")
        switch response {
        case .json(let status, let body), .raw(let status, _, let body):
            if case .raw(_, let type, _) = response {
                headers.add(name: "Content-Type", value: type)
            } else if status != 204 {
                headers.add(name: "Content-Type", value: "application/json")
            }
            headers.add(name: "Content-Length", value: String(body.count))
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            try await out.write(contentsOf: [
                .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)),
                .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil),
            ])
            return true
        case .problem(let problem):
            let body = (try? ControlJSON.encoder.encode(problem)).map(Array.init) ?? []
            headers.add(name: "Content-Type", value: "application/problem+json")
            headers.add(name: "Content-Length", value: String(body.count))
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            try await out.write(contentsOf: [
                .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: problem.status), headers: headers)),
                .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil),
            ])
            return true
        case .stream(let stream):
            headers.add(name: "Content-Type", value: "application/x-ndjson")
            headers.add(name: "Cache-Control", value: "no-store")
            try await out.write(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
            for await chunk in stream {
                try await out.write(.body(.byteBuffer(ByteBuffer(bytes: chunk))))
            }
            try await out.write(.end(nil))
            return false
        }
    }

    static func split(uri: String) -> (String, [String: String]) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        var query = [String: String]()
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key =
                    String(kv[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(kv[0])
                let value =
                    kv.count > 1
                    ? (String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(kv[1]))
                    : ""
                query[key] = value
            }
        }
        return (path, query)
    }

    /// `SO_PEERCRED` of a Unix-socket connection (on the channel's event loop, so the
    /// future is usually already complete).
    static func peerCredentials(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        return provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    }
}

/// Layout of Linux's `struct ucred` (returned by `SO_PEERCRED`), which Glibc's Swift
/// overlay does not export.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
