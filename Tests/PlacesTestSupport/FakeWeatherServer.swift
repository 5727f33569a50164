import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An Open-Meteo-compatible forecast server on 127.0.0.1, for the weather client's tests: it
/// answers well or badly by path, and counts and records what it is asked.
///
/// Paths: `/good` (a 7-day forecast at `temperatureC`), `/slow` (accepts, never answers),
/// `/trickle` (a 200 head, then a byte every 100 ms, never ending), `/huge` (10 MiB of
/// JSON-looking bytes, no length), `/huge-declared` (`Content-Length` 100 MiB), `/garbage`
/// (not JSON), `/absurd` (10,000 °C), `/short` (daily arrays of different lengths), `/nan`
/// (`NaN` in the JSON), `/500` (an error status), `/today` (as `/good`, but 9 days from
/// yesterday by the real clock, UTC: for real daemons, whose trips' days are about now).
///
/// Started with `tls: true`, it speaks https only, presenting `TestTLS`'s certificate for
/// `localhost` (issued by the tests' own authority, which no machine trusts).
public final class FakeWeatherServer: Sendable {
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    struct State {
        var temperatureC = 21.5
        var failing = false
        var requests: [String] = []
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Whether it speaks https.
    public let tls: Bool

    /// `http://127.0.0.1:PORT` and the path; `https://localhost:PORT` and the path when it
    /// speaks https (the name its certificate is for).
    public func url(_ path: String) -> String {
        tls ? "https://localhost:\(port)\(path)" : "http://127.0.0.1:\(port)\(path)"
    }

    /// The request targets received, in order.
    public var requests: [String] { state.withLockedValue { $0.requests } }

    /// Makes `/good` answer 500 (true) or a forecast again.
    public func setFailing(_ failing: Bool) { state.withLockedValue { $0.failing = failing } }

    /// What `/good` says the temperature is.
    public func setTemperature(_ t: Double) { state.withLockedValue { $0.temperatureC = t } }

    public static func start(tls: Bool = false) throws -> FakeWeatherServer {
        let state = NIOLockedValueBox(State())
        let context = tls ? try serverContext() : nil
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakeWeatherHandler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        return FakeWeatherServer(channel: channel, state: state, port: channel.localAddress?.port ?? 0, tls: tls)
    }

    /// The server side of `TestTLS`.
    private static func serverContext() throws -> NIOSSLContext {
        let certificate = try NIOSSLCertificate(bytes: Array(TestTLS.serverCertificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(TestTLS.serverKeyPEM.utf8), format: .pem)
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        return try NIOSSLContext(configuration: configuration)
    }

    private init(channel: any Channel, state: NIOLockedValueBox<State>, port: Int, tls: Bool) {
        self.channel = channel
        self.state = state
        self.port = port
        self.tls = tls
    }

    public func stop() { try? channel.close().wait() }

    /// `YYYY-MM-DD`, the UTC date of `date`.
    public static func utcDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// `forecast` for 9 days from yesterday (UTC) by the real clock.
    static func forecastFromYesterday(temperatureC: Double) -> String {
        var text = forecast(temperatureC: temperatureC, days: 9)
        for day in 0..<9 {
            let real = utcDate(Date().addingTimeInterval(Double(day - 1) * 86_400))
            text = text.replacingOccurrences(of: "\"2026-07-\(10 + day)\"", with: "\"\(real)\"")
        }
        return text
    }

    /// A good answer (Open-Meteo's shape) for 7 days from 2026-07-10.
    public static func forecast(temperatureC: Double, days: Int = 7, minCount: Int? = nil) -> String {
        let dates = (0..<days).map { "\"2026-07-\(10 + $0)\"" }.joined(separator: ",")
        func list(_ n: Int, _ v: String) -> String { Array(repeating: v, count: n).joined(separator: ",") }
        return """
            {"latitude":38.72,"longitude":-9.14,"current":{"time":"2026-07-10T12:00","interval":900,\
            "temperature_2m":\(temperatureC),"weather_code":1,"wind_speed_10m":12.5},"daily":{"time":[\(dates)],\
            "weather_code":[\(list(days, "3"))],"temperature_2m_max":[\(list(days, "26.1"))],\
            "temperature_2m_min":[\(list(minCount ?? days, "15.2"))],"precipitation_sum":[\(list(days, "0.4"))]}}
            """
    }
}

private final class FakeWeatherHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let state: NIOLockedValueBox<FakeWeatherServer.State>
    private var target = "/"

    init(state: NIOLockedValueBox<FakeWeatherServer.State>) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            target = head.uri
            state.withLockedValue { $0.requests.append(head.uri) }
        case .body: break
        case .end: respond(context)
        }
    }

    private func respond(_ context: ChannelHandlerContext) {
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
        let (temperature, failing) = state.withLockedValue { ($0.temperatureC, $0.failing) }
        switch path {
        case "/good" where failing: send(context, .internalServerError, #"{"error":true}"#)
        case "/good": send(context, .ok, FakeWeatherServer.forecast(temperatureC: temperature))
        case "/today": send(context, .ok, FakeWeatherServer.forecastFromYesterday(temperatureC: temperature))
        case "/absurd": send(context, .ok, FakeWeatherServer.forecast(temperatureC: 10_000))
        case "/short": send(context, .ok, FakeWeatherServer.forecast(temperatureC: 20, minCount: 5))
        case "/nan":
            send(
                context, .ok, FakeWeatherServer.forecast(temperatureC: 20).replacingOccurrences(of: "12.5", with: "NaN")
            )
        case "/garbage": send(context, .ok, "<html>not json {{{")
        case "/500": send(context, .internalServerError, #"{"error":true}"#)
        case "/slow": break
        case "/huge-declared":
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: "104857600")
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
        case "/huge":
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            let chunk = context.channel.allocator.buffer(string: String(repeating: "[1,2,3,4,5,6,7,8],", count: 1_000))
            for _ in 0..<600 { context.write(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case "/trickle":
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            let channel = context.channel
            channel.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) {
                task in
                guard channel.isActive else { return task.cancel() }
                channel.writeAndFlush(
                    HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: " "))), promise: nil)
            }
        default: send(context, .notFound, "no such path")
        }
    }

    private func send(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ body: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
