import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PlacesDestinations
import PlacesModel

/// The daemon's only request to a host that is not a peer: `GET` of the configured forecast
/// URL for one destination (docs/destinations.md, "What the weather source learns").
///
/// A small HTTP/1.1 client over SwiftNIO, which the daemon already links: Foundation's
/// `URLSession` needs libcurl, which the statically linked release build cannot link here.
/// `https://` goes through swift-nio-ssl (BoringSSL): TLS 1.2 or later, the server's
/// certificate verified against this machine's trust roots and the URL's host (sent as SNI;
/// an IP address is checked against the certificate's IP names instead). Verification is
/// never turned off; a source with a certificate of its own CA is refused
/// ("certificate refused: …") unless the machine trusts that CA.
///
/// Whatever the source does, one fetch ends within `timeout` (connecting, the handshake, a
/// slow answer, a trickle of bytes) and holds at most `maxBytes` of answer; the answer is
/// checked like a peer's (`WeatherReport(json:)`).
struct WeatherClient: Sendable {
    /// The whole fetch, from connecting to the last byte.
    var timeout: TimeAmount = .seconds(10)
    /// The biggest answer read (Open-Meteo's 7-day answer is ~1.5 KiB).
    var maxBytes = 256 * 1_024
    /// The authorities an https source's certificate must chain to: the system's. Only the
    /// in-process tests name another (their own CA), through `InProcessDaemon`; nothing of
    /// the control API or the settings reaches it.
    var trustRoots: NIOSSLTrustRoots = .default

    /// Fetches and checks the forecast at a position.
    func fetch(_ source: WeatherSource, latitude: Double, longitude: Double) async throws(WeatherError)
        -> WeatherReport
    {
        let body = try await get(source, target: source.target(latitude: latitude, longitude: longitude))
        let json: JSONValue
        do { json = try JSONDecoder().decode(JSONValue.self, from: Data(body)) } catch {
            throw .invalidAnswer("not JSON")
        }
        return try WeatherReport(json: json)
    }

    /// The body of a 200 answer to `GET target`.
    func get(_ source: WeatherSource, target: String) async throws(WeatherError) -> [UInt8] {
        let group = MultiThreadedEventLoopGroup.singleton
        let loop = group.next()
        let promise = loop.makePromise(of: [UInt8].self)
        let outcome = FetchOutcome(promise)
        let maxBytes = self.maxBytes
        let tls = source.scheme == "https" ? try tlsContext() : nil
        let connecting = ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        // SNI and the name checked: the URL's host; an address is checked
                        // against the certificate's IP names (SNI carries no addresses).
                        let name = Self.isAddress(source.host) ? nil : source.host
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: name))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        WeatherAnswerHandler(outcome: outcome, maxBytes: maxBytes, host: source.host))
                }
            }
            .connect(host: source.host, port: source.port)
        // One deadline for everything: a source that accepts and then trickles is cut off.
        let deadline = loop.scheduleTask(in: timeout) {
            outcome.fail(.unreachable("no answer within \(timeout.nanoseconds / 1_000_000) ms"))
        }
        connecting.whenFailure { error in
            if let refused = Self.tlsFailure(error, host: source.host) {
                outcome.fail(refused)
            } else {
                outcome.fail(.unreachable("cannot connect to \(source.host):\(source.port)"))
            }
        }
        connecting.whenSuccess { channel in
            var headers = HTTPHeaders()
            let hostHeader = source.host.contains(":") ? "[\(source.host)]" : source.host
            let defaultPort = source.port == (source.scheme == "https" ? 443 : 80)
            headers.add(name: "Host", value: defaultPort ? hostHeader : "\(hostHeader):\(source.port)")
            headers.add(name: "User-Agent", value: "placesd")
            headers.add(name: "Accept", value: "application/json")
            headers.add(name: "Connection", value: "close")
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            // Whatever ends the fetch closes the connection.
            promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
        promise.futureResult.whenComplete { _ in deadline.cancel() }
        do {
            return try await promise.futureResult.get()
        } catch let error as WeatherError {
            throw error
        } catch {
            throw .unreachable("the connection failed")
        }
    }

    /// A client context for one fetch: TLS 1.2 or later, full verification, `trustRoots`.
    private func tlsContext() throws(WeatherError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .fullVerification
        configuration.trustRoots = trustRoots
        do { return try NIOSSLContext(configuration: configuration) } catch {
            throw .tls("cannot load this machine's trust roots (\(error))")
        }
    }

    /// Whether a URL's host is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The user's words for a TLS failure; nil for an error that is not TLS's.
    static func tlsFailure(_ error: any Error, host: String) -> WeatherError? {
        if let extra = error as? NIOSSLExtraError {
            if extra == .failedToValidateHostname || extra == .serverHostnameImpossibleToMatch {
                return .certificate("the certificate is not for \(host)")
            }
            return .tls("\(extra)")
        }
        guard let ssl = error as? NIOSSLError else { return nil }
        switch ssl {
        case .handshakeFailed(let detail):
            let text = "\(detail)"
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return .certificate(
                    "\(host)'s certificate is not signed by an authority this machine trusts, or has expired")
            }
            return .tls(text.count > 200 ? String(text.prefix(200)) + "…" : text)
        case .uncleanShutdown: return .tls("the source closed the connection without ending TLS")
        default: return .tls("\(ssl)")
        }
    }
}

/// The end of one fetch, decided once: the first of the answer, a failure and the deadline
/// wins; later ones are ignored. Touched only on the fetch's event loop.
final class FetchOutcome: @unchecked Sendable {
    private let promise: EventLoopPromise<[UInt8]>
    private var done = false
    var isDone: Bool { done }

    init(_ promise: EventLoopPromise<[UInt8]>) { self.promise = promise }

    func succeed(_ body: [UInt8]) {
        guard !done else { return }
        done = true
        promise.succeed(body)
    }

    func fail(_ error: WeatherError) {
        guard !done else { return }
        done = true
        promise.fail(error)
    }
}

/// Reads one HTTP answer: the status first (anything but 200 fails the fetch), then the body
/// up to a limit (a `Content-Length` over it fails at once), then the end.
final class WeatherAnswerHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    // Touched only on the channel's event loop.
    private let outcome: FetchOutcome
    private let maxBytes: Int
    /// The source's host, for the words of a TLS failure.
    private let host: String
    private var body: [UInt8] = []

    init(outcome: FetchOutcome, maxBytes: Int, host: String) {
        self.outcome = outcome
        self.maxBytes = maxBytes
        self.host = host
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Once decided (a failure, the deadline), the rest of the answer is dropped unread.
        guard !outcome.isDone else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.status == .ok else {
                outcome.fail(.status(Int(head.status.code)))
                return
            }
            if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length > maxBytes {
                outcome.fail(.tooLarge(maxBytes))
            }
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= maxBytes else {
                body = []
                outcome.fail(.tooLarge(maxBytes))
                return
            }
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            outcome.succeed(body)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        outcome.fail(.unreachable("the connection closed before the answer ended"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        outcome.fail(WeatherClient.tlsFailure(error, host: host) ?? .invalidAnswer("not an HTTP answer"))
        context.close(promise: nil)
    }
}
