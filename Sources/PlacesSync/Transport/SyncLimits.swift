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
    /// dial each other); more are closed right after the handshake.
    public var maxSessionsPerPeer: Int
    /// Open TCP connections allowed at a time (handshaking or established); further
    /// inbound connections are closed at once.
    public var maxConnections: Int
    /// Bytes of serialized messages waiting to be written to one session. A session whose
    /// queue would grow past this (a peer not reading) is disconnected.
    public var maxQueuedBytesPerSession: Int
    /// Messages waiting to be written to one session; past this the session is disconnected.
    public var maxQueuedMessagesPerSession: Int
    /// The first wait before re-dialling an address; it doubles after each failure.
    public var reconnectInitialDelay: Duration
    /// The longest wait between dials of one address.
    public var reconnectMaxDelay: Duration

    /// Limits with every value given; see the properties.
    public init(
        handshakeTimeout: Duration = .seconds(10),
        pingInterval: Duration = .seconds(15),
        idleTimeout: Duration = .seconds(45),
        connectTimeout: Duration = .seconds(10),
        maxMessageBytes: Int = 4 << 20,
        maxSessionsPerPeer: Int = 2,
        maxConnections: Int = 256,
        maxQueuedBytesPerSession: Int = 32 << 20,
        maxQueuedMessagesPerSession: Int = 4096,
        reconnectInitialDelay: Duration = .seconds(1),
        reconnectMaxDelay: Duration = .seconds(60)
    ) {
        self.handshakeTimeout = handshakeTimeout
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.maxMessageBytes = maxMessageBytes
        self.maxSessionsPerPeer = maxSessionsPerPeer
        self.maxConnections = maxConnections
        self.maxQueuedBytesPerSession = maxQueuedBytesPerSession
        self.maxQueuedMessagesPerSession = maxQueuedMessagesPerSession
        self.reconnectInitialDelay = reconnectInitialDelay
        self.reconnectMaxDelay = reconnectMaxDelay
    }

    /// The protocol defaults: 10 s handshake, Ping after 15 s, 45 s idle, 4 MiB messages,
    /// 2 sessions per peer, re-dial from 1 s up to 60 s.
    public static let `default` = SyncLimits()
}
