import Foundation
import Logging
import NIOCore
import NIOPosix
import PlacesCrypto

/// A connection as the session code sees it: frames and idle events in, bytes out.
typealias SyncChannel = NIOAsyncChannel<SyncChannelEvent, ByteBuffer>

/// Fired into a connection's pipeline when `SyncLimits.handshakeTimeout` has passed; the
/// handshake code turns it into `.handshakeTimeout`.
struct SyncHandshakeDeadline: Sendable {}

/// The protocol version this build speaks, sent in `Hello.protocol_version`.
let syncProtocolVersion: UInt32 = 1
/// The longest `Hello.name` accepted, in UTF-8 bytes.
let maxHelloNameBytes = 100

extension SyncService {
    // MARK: Channels

    /// Sets up a new TCP connection's pipeline: idle detection in front of the frame
    /// decoder, so any received byte counts as traffic.
    nonisolated static func makeSyncChannel(_ channel: any Channel, initiator: Bool, limits: SyncLimits) throws
        -> SyncChannel
    {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(
            IdleStateHandler(readTimeout: TimeAmount(limits.idleTimeout), writeTimeout: TimeAmount(limits.pingInterval))
        )
        try pipeline.addHandler(
            ByteToMessageHandler(
                SyncFrameDecoder(handshakeFrameLengths: SyncFrameDecoder.handshakeFrameLengths(initiator: initiator))))
        try pipeline.addHandler(SyncEventHandler())
        return try SyncChannel(
            wrappingChannelSynchronously: channel,
            configuration: .init(inboundType: SyncChannelEvent.self, outboundType: ByteBuffer.self))
    }

    // MARK: Accepting and dialling

    nonisolated func acceptConnections(_ server: NIOAsyncChannel<SyncChannel, Never>) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask { await self.accept(connection) }
                }
            }
        }
    }

    /// Serves one accepted connection; never throws, so one bad peer cannot stop the listener.
    private nonisolated func accept(_ connection: SyncChannel) async {
        guard await reserveConnection() else {
            logger.warning("refused a peer connection: too many open connections")
            await Self.refuse(connection)
            return
        }
        if let identity = await delegate.syncIdentity() {
            _ = await runConnection(connection, identity: identity, dialTarget: nil)
        } else {
            logger.debug("refused a peer connection while logged out")
            await Self.refuse(connection)
        }
        await releaseConnection()
    }

    /// Closes a connection without reading from it. (`executeThenClose` also finishes the
    /// channel's writer, which NIO requires before the channel goes away.)
    private static func refuse(_ connection: SyncChannel) async {
        try? await connection.executeThenClose { _, _ in }
    }

    /// Dials `target` whenever no session reaches it: 1 s after a session ends, and with
    /// exponential backoff after failed attempts. While logged out it only re-checks, so a
    /// login is noticed within `reconnectInitialDelay`.
    nonisolated func dialLoop(_ target: DialTarget) async {
        let initial = limits.reconnectInitialDelay
        var backoff = initial
        while !Task.isCancelled, await isDialTarget(target) {
            var wait = initial
            if await hasSession(serving: target) {
                backoff = initial
            } else if let identity = await delegate.syncIdentity() {
                if await dial(target, identity: identity) {
                    backoff = initial
                } else {
                    wait = backoff
                    backoff = min(backoff * 2, limits.reconnectMaxDelay)
                }
            }
            // Jitter keeps daemons that lost each other at the same moment from re-dialling
            // in lockstep.
            do {
                try await Task.sleep(for: wait * Double.random(in: 0.5...1.0))
            } catch {
                return
            }
        }
    }

    /// Connects to `target` and runs the session until it ends; true if a session was
    /// established.
    private nonisolated func dial(_ target: DialTarget, identity: SigningKeyPair) async -> Bool {
        guard await reserveConnection() else { return false }
        let established = await connectAndRun(target, identity: identity)
        await releaseConnection()
        return established
    }

    private nonisolated func connectAndRun(_ target: DialTarget, identity: SigningKeyPair) async -> Bool {
        let limits = limits
        let channel: SyncChannel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(limits.connectTimeout))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: target.host, port: target.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try SyncService.makeSyncChannel(channel, initiator: true, limits: limits)
                    }
                }
        } catch {
            logger.debug("could not connect to a peer", metadata: ["peer.address": "\(target)", "error": "\(error)"])
            return false
        }
        return await runConnection(channel, identity: identity, dialTarget: target)
    }
}
