import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlacesAPI
import Synchronization

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

    /// How many connections may be open at once, and how long one may sit idle. A script
    /// that opens connections and never closes them (or never sends a request) would
    /// otherwise hold the daemon's file descriptors, which its peers' connections and its
    /// database need too (`Protocol/control-api.yaml`, "Connections").
    public struct Limits: Sendable {
        /// Open connections at most; one more is answered `503` (`too-many-connections`)
        /// and closed.
        public var maxConnections: Int
        /// A connection with no request being answered (no event stream either) and nothing
        /// received for this long is closed, also in the middle of receiving a request.
        public var idleTimeout: TimeAmount

        public init(maxConnections: Int = 256, idleTimeout: TimeAmount = .seconds(60)) {
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
        }
    }

    public let socketPath: String
    let handler: any ControlHandler
    let log: @Sendable (String) -> Void
    let limits: Limits

    /// - Parameters:
    ///   - socketPath: where to bind; an existing (stale) socket file is replaced.
    ///   - handler: the router.
    ///   - limits: open connections and idle time (the defaults unless a test says otherwise).
    ///   - log: receives one line per refused or failed connection.
    public init(
        socketPath: String, handler: any ControlHandler, limits: Limits = Limits(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.socketPath = socketPath
        self.handler = handler
        self.limits = limits
        self.log = log
    }

    /// Binds, then serves until the task is cancelled; removes the socket file on the way out.
    /// `onReady` runs once the socket accepts connections.
    ///
    /// Each connection is a NIO pipeline (HTTP/1.1 decoder and encoder, one request at a
    /// time) ending in a `ControlConnection` handler on its event loop: an answer the handler
    /// keeps (`ControlHandler.keptAnswer`) is written from there; any other request is
    /// answered in a task of its own, which writes to the channel.
    public func run(onReady: @Sendable () -> Void = {}) async throws {
        let connections = ControlConnections()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 128)
            // A large answer (1,000 favorites are 200 KB) goes to the socket in one write, not
            // in rounds of waiting for the client to read (the kernel caps it at wmem_max).
            .childChannelOption(.socketOption(.so_sndbuf), value: 1 << 20)
            .childChannelInitializer { [self] channel in
                // The peer's uid is checked before any byte is read; a stranger's connection
                // fails here and is closed by NIO.
                ControlServer.peerCredentials(channel).flatMapThrowing { cred in
                    guard cred.uid == getuid() else {
                        log("refused a control connection from uid \(cred.uid)")
                        channel.close(promise: nil)
                        throw ChannelError.inputClosed
                    }
                    guard connections.add(channel, max: limits.maxConnections) else {
                        log("refused a control connection: \(limits.maxConnections) are open")
                        try channel.pipeline.syncOperations.addHandler(RefusingConnection())
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: limits.idleTimeout))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        ControlConnection(server: self, connections: connections))
                }
            }
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true).get()
        chmod(socketPath, 0o600)
        onReady()
        defer { unlink(socketPath) }
        await withTaskCancellationHandler {
            try? await server.closeFuture.get()
        } onCancel: {
            server.close(promise: nil)
        }
        connections.closeAll()
    }

    /// What `request` is answered with before routing (a browser's request, a target over
    /// the limit), or the request to route.
    func prepare(_ head: HTTPRequestHead, body: [UInt8]) -> Result<ControlRequest, Problem> {
        if head.headers.contains(name: "origin") || head.headers.contains(name: "referer") {
            return .failure(
                Problem(
                    status: 403, code: "browser-request", title: "Forbidden",
                    detail:
                        "requests carrying an Origin or Referer header are refused: the control API is for local programs, not web pages"
                ))
        }
        guard head.uri.utf8.count <= ControlServer.maxURIBytes else {
            return .failure(
                Problem(
                    status: 414, code: "uri-too-long", title: "URI too long", detail: "the request path is too long"))
        }
        let (path, query) = ControlServer.split(uri: head.uri)
        return .success(
            ControlRequest(
                method: head.method.rawValue, path: path, query: query, body: body,
                contentType: ControlRequest.mediaType(head.headers.first(name: "content-type")),
                prefersMinimal: ControlRequest.prefersMinimal(head.headers["prefer"])))
    }

    /// How long a closing connection may take to hand its last response to a client that
    /// does not read it, before the connection is dropped anyway.
    static let lingerTimeout = TimeAmount.seconds(30)

    /// Closes `channel` once everything written to it has reached the socket: its write
    /// side is shut down first (the client reads the end of the response, then EOF).
    ///
    /// A NIO close drops the writes still pending: a response larger than the socket buffer
    /// (a long itinerary, with a client that had not read it all yet) was cut short, and the
    /// client saw "the daemon closed the connection mid-response". A half-close waits for
    /// the pending writes, so it comes first. A client that never reads gets the full close
    /// after `lingerTimeout`, or at once when the server stops.
    static func finishWriting(_ channel: any Channel) {
        let deadline = channel.eventLoop.scheduleTask(in: lingerTimeout) { channel.close(promise: nil) }
        channel.close(mode: .output).whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
    }

    /// The head of a response with a body of `length` bytes (nil for a stream).
    static func head(status: Int, contentType: String?, length: Int?, keepAlive: Bool) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        headers.add(name: "Server", value: "placesd")
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        if let length {
            headers.add(name: "Content-Length", value: String(length))
            if !keepAlive { headers.add(name: "Connection", value: "close") }
        } else {
            headers.add(name: "Cache-Control", value: "no-store")
        }
        return HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)
    }

    /// A whole response's head and body; nil for a stream.
    static func parts(_ response: ControlResponse, keepAlive: Bool) -> (HTTPResponseHead, [UInt8])? {
        switch response {
        case .json(let status, let body):
            return (
                head(
                    status: status, contentType: status != 204 ? "application/json" : nil, length: body.count,
                    keepAlive: keepAlive), body
            )
        case .raw(let status, let type, let body):
            return (head(status: status, contentType: type, length: body.count, keepAlive: keepAlive), body)
        case .problem(let problem):
            let body = (try? ControlJSON.encoder.encode(problem)).map(Array.init) ?? []
            return (
                head(
                    status: problem.status, contentType: "application/problem+json", length: body.count,
                    keepAlive: keepAlive), body
            )
        case .stream, .jsonParts:
            return nil
        }
    }

    /// Writes `response` to `channel` from a request's task; closes the connection after a
    /// stream, or when it is not kept alive. `minimalApplied`: the response is the 204 that
    /// honoured `Prefer: return=minimal` (`ControlResponse.minimal(for:)`), and says so.
    static func send(
        _ response: ControlResponse, keepAlive: Bool, minimalApplied: Bool = false, to channel: any Channel
    ) async {
        if case .jsonParts(let status, let body) = response {
            let length = body.reduce(0) { $0 + $1.readableBytes }
            channel.write(
                HTTPServerResponsePart.head(
                    head(status: status, contentType: "application/json", length: length, keepAlive: keepAlive)),
                promise: nil)
            for part in body { channel.write(HTTPServerResponsePart.body(.byteBuffer(part)), promise: nil) }
            channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
            if !keepAlive { finishWriting(channel) }
            return
        }
        if case var (head, body)? = parts(response, keepAlive: keepAlive) {
            if minimalApplied { head.headers.add(name: "Preference-Applied", value: "return=minimal") }
            channel.write(HTTPServerResponsePart.head(head), promise: nil)
            channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
            if !keepAlive { finishWriting(channel) }
            return
        }
        guard case .stream(let stream) = response else { return }
        do {
            let streamHead = head(status: 200, contentType: "application/x-ndjson", length: nil, keepAlive: false)
            try await channel.writeAndFlush(HTTPServerResponsePart.head(streamHead)).get()
            // Ends when the stream does, or at the first write after the client went away.
            for await chunk in stream {
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: chunk))))
                    .get()
            }
            try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
        } catch {}
        finishWriting(channel)
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
