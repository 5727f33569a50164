/// Timeouts and size limits of the sync transport (`Protocol/sync.md` §5). The defaults are
/// the protocol's; tests shrink the timeouts to keep the suite fast.
public struct SyncLimits: Sendable {
    /// Longest a connection may take from TCP accept (or connect) to a received `Hello`.
    /// A peer that connects and stalls is dropped after this.
    public var handshakeTimeout: Duration
    /// A `Ping` is sent after this long without outbound traffic.
    public var pingInterval: Duration
    /// A session is closed after this long without any inbound traffic.
    public var idleTimeout: Duration
    /// Longest a TCP connect to a peer may take.
    public var connectTimeout: Duration
    /// Largest reassembled `SyncMessage`, in bytes of its serialization. Larger inbound
    /// messages close the session; larger outbound ones are not sent.
    public var maxMessageBytes: Int
    /// Sessions allowed with one peer at a time (one dialled, one accepted when both sides
    /// dial each other); more are closed right after the handshake, before `Hello`.
    public var maxSessionsPerPeer: Int
    /// Inbound TCP connections allowed at a time (handshaking or established); further
    /// inbound connections are closed at once. Dialled connections have their own budget.
    public var maxConnections: Int
    /// Inbound connections allowed at a time that have not yet delivered a valid `Hello`.
    public var maxPendingConnections: Int
    /// Inbound connections allowed at a time from one address (an IPv4 address, or an
    /// IPv6 /64), handshaking or established.
    public var maxConnectionsPerAddress: Int
    /// Inbound connections allowed at a time from one address that have not yet delivered
    /// a valid `Hello`.
    public var maxPendingConnectionsPerAddress: Int
    /// Dialled connections open at a time (connecting, handshaking or established).
    public var maxOutboundConnections: Int
    /// Dials in progress at a time (TCP connect, handshake and `Hello`); a dial that is due
    /// while this many run waits for its next turn.
    public var maxConcurrentDials: Int
    /// How long a session may stay open before the transport first asks the delegate
    /// (`SyncDelegate.keepSession(with:)`) whether the peer is anyone it has business with.
    public var strangerGrace: Duration
    /// How often the delegate is asked again after the first check.
    public var strangerRecheckInterval: Duration
    /// Peers learned from discovery beacons that are dialled at a time (one address per key).
    public var maxDiscoveredPeers: Int
    /// Keys learned from beacons of one source address that are dialled at a time.
    public var maxDiscoveredPeersPerAddress: Int
    /// A peer learned from beacons is forgotten (and no longer dialled) after this long
    /// without a beacon from it.
    public var discoveredPeerExpiry: Duration
    /// Addresses given with `SyncService.addPeer` (static peers, link hints) dialled at a time.
    public var maxDialTargets: Int
    /// Bytes of serialized messages waiting to be written to one session. A session whose
    /// queue would grow past this (a peer not reading) is disconnected.
    public var maxQueuedBytesPerSession: Int
    /// Messages waiting to be written to one session; past this the session is disconnected.
    public var maxQueuedMessagesPerSession: Int
    /// The first wait before re-dialling an address; it doubles after each failure.
    public var reconnectInitialDelay: Duration
    /// The longest wait between dials of one address.
    public var reconnectMaxDelay: Duration
    /// How long a received bulk batch of ops (half of `Replicator.maxBatchBytes` or more)
    /// waits for the next message, to be stored with the batches of its document that
    /// follow (`SyncService.mergingOps`). Not part of the protocol: what the peer sees is
    /// only when its ops are stored.
    public var bulkMergeWait: Duration

    /// Limits with every value given; see the properties.
    public init(
        handshakeTimeout: Duration = .seconds(10),
        pingInterval: Duration = .seconds(15),
        idleTimeout: Duration = .seconds(45),
        connectTimeout: Duration = .seconds(10),
        maxMessageBytes: Int = 4 << 20,
        maxSessionsPerPeer: Int = 2,
        maxConnections: Int = 256,
        maxPendingConnections: Int = 64,
        maxConnectionsPerAddress: Int = 16,
        maxPendingConnectionsPerAddress: Int = 8,
        maxOutboundConnections: Int = 64,
        maxConcurrentDials: Int = 8,
        strangerGrace: Duration = .seconds(10),
        strangerRecheckInterval: Duration = .seconds(60),
        maxDiscoveredPeers: Int = 32,
        maxDiscoveredPeersPerAddress: Int = 4,
        discoveredPeerExpiry: Duration = .seconds(120),
        maxDialTargets: Int = 128,
        maxQueuedBytesPerSession: Int = 32 << 20,
        maxQueuedMessagesPerSession: Int = 4096,
        reconnectInitialDelay: Duration = .seconds(1),
        reconnectMaxDelay: Duration = .seconds(60),
        bulkMergeWait: Duration = .milliseconds(5)
    ) {
        self.handshakeTimeout = handshakeTimeout
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.maxMessageBytes = maxMessageBytes
        self.maxSessionsPerPeer = maxSessionsPerPeer
        self.maxConnections = maxConnections
        self.maxPendingConnections = maxPendingConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.maxPendingConnectionsPerAddress = maxPendingConnectionsPerAddress
        self.maxOutboundConnections = maxOutboundConnections
        self.maxConcurrentDials = maxConcurrentDials
        self.strangerGrace = strangerGrace
        self.strangerRecheckInterval = strangerRecheckInterval
        self.maxDiscoveredPeers = maxDiscoveredPeers
        self.maxDiscoveredPeersPerAddress = maxDiscoveredPeersPerAddress
        self.discoveredPeerExpiry = discoveredPeerExpiry
        self.bulkMergeWait = bulkMergeWait
        self.maxDialTargets = maxDialTargets
        self.maxQueuedBytesPerSession = maxQueuedBytesPerSession
        self.maxQueuedMessagesPerSession = maxQueuedMessagesPerSession
        self.reconnectInitialDelay = reconnectInitialDelay
        self.reconnectMaxDelay = reconnectMaxDelay
    }

    /// The protocol defaults (`Protocol/sync.md` §5): 10 s handshake, Ping after 15 s, 45 s
    /// idle, 4 MiB messages, 2 sessions per peer, 256 inbound connections (64 handshaking),
    /// 16 per address (8 handshaking), 64 dialled (8 dialling at once), strangers asked
    /// about after 10 s, 32 discovered peers, re-dial from 1 s up to 60 s.
    public static let `default` = SyncLimits()
}
