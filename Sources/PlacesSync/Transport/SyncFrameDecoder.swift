import NIOCore
import PlacesCrypto

/// Cuts the TCP byte stream into Noise frames (`Protocol/handshake.md` §7): a 2-byte
/// big-endian length, then that many bytes.
///
/// The handshake frames have fixed sizes, so the decoder knows the lengths the peer must
/// send first (32 and 160 to a responder, 192 to an initiator) and rejects any other
/// length as soon as the 2-byte header arrives, without waiting for the body. Later frames
/// may be 1...65,535 bytes; a zero length is an error.
struct SyncFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = [UInt8]

    /// The exact lengths of the handshake frames still expected from the peer, in order.
    private var handshakeFrameLengths: ArraySlice<Int>

    init(handshakeFrameLengths: [Int]) {
        self.handshakeFrameLengths = handshakeFrameLengths[...]
    }

    /// The lengths a responder reads (messages 1 and 3) and an initiator reads (message 2).
    static func handshakeFrameLengths(initiator: Bool) -> [Int] {
        initiator ? [192] : [32, 160]
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self).map(Int.init) else {
            return .needMoreData
        }
        if let expected = handshakeFrameLengths.first, length != expected {
            throw SyncError(
                .handshakeFailed, "The peer sent a handshake frame of \(length) bytes where \(expected) are required")
        }
        guard length > 0 else {
            throw SyncError(.protocolViolation, "The peer sent a zero-length frame")
        }
        guard buffer.readableBytes >= NoiseFraming.headerLength + length else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: NoiseFraming.headerLength)
        // The length was just checked against readableBytes, so the read cannot fail.
        let frame = buffer.readBytes(length: length) ?? []
        if !handshakeFrameLengths.isEmpty { handshakeFrameLengths.removeFirst() }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        // A partial frame at EOF is simply dropped with the connection.
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// What the async session code reads from a connection: whole frames, and the idle
/// events that drive keepalive (`IdleStateHandler` sits in front of the decoder).
enum SyncChannelEvent: Sendable {
    /// One Noise frame body.
    case frame([UInt8])
    /// Nothing was written for `SyncLimits.pingInterval`: time to send a `Ping`.
    case writeIdle
    /// Nothing was read for `SyncLimits.idleTimeout`: the peer is gone.
    case readIdle
    /// `SyncLimits.handshakeTimeout` has passed since the connection opened.
    case handshakeDeadline
    /// `SyncLimits.strangerGrace` (then `strangerRecheckInterval`) has passed since the
    /// session opened.
    case strangerCheck
}

/// Turns frames and `IdleStateEvent`s into `SyncChannelEvent`s, so the session code sees
/// one ordered stream.
final class SyncEventHandler: ChannelInboundHandler {
    typealias InboundIn = [UInt8]
    typealias InboundOut = SyncChannelEvent

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(wrapInboundOut(.frame(unwrapInboundIn(data))))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let converted: SyncChannelEvent
        if event is SyncHandshakeDeadline {
            converted = .handshakeDeadline
        } else if event is SyncStrangerCheck {
            converted = .strangerCheck
        } else {
            switch event as? IdleStateHandler.IdleStateEvent {
            case .read: converted = .readIdle
            case .write: converted = .writeIdle
            case .all, nil:
                context.fireUserInboundEventTriggered(event)
                return
            }
        }
        context.fireChannelRead(wrapInboundOut(converted))
        // NIOAsyncChannel hands reads to the async side at the end of a read burst; an event
        // outside a burst must end one itself or it would wait for the next bytes.
        context.fireChannelReadComplete()
    }
}
