import Logging
import NIOCore
import NIOPosix
import PlacesCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds other daemons on the local network with signed UDP multicast beacons
/// (`Protocol/discovery.md`) and announces this one.
///
/// `run()` binds `0.0.0.0:port` (shared with other daemons on the host through
/// `SO_REUSEADDR`/`SO_REUSEPORT`), joins `group` on every multicast-capable IPv4 interface
/// and then, until cancelled, sends a beacon on each of them at start, every `interval`
/// (± 10 %), on `announceNow()` and within a second of a login, and hands every valid beacon from another identity to
/// `onPeer`. No joinable interface is not an error: the daemon still works with static
/// peers, and a warning says why nobody is found.
public actor LANDiscovery {
    /// The administratively scoped (RFC 2365) group beacons go to.
    public static let defaultGroup = "239.255.74.78"
    /// The UDP port beacons go to ("PN" on a phone keypad, close to the sync port's theme).
    public static let defaultPort = 7478

    /// What `run()` needs from the outside world; tests replace clocks and randomness.
    struct Environment: Sendable {
        /// Wall-clock time in Unix milliseconds (beacon timestamps are compared across hosts).
        var nowMs: @Sendable () -> UInt64
        /// A uniformly random number in 0..<1, for interval jitter.
        var randomUnit: @Sendable () -> Double
        /// Sleeps for a duration; throws when cancelled.
        var sleep: @Sendable (Duration) async throws -> Void
        /// Where the UDP channel lives.
        var eventLoopGroup: any EventLoopGroup

        static let live = Environment(
            nowMs: { LANDiscovery.wallClockMs() },
            randomUnit: { Double.random(in: 0..<1) },
            sleep: { try await Task.sleep(for: $0) },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    }

    private enum State {
        case idle
        case running(AsyncStream<Void>.Continuation)
        case finished
    }

    private let group: String
    private let port: Int
    private let interval: Duration
    private let logger: Logger
    private let identity: @Sendable () async -> (SigningKeyPair, tcpPort: Int, name: String)?
    private let onPeer: @Sendable (DiscoveredPeer) async -> Void
    private let environment: Environment

    private var state = State.idle
    private var filter = BeaconFilter()
    /// Every key this instance signed a beacon with: its own beacons come back through
    /// multicast loopback and from other interfaces, and must never become peers.
    private var ownKeys: Set<PublicKey> = []
    /// The last beacon was skipped because nobody is logged in.
    private var awaitingLogin = false
    /// How often a logged-out instance checks for a login.
    static let loginPollInterval = Duration.seconds(1)
    /// The interfaces the group was joined on (names), for logs and tests.
    private(set) var joinedInterfaces: [String] = []

    /// Creates a discovery service; nothing happens until `run()`.
    ///
    /// - Parameters:
    ///   - group: the IPv4 multicast group.
    ///   - port: the UDP port, shared by all daemons on a host.
    ///   - interval: time between beacons (each wait is jittered by ± 10 %).
    ///   - identity: the unlocked identity, sync port and display name; nil while logged out,
    ///     and then no beacon is sent (received beacons are still reported).
    ///   - onPeer: called for each valid beacon from another identity (again every interval);
    ///     hand it to `SyncService.addDiscoveredPeer(_:)`, which keeps one address per key.
    public init(
        group: String = defaultGroup, port: Int = defaultPort, interval: Duration = .seconds(30), logger: Logger,
        identity: @escaping @Sendable () async -> (SigningKeyPair, tcpPort: Int, name: String)?,
        onPeer: @escaping @Sendable (DiscoveredPeer) async -> Void
    ) {
        self.init(
            group: group, port: port, interval: interval, logger: logger, environment: .live, identity: identity,
            onPeer: onPeer)
    }

    init(
        group: String, port: Int, interval: Duration, logger: Logger, environment: Environment,
        identity: @escaping @Sendable () async -> (SigningKeyPair, tcpPort: Int, name: String)?,
        onPeer: @escaping @Sendable (DiscoveredPeer) async -> Void
    ) {
        self.group = group
        self.port = port
        self.interval = interval
        self.logger = logger
        self.environment = environment
        self.identity = identity
        self.onPeer = onPeer
    }

    /// Sends a beacon now (e.g. right after login) instead of waiting for the next tick.
    /// Returns at once; does nothing unless `run()` is running.
    public func announceNow() async {
        if case .running(let trigger) = state { trigger.yield() }
    }

    /// Binds, joins the group, announces and listens until the task is cancelled.
    ///
    /// Throws when the group or port is unusable or the socket cannot be opened; once it
    /// runs, bad datagrams and failed sends are logged and never end it.
    public func run() async throws {
        guard case .idle = state else {
            throw DiscoveryError(.alreadyRunning, "this LANDiscovery already ran; create a new one")
        }
        state = .finished  // claimed: a second run() fails even while this one is still binding
        let groupAddress = try Self.groupAddress(group, port: port)
        let (datagrams, datagramSink) = AsyncStream.makeStream(
            of: ReceivedDatagram.self, bufferingPolicy: .bufferingNewest(256))
        let channel = try await bind(datagramSink: datagramSink)
        let (triggers, trigger) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        do {
            let interfaces = try await configure(channel)
            state = .running(trigger)
            trigger.yield()  // the beacon at start
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await self.receive(datagrams) }
                tasks.addTask { await self.send(triggers, on: channel, interfaces: interfaces, to: groupAddress) }
                tasks.addTask { await self.tick(trigger) }
                // Only the receiver ends by itself (the socket closed); the others end on cancellation.
                try await tasks.next()
                tasks.cancelAll()
            }
        } catch {
            state = .finished
            trigger.finish()
            try? await channel.close()
            throw error
        }
        state = .finished
        trigger.finish()
        try? await channel.close()
        if !Task.isCancelled {
            throw DiscoveryError(.socketFailed, "the discovery socket closed unexpectedly; restart the daemon")
        }
    }

    // MARK: Setup

    private static func groupAddress(_ group: String, port: Int) throws(DiscoveryError) -> SocketAddress {
        guard (1...65535).contains(port) else {
            throw DiscoveryError(.invalidConfiguration, "the discovery port must be 1...65535, got \(port)")
        }
        let address: SocketAddress
        do {
            address = try SocketAddress(ipAddress: group, port: port)
        } catch {
            throw DiscoveryError(
                .invalidConfiguration, "the discovery group \(group) is not an IP address", cause: error)
        }
        guard case .v4(let v4) = address, (UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 28) == 0xE else {
            throw DiscoveryError(.invalidConfiguration, "the discovery group \(group) is not an IPv4 multicast address")
        }
        return address
    }

    private func bind(datagramSink: AsyncStream<ReceivedDatagram>.Continuation) async throws(DiscoveryError)
        -> any Channel
    {
        do {
            return try await Self.datagramBootstrap(on: environment.eventLoopGroup, datagramSink: datagramSink)
                .bind(host: "0.0.0.0", port: port)
                .get()
        } catch {
            datagramSink.finish()
            throw DiscoveryError(
                .socketFailed,
                "could not bind UDP 0.0.0.0:\(port) for LAN discovery; free the port or start with --no-discovery",
                cause: error)
        }
    }

    /// The UDP socket's options and pipeline, before it is bound.
    static func datagramBootstrap(
        on group: any EventLoopGroup, datagramSink: AsyncStream<ReceivedDatagram>.Continuation
    ) -> DatagramBootstrap {
        DatagramBootstrap(group: group)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            // The destination address of each datagram, to drop those not sent to the group.
            .channelOption(.receivePacketInfo, value: true)
            // Several daemons on one host (and tests) share the port; each gets every
            // multicast datagram.
            .channelOption(.socketOption(NIOBSDSocket.Option(rawValue: CInt(SO_REUSEPORT))), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(BeaconDatagramHandler(continuation: datagramSink))
                }
            }
    }

    /// Loopback and TTL on the socket, then the group on every IPv4 multicast interface.
    /// Returns the interfaces joined (possibly none).
    private func configure(_ channel: any Channel) async throws -> [NIONetworkDevice] {
        guard let multicast = channel as? any MulticastChannel, let options = channel as? any SocketOptionProvider
        else {
            throw DiscoveryError(.socketFailed, "the UDP channel does not support multicast")
        }
        do {
            // Loop on: several daemons on one host see each other. TTL 1: beacons stay on the link.
            try await options.setIPMulticastLoop(1).get()
            try await options.setIPMulticastTTL(1).get()
        } catch {
            throw DiscoveryError(.socketFailed, "could not set multicast loopback and TTL", cause: error)
        }
        let groupAddress = try Self.groupAddress(group, port: port)
        var joined: [NIONetworkDevice] = []
        for device in Self.multicastInterfaces() {
            do {
                try await multicast.joinGroup(groupAddress, device: device).get()
                joined.append(device)
            } catch {
                logger.debug(
                    "could not join the discovery group on an interface",
                    metadata: ["interface": "\(device.name)", "error": "\(error)"])
            }
        }
        joinedInterfaces = joined.map(\.name)
        if joined.isEmpty {
            logger.warning(
                "LAN discovery found no IPv4 multicast interface to join; only static peers will be reached",
                metadata: ["discovery.group": "\(group)", "discovery.port": "\(port)"])
        } else {
            logger.info(
                "LAN discovery listening",
                metadata: [
                    "discovery.group": "\(group)", "discovery.port": "\(port)",
                    "discovery.interfaces": "\(joinedInterfaces.joined(separator: ","))",
                ])
        }
        return joined
    }

    /// One device per IPv4 interface that is up to multicast (`NetworkInterfaces`).
    static func multicastInterfaces() -> [NIONetworkDevice] { NetworkInterfaces.multicast() }

    // MARK: Loops

    /// Triggers a beacon every `interval` (± 10 %). While logged out it also asks for the
    /// identity every `loginPollInterval` and announces as soon as there is one, so a login
    /// is announced within a second even if nobody calls `announceNow()`.
    private func tick(_ trigger: AsyncStream<Void>.Continuation) async {
        var remaining = jitteredInterval()
        while true {
            // Wake at least every poll interval: whether we are logged out is only known
            // once the send loop has tried.
            let step = min(remaining, Self.loginPollInterval)
            do {
                try await environment.sleep(step)
            } catch {
                return
            }
            remaining -= step
            if remaining <= .zero {
                trigger.yield()
                remaining = jitteredInterval()
            } else if awaitingLogin, await identity() != nil {
                awaitingLogin = false
                trigger.yield()
                remaining = jitteredInterval()
            }
        }
    }

    private func jitteredInterval() -> Duration {
        interval * (0.9 + 0.2 * environment.randomUnit())
    }

    /// The only place that writes: setting IP_MULTICAST_IF and writing are two steps, so
    /// every beacon goes out from this one loop, never from two tasks at once.
    private func send(
        _ triggers: AsyncStream<Void>, on channel: any Channel, interfaces: [NIONetworkDevice], to group: SocketAddress
    ) async {
        for await _ in triggers {
            await sendBeacon(on: channel, interfaces: interfaces, to: group)
        }
    }

    private func sendBeacon(on channel: any Channel, interfaces: [NIONetworkDevice], to group: SocketAddress) async {
        guard let (keyPair, tcpPort, name) = await identity() else {
            awaitingLogin = true
            logger.trace("logged out: no discovery beacon sent")
            return
        }
        awaitingLogin = false
        guard let port = UInt16(exactly: tcpPort), port != 0 else {
            logger.warning("no discovery beacon sent: the sync port is not 1...65535", metadata: ["port": "\(tcpPort)"])
            return
        }
        ownKeys.insert(keyPair.publicKey)
        let nonce = SecureRandom.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let beacon = Beacon(
            key: keyPair.publicKey, tcpPort: port, name: name, timestampMs: environment.nowMs(), nonce: nonce)
        let bytes = beacon.encoded(signedBy: keyPair)
        let options = channel as? any SocketOptionProvider
        for device in interfaces {
            guard case .v4(let address) = device.address else { continue }
            do {
                try await options?.setIPMulticastIF(address.address.sin_addr).get()
                let datagram = AddressedEnvelope(remoteAddress: group, data: channel.allocator.buffer(bytes: bytes))
                try await channel.writeAndFlush(datagram).get()
            } catch {
                logger.debug(
                    "could not send a discovery beacon", metadata: ["interface": "\(device.name)", "error": "\(error)"])
            }
        }
        logger.trace("discovery beacon sent", metadata: ["interfaces": "\(interfaces.count)"])
    }

    private func receive(_ datagrams: AsyncStream<ReceivedDatagram>) async {
        for await datagram in datagrams {
            let verdict = filter.admit(
                datagram.bytes, from: datagram.sourceHost, to: datagram.destinationHost, group: group, ownKeys: ownKeys,
                now: environment.nowMs())
            switch verdict {
            case .accepted(let beacon):
                logger.trace(
                    "discovery beacon accepted",
                    metadata: ["peer.id": "\(beacon.key.humanID)", "peer.address": "\(datagram.sourceHost)"])
                await onPeer(
                    DiscoveredPeer(
                        key: beacon.key, host: datagram.sourceHost, tcpPort: Int(beacon.tcpPort), name: beacon.name))
            case .ignored(.ownBeacon), .ignored(.duplicate):
                break
            case .ignored(let reason):
                logger.debug(
                    "discovery datagram dropped",
                    metadata: ["reason": "\(reason.rawValue)", "peer.address": "\(datagram.sourceHost)"])
            case .rejected(let error):
                logger.debug(
                    "discovery datagram rejected",
                    metadata: [
                        "reason": "\(error.message)", "code": "\(error.code.rawValue)",
                        "peer.address": "\(datagram.sourceHost)",
                    ])
            }
        }
    }

    static func wallClockMs() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
    }
}
