import Foundation
import NIOCore
import NIOHTTP1
import PlacesAPI
import Synchronization

// The control server's connections (`ControlServer`): the handler that gathers and answers
// each connection's requests, the set of open connections with its limit, and the answer to
// a connection over that limit.

/// One connection's end of the pipeline, on its event loop: gathers a request (head, body
/// up to its limit), then answers it. `HTTPServerPipelineHandler` before it hands over one
/// request at a time and holds the next until the answer's end is written.
final class ControlConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let server: ControlServer
    let connections: ControlConnections
    private var head: HTTPRequestHead?
    private var body = [UInt8]()
    private var tooLarge = false
    private var limit = ControlServer.maxBodyBytes
    /// A whole request not yet answered: the socket took no more of the answers before it.
    private var waiting: HTTPRequestHead?
    /// Answers being written from tasks (a stream's until it ends): the connection is not idle.
    private let answering = Answering()

    init(server: ControlServer, connections: ControlConnections) {
        self.server = server
        self.connections = connections
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body.removeAll(keepingCapacity: true)
            tooLarge = false
            limit = ControlServer.bodyLimit(h)
        case .body(let buffer):
            if body.count + buffer.readableBytes > limit {
                tooLarge = true
            } else {
                body += buffer.readableBytesView
            }
        case .end:
            guard let h = head else { return }
            head = nil
            // A client that sends requests without reading the answers: the next answer waits
            // until the socket takes more, so what the daemon holds stays one answer deep
            // (`HTTPServerPipelineHandler` passes no request and reads no more meanwhile).
            guard context.channel.isWritable else { return waiting = h }
            answer(h, context: context)
        }
    }

    /// Nothing received for `Limits.idleTimeout`: closed unless a request is being answered
    /// (an event stream is answered until it ends). A client stalled in the middle of its
    /// request (a body promised and not sent) is closed too.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            if waiting == nil, !answering.busy { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let h = waiting {
            waiting = nil
            answer(h, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Answers the request whose head is `h` and whose body was gathered.
    private func answer(_ h: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = h.isKeepAlive && !tooLarge
        if tooLarge {
            let problem = Problem(
                status: 413, code: "body-too-large", title: "Request body too large",
                detail: "the request body is over \(limit) bytes")
            return write(.problem(problem), keepAlive: keepAlive, context: context)
        }
        switch server.prepare(h, body: body) {
        case .failure(let problem):
            write(.problem(problem), keepAlive: keepAlive, context: context)
        case .success(let request):
            // A kept answer is written from here: no task, no hop to the engine.
            if let kept = server.handler.keptAnswer(request) {
                return write(kept, keepAlive: keepAlive, context: context)
            }
            let channel = context.channel
            let answering = answering
            answering.begin()
            connections.run { [handler = server.handler] in
                let (response, applied) = await handler.handle(request).minimal(for: request)
                await ControlServer.send(response, keepAlive: keepAlive, minimalApplied: applied, to: channel)
                answering.end()
            }
        }
    }

    /// Writes a whole response on the event loop (a stream goes through a task).
    private func write(_ response: ControlResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        guard case let (head, body)? = ControlServer.parts(response, keepAlive: keepAlive) else {
            let channel = context.channel
            let answering = answering
            answering.begin()
            return connections.run {
                await ControlServer.send(response, keepAlive: keepAlive, to: channel)
                answering.end()
            }
        }
        var buffer = context.channel.allocator.buffer(capacity: body.count)
        buffer.writeBytes(body)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        if !keepAlive { ControlServer.finishWriting(context.channel) }
    }

    /// A client that went away or sent garbage: only this connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        server.log("control connection ended: \(error)")
        context.close(promise: nil)
    }
}

/// The server's open connections and the tasks answering them: closed and cancelled when it
/// stops (a stream would otherwise wait for its next line).
final class ControlConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var tasks: [Int: Task<Void, Never>] = [:]
        var next = 0
        var closed = false
    }
    private let state = Mutex(State())

    /// Counts `channel` among the open connections, unless `max` are open already (false:
    /// the caller refuses it). A stopped server closes it.
    func add(_ channel: any Channel, max: Int) -> Bool {
        let id = ObjectIdentifier(channel)
        let (open, room) = state.withLock { state in
            guard !state.closed else { return (false, true) }
            guard state.channels.count < max else { return (true, false) }
            state.channels[id] = channel
            return (true, true)
        }
        guard open else {
            channel.close(promise: nil)
            return true
        }
        guard room else { return false }
        channel.closeFuture.whenComplete { _ in self.state.withLock { _ = $0.channels.removeValue(forKey: id) } }
        return true
    }

    /// Runs `body` in a task of its own, cancelled if the server stops first.
    func run(_ body: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            let id = state.next
            state.next &+= 1
            state.tasks[id] = Task {
                await body()
                self.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    func closeAll() {
        let (channels, tasks) = state.withLock { state in
            state.closed = true
            defer { (state.channels, state.tasks) = ([:], [:]) }
            return (Array(state.channels.values), Array(state.tasks.values))
        }
        for task in tasks { task.cancel() }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// How many answers of one connection are being written from tasks.
final class Answering: Sendable {
    private let count = Atomic<Int>(0)
    func begin() { count.add(1, ordering: .relaxed) }
    func end() { count.subtract(1, ordering: .relaxed) }
    var busy: Bool { count.load(ordering: .relaxed) > 0 }
}

/// A connection over `Limits.maxConnections`: answered `503` at once, then closed.
final class RefusingConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    static let answer: [UInt8] = {
        let problem = Problem(
            status: 503, code: "too-many-connections", title: "Service unavailable",
            detail: "too many control connections are open: close some and try again")
        let body = (try? ControlJSON.encoder.encode(problem)).map(Array.init) ?? []
        let head =
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/problem+json\r\n"
            + "content-length: \(body.count)\r\nconnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }()

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private var refused = false
    private func refuse(_ context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        var buffer = context.channel.allocator.buffer(capacity: 256)
        buffer.writeBytes(Self.answer)
        let channel = context.channel
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
