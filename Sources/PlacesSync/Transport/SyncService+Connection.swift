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

/// Fired into an established session's pipeline when the stranger grace (and later each
/// recheck interval) has passed; the session asks the delegate whether to keep the peer.
struct SyncStrangerCheck: Sendable {}

/// The protocol version this build speaks, sent in `Hello.protocol_version`.
let syncProtocolVersion: UInt32 = 1
/// The longest `Hello.name` accepted, in UTF-8 bytes.
let maxHelloNameBytes = 100
/// Most device revocations a `Hello` carries (`Protocol/devices.md` §7).
let maxHelloRevocations = 64

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
        let address = ConnectionBudget.addressBucket(connection.channel.remoteAddress)
        if let refusal = await reserveInbound(from: address) {
            logger.warning(
                "refused a peer connection: no connection slot free",
                metadata: ["peer.address": "\(address)", "sync.reason": "\(refusal.rawValue)"])
            await Self.refuse(connection)
            return
        }
        var established = false
        if let identity = await delegate.syncIdentity() {
            established =
                await runConnection(connection, identity: identity, dialTarget: nil, addressBucket: address) != nil
        } else {
            logger.debug("refused a peer connection while logged out")
            await Self.refuse(connection)
        }
        await releaseInbound(from: address, established: established)
    }

    /// Closes a connection without reading from it. (`executeThenClose` also finishes the
    /// channel's writer, which NIO requires before the channel goes away.)
    private static func refuse(_ connection: SyncChannel) async {
        try? await connection.executeThenClose { _, _ in }
    }

    /// Dials `target` while it is a dial target and no session reaches it: about 1 s after
    /// a session ends in which the peer offered a document or that lasted at least twice the
    /// stranger grace, and with exponential
    /// backoff after failed attempts and shorter sessions (a peer that keeps closing us as
    /// a stranger is not re-dialled every second). Every wait is multiplied by a random
    /// factor in [0.5, 1]. While logged out, or while the dial budget is spent, it only
    /// re-checks, so a login is noticed within `reconnectInitialDelay`.
    nonisolated func dialLoop(_ target: DialTarget) async {
        let initial = limits.reconnectInitialDelay
        var backoff = initial
        while !Task.isCancelled, await continueDialing(target) {
            var wait = initial
            if await hasSession(serving: target) {
                backoff = initial
            } else if let identity = await delegate.syncIdentity() {
                switch await dial(target, identity: identity) {
                case .noSlot:
                    break
                case .session(let outcome) where outcome.peerOffered || outcome.lasted >= limits.strangerGrace * 2:
                    // A peer that restarts comes back in about a second, however short the
                    // session was; one that keeps closing us as a stranger never offers.
                    backoff = initial
                case .failed, .session:
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

    /// How a session that was established went.
    struct SessionOutcome {
        /// From its opening (after `Hello`) to its close.
        var lasted: Duration
        /// The peer offered at least one document in it (`SyncSession.peerOffered`).
        var peerOffered: Bool
    }

    enum DialOutcome {
        /// The dial budget was spent; nothing was tried.
        case noSlot
        /// No session came of it.
        case failed
        /// A session ran and ended.
        case session(SessionOutcome)
    }

    /// Connects to `target` and runs the session until it ends.
    private nonisolated func dial(_ target: DialTarget, identity: SigningKeyPair) async -> DialOutcome {
        guard await reserveDial() else {
            logger.debug("dial postponed: too many dials in progress", metadata: ["peer.address": "\(target)"])
            return .noSlot
        }
        let lasted = await connectAndRun(target, identity: identity)
        if lasted == nil { await dialFinished() }
        await releaseOutbound()
        return lasted.map { .session($0) } ?? .failed
    }

    private nonisolated func connectAndRun(_ target: DialTarget, identity: SigningKeyPair) async -> SessionOutcome? {
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
            return nil
        }
        return await runConnection(channel, identity: identity, dialTarget: target, addressBucket: nil)
    }
}
