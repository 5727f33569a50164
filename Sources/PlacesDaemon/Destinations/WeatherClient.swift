import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlacesDestinations
import PlacesModel

/// The daemon's only request to a host that is not a peer: `GET` of the configured forecast
/// URL for one destination (docs/destinations.md, "What the weather source learns").
///
/// A small HTTP/1.1 client over SwiftNIO, which the daemon already links: Foundation's
/// `URLSession` needs libcurl, which the statically linked release build cannot link here.
/// Plain `http://` only: `https://` would need swift-nio-ssl (BoringSSL), not a dependency
/// yet; such a source is kept but answered "weather unavailable (https is not supported …)".
///
/// Whatever the source does, one fetch ends within `timeout` (connecting, a slow answer, a
/// trickle of bytes) and holds at most `maxBytes` of answer; the answer is checked like a
/// peer's (`WeatherReport(json:)`).
struct WeatherClient: Sendable {
    /// The whole fetch, from connecting to the last byte.
    var timeout: TimeAmount = .seconds(10)
    /// The biggest answer read (Open-Meteo's 7-day answer is ~1.5 KiB).
    var maxBytes = 256 * 1_024

    /// Fetches and checks the forecast at a position.
    func fetch(_ source: WeatherSource, latitude: Double, longitude: Double) async throws(WeatherError)
        -> WeatherReport
    {
        guard source.scheme == "http" else {
            throw .badSource("https is not supported by this build: give an http:// source (one you run, or a proxy)")
        }
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
        let connecting = ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        WeatherAnswerHandler(outcome: outcome, maxBytes: maxBytes))
                }
            }
            .connect(host: source.host, port: source.port)
        // One deadline for everything: a source that accepts and then trickles is cut off.
        let deadline = loop.scheduleTask(in: timeout) {
            outcome.fail(.unreachable("no answer within \(timeout.nanoseconds / 1_000_000) ms"))
        }
        connecting.whenFailure { error in
            outcome.fail(.unreachable("cannot connect to \(source.host):\(source.port)"))
        }
        connecting.whenSuccess { channel in
            var headers = HTTPHeaders()
            let hostHeader = source.host.contains(":") ? "[\(source.host)]" : source.host
            let defaultPort = source.port == 80
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
    private var body: [UInt8] = []

    init(outcome: FetchOutcome, maxBytes: Int) {
        self.outcome = outcome
        self.maxBytes = maxBytes
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
        outcome.fail(.invalidAnswer("not an HTTP answer"))
        context.close(promise: nil)
    }
}
