import NIOCore

/// One received datagram, copied out of NIO: at most `Beacon.maxDatagramBytes + 1` bytes
/// (enough for the decoder to reject anything longer), the sender's IP address, and the
/// address it was sent to (from `IP_PKTINFO`; nil where the platform does not report it).
struct ReceivedDatagram: Sendable {
    var bytes: [UInt8]
    var sourceHost: String
    var destinationHost: String? = nil
}

/// Bridges the UDP channel into async code: every datagram goes into an `AsyncStream`;
/// the stream ends when the channel closes. Read errors (ICMP, truncation) are dropped:
/// a discovery socket must outlive a bad packet.
final class BeaconDatagramHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let continuation: AsyncStream<ReceivedDatagram>.Continuation

    init(continuation: AsyncStream<ReceivedDatagram>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = Self.unwrapInboundIn(data)
        guard let host = envelope.remoteAddress.ipAddress else { return }
        let buffer = envelope.data
        let length = min(buffer.readableBytes, Beacon.maxDatagramBytes + 1)
        let bytes = buffer.getBytes(at: buffer.readerIndex, length: length) ?? []
        let destination = envelope.metadata?.packetInfo?.destinationAddress.ipAddress
        continuation.yield(ReceivedDatagram(bytes: bytes, sourceHost: host, destinationHost: destination))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        continuation.finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Swallowed on purpose: see the type comment.
    }
}
