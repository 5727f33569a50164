import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The app server of `places gui`: HTTP/1.1 on a loopback address. It serves the app's
/// files and forwards `/v1/` to the daemon's control socket, behind ``WebGate``. Each
/// connection runs in its own child task; a failing connection never takes the listener
/// down. See docs/web-app.md.
public struct WebServer: Sendable {
    /// What the server serves and where.
    public struct Configuration: Sendable {
        /// The loopback address and port to listen on (port 0: a free one).
        public var listen: ListenAddress
        /// The daemon's control socket.
        public var socketPath: String
        /// The app's files.
        public var root: WebRoot
        /// The street-map tile server, if the user has one.
        public var tiles: TileTemplate?
        /// The version the page is told in `/app/config.json`.
        public var version: String
        /// Connections held at once; more are closed as they arrive.
        public var maxConnections: Int

        public init(
            listen: ListenAddress, socketPath: String, root: WebRoot, tiles: TileTemplate?, version: String,
            maxConnections: Int = 256
        ) {
            self.listen = listen
            self.socketPath = socketPath
            self.root = root
            self.tiles = tiles
            self.version = version
            self.maxConnections = maxConnections
        }
    }

    public let configuration: Configuration
    /// The secret of the URL (fresh for each server unless given).
    let token: String
    let security: SecurityHeaders

    /// - Parameters:
    ///   - configuration: what to serve and where.
    ///   - random: where the URL's secret comes from (a cryptographic source outside tests).
    public init(configuration: Configuration, random: some RandomNumberGenerator = SystemRandomNumberGenerator()) {
        var random = random
        self.configuration = configuration
        self.token = Secret.make(using: &random)
        self.security = SecurityHeaders(tiles: configuration.tiles)
    }

    /// The address to open, once bound to `address`: the app's page with the secret.
    public func url(boundTo address: ListenAddress) -> String {
        "http://\(address.authority)/?token=\(token)"
    }

    /// Binds, then serves until the task is cancelled. `onReady` gets the URL to open
    /// (with the real port) once the server accepts connections.
    public func run(onReady: @Sendable (String) -> Void) async throws {
        let listen = configuration.listen
        let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 128)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: listen.host, port: listen.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            throw WebError(
                .bindFailed,
                "cannot listen on \(listen.authority) (\(reason)): is another `places gui` running? "
                    + "Pass --listen 127.0.0.1:0 for a free port",
                cause: error)
        }
        let port = server.channel.localAddress?.port ?? listen.port
        let bound = ListenAddress(host: listen.host, port: port, isIPv6: listen.isIPv6)
        let gate = WebGate(token: token, address: bound, sessions: SessionStore())
        let proxy = DaemonProxy(socketPath: configuration.socketPath, security: security)
        let open = NIOLockedValueBox(0)
        let limit = configuration.maxConnections
        onReady(url(boundTo: bound))
        try await withTaskCancellationHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        let admitted = open.withLockedValue { count in
                            guard count < limit else { return false }
                            count += 1
                            return true
                        }
                        guard admitted else {
                            connection.channel.close(promise: nil)
                            continue
                        }
                        group.addTask {
                            defer { open.withLockedValue { $0 -= 1 } }
                            await serve(connection, gate: gate, proxy: proxy)
                        }
                    }
                }
                group.cancelAll()
            }
        } onCancel: {
            server.channel.close(promise: nil)
        }
    }

    /// Serves one browser connection: its requests one after the other.
    private func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, gate: WebGate,
        proxy: DaemonProxy
    ) async {
        let channel = connection.channel
        let upstream = NIOLockedValueBox<(any Channel)?>(nil)
        channel.closeFuture.whenComplete { _ in
            upstream.withLockedValue { $0?.close(promise: nil) }
        }
        do {
            try await withTaskCancellationHandler {
                try await connection.executeThenClose { inbound, writer in
                    var parts = inbound.makeAsyncIterator()
                    while true {
                        // A connection that sends no complete request head for a minute
                        // (idle keep-alive, or a request dribbled a byte at a time by
                        // another local user holding connections) is closed: the 256
                        // connections cannot be held by someone who never asks anything.
                        let idle = channel.eventLoop.scheduleTask(in: Self.headTimeout) { channel.close(promise: nil) }
                        let next = try await parts.next()
                        idle.cancel()
                        guard let part = next else { break }
                        guard case .head(let head) = part else { continue }
                        let decision = await gate.decide(head)
                        let more: Bool
                        if case .proxy = decision {
                            more = try await proxy.forward(
                                head, parts: &parts, to: writer, client: channel, upstream: upstream)
                        } else {
                            let complete = try await DaemonProxy.drainBody(&parts)
                            try await proxy.write(
                                answer(decision), for: head, keepAlive: complete, to: writer)
                            more = complete && head.isKeepAlive
                        }
                        if !more { break }
                    }
                    await Self.finishWriting(channel)
                }
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            // A browser that went away or sent garbage: only this connection ends.
        }
    }

    /// How long a connection may wait between requests, or take to send a request head.
    static let headTimeout = TimeAmount.seconds(60)

    /// The server's own answer to a request the gate let through (or refused).
    private func answer(_ decision: WebGate.Decision) -> WebResponse {
        switch decision {
        case .respond(let response):
            return response
        case .proxy:
            return WebGate.notFound(isAPI: true)
        case .index:
            guard let page = configuration.root.index() else { return WebGate.notFound(isAPI: false) }
            return WebResponse(status: .ok, contentType: "text/html; charset=utf-8", body: page)
        case .config:
            var fields = ["\"version\":" + WebResponse.jsonString(configuration.version)]
            if let tiles = configuration.tiles {
                fields.insert("\"tiles\":" + WebResponse.jsonString(tiles.template), at: 0)
            }
            return WebResponse(
                status: .ok, contentType: "application/json",
                body: Array(("{" + fields.joined(separator: ",") + "}").utf8))
        case .asset(let segments):
            guard let file = configuration.root.file(segments: segments) else {
                return WebGate.notFound(isAPI: false)
            }
            return WebResponse(status: .ok, contentType: file.contentType, body: file.contents)
        }
    }

    /// Lets everything written reach the socket before the connection closes: a half-close
    /// waits for pending writes, where a plain close would drop them. A browser that does
    /// not read gets the full close after 30 seconds.
    static func finishWriting(_ channel: any Channel) async {
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(30)) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        try? await channel.close(mode: .output).get()
    }
}
