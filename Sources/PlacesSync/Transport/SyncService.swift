import Foundation
import Logging
import NIOCore
import NIOPosix
import PlacesCrypto

/// A `SyncMessage` of the generated protocol code.
typealias SyncMessage = Places_Sync_V1_SyncMessage

/// The peer-to-peer sync transport (`Protocol/sync.md`): listens for peers, dials the
/// addresses it is given, runs the Noise handshake (`Protocol/handshake.md`), exchanges
/// `Hello`, keeps sessions alive and hands every other message to the delegate.
///
/// One child task per connection; a failing connection is logged and closed and never
/// takes the listener or other peers down. The service holds bookkeeping only; the
/// connections run outside the actor and report to it.
public actor SyncService {
    private enum State {
        case idle
        case running
        case finished
    }

    /// The listen host as given to `init`.
    public nonisolated let host: String
    /// The requested listen port (0: any free port; see `boundPort`).
    public nonisolated let port: Int
    let delegate: any SyncDelegate
    let logger: Logger
    let limits: SyncLimits

    private var state = State.idle
    private var listeningPort: Int?
    private var sessions: [UInt64: SyncSession] = [:]
    private var nextSessionID: UInt64 = 1
    private var budget: ConnectionBudget
    /// Connections per identity past the handshake (sessions, and those still exchanging
    /// `Hello`): the per-peer session limit is checked against this.
    private var sessionSlots: [PublicKey: Int] = [:]
    /// Addresses given with `addPeer`.
    private var dialTargets: Set<DialTarget> = []
    /// Addresses learned from beacons, one per key.
    private var discovered: DiscoveredPeerTable
    /// Targets with a running dial loop.
    private var dialLoops: Set<DialTarget> = []
    private let dialRequests: AsyncStream<DialTarget>
    private let dialContinuation: AsyncStream<DialTarget>.Continuation

    /// Creates a stopped service; `run(onBound:)` starts it.
    /// - Parameters:
    ///   - host: the address to listen on (`0.0.0.0`, `::`, `127.0.0.1`).
    ///   - port: the TCP port to listen on; 0 picks a free one.
    ///   - replicator: the document side: identity, documents, what to send.
    ///   - logger: receives connection events with `peer.id` metadata; never keys or payloads.
    ///   - limits: timeouts and sizes; the protocol's defaults unless testing.
    public init(host: String, port: Int, replicator: Replicator, logger: Logger, limits: SyncLimits = .default) {
        self.init(host: host, port: port, delegate: replicator, logger: logger, limits: limits)
    }

    /// A service over any delegate (tests drive the transport with scripted ones).
    init(host: String, port: Int, delegate: any SyncDelegate, logger: Logger, limits: SyncLimits = .default) {
        self.host = host
        self.port = port
        self.delegate = delegate
        self.logger = logger
        self.limits = limits
        budget = ConnectionBudget(limits: limits)
        discovered = DiscoveredPeerTable(
            maxPeers: limits.maxDiscoveredPeers, maxPerAddress: limits.maxDiscoveredPeersPerAddress,
            expiry: limits.discoveredPeerExpiry)
        (dialRequests, dialContinuation) = AsyncStream.makeStream(of: DialTarget.self)
    }

    /// The port the listener is bound to while `run` is running, else nil.
    public var boundPort: Int? { listeningPort }

    /// Listens and dials until the task is cancelled, then closes every connection and
    /// throws `CancellationError`. Calls `onBound` with the bound port once peers can
    /// connect. Throws `SyncError` (`.serviceFailed`) if it cannot listen, or when called
    /// a second time.
    public func run(onBound: @Sendable (Int) -> Void = { _ in }) async throws {
        guard case .idle = state else {
            throw SyncError(.serviceFailed, "This SyncService already ran; create a new one to listen again")
        }
        state = .running
        defer {
            state = .finished
            listeningPort = nil
        }
        let limits = limits
        let server: NIOAsyncChannel<SyncChannel, Never>
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelOption(.backlog, value: 128)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try SyncService.makeSyncChannel(channel, initiator: false, limits: limits)
                    }
                }
        } catch {
            throw SyncError(
                .serviceFailed, "Could not listen for peers on \(host):\(port); choose another --listen address",
                cause: error)
        }
        let bound = server.channel.localAddress?.port ?? port
        listeningPort = bound
        logger.info("listening for peers", metadata: ["sync.port": "\(bound)"])
        onBound(bound)
        try await withTaskCancellationHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await self.acceptConnections(server) }
                // The stream of addresses ends only when this task is cancelled.
                for await target in dialRequests {
                    group.addTask { await self.dialLoop(target) }
                }
                throw CancellationError()
            }
        } onCancel: {
            server.channel.close(promise: nil)
        }
    }

    /// Dials `host:port` now and again with exponential backoff (from
    /// `SyncLimits.reconnectInitialDelay` to `reconnectMaxDelay`, with jitter) whenever no
    /// session to that address is up. Adding an address again does nothing. Addresses
    /// added before `run` are dialled once it starts. At most `SyncLimits.maxDialTargets`
    /// addresses are kept; past that new ones are refused (and logged).
    /// Returns whether the address is new.
    @discardableResult
    public func addPeer(host: String, port: Int) -> Bool {
        guard !host.isEmpty, (1...65_535).contains(port) else {
            logger.warning(
                "ignored a peer address with an empty host or a bad port", metadata: ["sync.port": "\(port)"])
            return false
        }
        let target = DialTarget(host: host, port: port)
        guard !dialTargets.contains(target) else { return false }
        guard dialTargets.count < limits.maxDialTargets else {
            logger.warning(
                "ignored a peer address: too many addresses to dial",
                metadata: ["peer.address": "\(target)", "sync.limit": "\(limits.maxDialTargets)"])
            return false
        }
        dialTargets.insert(target)
        startDialLoop(target)
        return true
    }

    /// Dials a peer learned from a discovery beacon (`Protocol/discovery.md` §4), like
    /// `addPeer` but keyed by identity: one address per key (a later beacon from another
    /// address moves it), at most `SyncLimits.maxDiscoveredPeers` keys
    /// (`maxDiscoveredPeersPerAddress` per source address), each forgotten
    /// `discoveredPeerExpiry` after its last beacon. Call it for every accepted beacon.
    /// Returns whether a new address is dialled.
    @discardableResult
    public func addDiscoveredPeer(_ peer: DiscoveredPeer) -> Bool {
        guard !peer.host.isEmpty, (1...65_535).contains(peer.tcpPort) else { return false }
        let target = DialTarget(host: peer.host, port: peer.tcpPort)
        switch discovered.record(key: peer.key, target: target, now: .now) {
        case .refreshed:
            return false
        case .refused:
            logger.debug(
                "ignored a discovered peer: too many peers learned from beacons",
                metadata: ["peer.id": "\(peer.key.logID)", "peer.address": "\(target)"])
            return false
        case .added(let target), .moved(from: _, to: let target):
            // A moved key's old address stops being dialled at its loop's next turn.
            startDialLoop(target)
            return true
        }
    }

    /// Stops dialling an address added with `addPeer` (a session already up stays until it
    /// ends; it is not re-dialled).
    public func forgetPeer(host: String, port: Int) {
        dialTargets.remove(DialTarget(host: host, port: port))
    }

    private func startDialLoop(_ target: DialTarget) {
        guard dialLoops.insert(target).inserted else { return }
        dialContinuation.yield(target)
    }

    /// Whether `target` is still to be dialled; if not, its loop is over (checked and ended
    /// in one step, so that an address added again starts a new loop).
    func continueDialing(_ target: DialTarget) -> Bool {
        if dialTargets.contains(target) || discovered.isCurrent(target, now: .now) { return true }
        dialLoops.remove(target)
        discovered.removeExpired(now: .now)
        return false
    }

    /// Whether a dialled peer that proved `peer` at `target` is the one expected there: any
    /// peer at an address given with `addPeer`; at an address known only from beacons, one
    /// of the keys announced there (a beacon names where to dial, never whom to accept).
    func isExpected(_ peer: PublicKey, at target: DialTarget) -> Bool {
        if dialTargets.contains(target) { return true }
        let announced = discovered.keys(at: target, now: .now)
        return announced.isEmpty || announced.contains(peer)
    }

    /// The number of running dial loops and of keys learned from beacons, for tests.
    var dialState: (loops: Int, discovered: Int) { (dialLoops.count, discovered.count) }

    /// Every live session, oldest first. A peer connected both ways (both sides dialled)
    /// appears once per session.
    public func connectedPeers() -> [PeerInfo] {
        sessions.keys.sorted().compactMap { sessions[$0]?.infoNow }
    }

    /// Queues `messages` for every live session with `peer` and returns without waiting for
    /// the network. A session whose queue overflows (`SyncLimits.maxQueuedBytesPerSession`)
    /// is disconnected. Messages over `SyncLimits.maxMessageBytes` are not sent (the peer
    /// would close the session); that is logged as an error of the caller.
    nonisolated func send(_ messages: [Places_Sync_V1_SyncMessage], to peer: PublicKey) async {
        let serialized = serializeForSending(messages)
        guard !serialized.isEmpty else { return }
        await enqueue(serialized, ops: Self.opFingerprints(messages), to: peer)
    }

    /// A 64-bit fingerprint of each op the messages carry (`SentOps`).
    nonisolated static func opFingerprints(_ messages: [Places_Sync_V1_SyncMessage]) -> [UInt64] {
        var out = [UInt64]()
        for message in messages {
            guard case .ops(let batch) = message.kind else { continue }
            for op in batch.ops {
                var hasher = Hasher()
                op.withUnsafeBytes { hasher.combine(bytes: $0) }
                out.append(UInt64(truncatingIfNeeded: hasher.finalize()))
            }
        }
        return out
    }

    /// Says `Bye` with `reason` to every peer and closes every session (at logout).
    /// Returns without waiting for the connections to close. While the delegate's
    /// `syncIdentity()` is nil no new session starts.
    public func disconnectAll(reason: String) async {
        var bye = SyncMessage()
        bye.bye.reason = reason
        let byeBytes = serializeForSending([bye]).first
        for session in sessions.values {
            session.close(SyncError(.closed, "This daemon disconnected: \(reason)"), bye: byeBytes)
        }
    }

    /// Says `Bye` with `reason` to `peer` and closes its sessions (a device just paired, which
    /// comes back with its certificate; a device revoked). Returns without waiting.
    public func disconnect(_ peer: PublicKey, reason: String) async {
        var bye = SyncMessage()
        bye.bye.reason = reason
        let byeBytes = serializeForSending([bye]).first
        for session in sessions.values where session.info.key == peer {
            session.close(SyncError(.closed, "This daemon closed the session: \(reason)"), bye: byeBytes)
        }
    }

    // MARK: Bookkeeping (called by the connection tasks)

    /// Serializes messages for sending, leaving out those the peer would refuse.
    nonisolated func serializeForSending(_ messages: [SyncMessage]) -> [[UInt8]] {
        messages.compactMap { message in
            do {
                let bytes: [UInt8] = try message.serializedBytes()
                guard bytes.count <= limits.maxMessageBytes else {
                    logger.error(
                        "not sending a message over the size limit; split it",
                        metadata: ["sync.bytes": "\(bytes.count)", "sync.limit": "\(limits.maxMessageBytes)"])
                    return nil
                }
                return bytes
            } catch {
                logger.error("could not serialize a sync message", metadata: ["error": "\(error)"])
                return nil
            }
        }
    }

    private func enqueue(_ serialized: [[UInt8]], ops: [UInt64], to peer: PublicKey) {
        for session in sessions.values where session.info.key == peer {
            if !session.enqueue(serialized, ops: ops) {
                logger.warning(
                    "disconnected a peer whose send queue overflowed", metadata: ["peer.id": "\(peer.logID)"])
            }
        }
    }

    /// Claims an inbound connection slot for a connection from `address` (see
    /// `ConnectionBudget.addressBucket`), or says why not.
    func reserveInbound(from address: String) -> ConnectionBudget.Refusal? {
        budget.admitInbound(from: address)
    }

    func releaseInbound(from address: String, established: Bool) {
        budget.releaseInbound(from: address, established: established)
    }

    /// Claims a slot for a dial, or false when the dial budget is spent.
    func reserveDial() -> Bool { budget.admitDial() }

    func dialFinished() { budget.dialFinished() }

    func releaseOutbound() { budget.releaseOutbound() }

    /// The budget's counters, for tests.
    var budgetState: (inbound: Int, pending: Int, outbound: Int, dialling: Int, addresses: Int) {
        (budget.inbound, budget.pending, budget.outbound, budget.dialling, budget.trackedAddresses)
    }

    /// Claims one of `maxSessionsPerPeer` places for a connection whose handshake proved
    /// `peer`, or false when the peer has them all.
    func claimSessionSlot(for peer: PublicKey) -> Bool {
        let current = sessionSlots[peer] ?? 0
        guard current < limits.maxSessionsPerPeer else { return false }
        sessionSlots[peer] = current + 1
        return true
    }

    func releaseSessionSlot(for peer: PublicKey) {
        let current = sessionSlots[peer] ?? 0
        sessionSlots[peer] = current > 1 ? current - 1 : nil
    }

    /// Adds an established session (its session slot already claimed), or returns nil when
    /// the service is stopping. `addressBucket` is set for an accepted connection.
    func register(info: PeerInfo, dialTarget: DialTarget?, addressBucket: String?, channel: any Channel)
        -> SyncSession?
    {
        guard case .running = state else { return nil }
        if let addressBucket { budget.inboundEstablished(from: addressBucket) } else { budget.dialFinished() }
        let session = SyncSession(
            id: nextSessionID, info: info, dialTarget: dialTarget,
            outbox: SessionOutbox(
                maxBytes: limits.maxQueuedBytesPerSession, maxMessages: limits.maxQueuedMessagesPerSession),
            channel: channel)
        nextSessionID += 1
        sessions[session.id] = session
        return session
    }

    func unregister(_ session: SyncSession) {
        sessions[session.id] = nil
    }

    /// Whether a live session already reaches `target` (dialled there, or accepted from a
    /// peer that listens there), so the dial loop need not dial.
    func hasSession(serving target: DialTarget) -> Bool {
        sessions.values.contains { $0.serves(target) }
    }
}
