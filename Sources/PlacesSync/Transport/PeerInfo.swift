import Foundation
import PlacesCrypto

/// One live session with a peer, as `SyncService.connectedPeers()` reports it.
public struct PeerInfo: Sendable, Equatable {
    /// The peer's Ed25519 identity, proven by the handshake.
    public var key: PublicKey
    /// The profile name from the peer's `Hello` (may be empty).
    public var name: String
    /// The peer's IP address as text (`192.0.2.7`, `2001:db8::7`), without a port.
    public var address: String
    /// The TCP port the peer accepts sync connections on, from its `Hello` (0 if none).
    public var listenPort: Int
    /// When the session was established (handshake and `Hello` done).
    public var connectedSince: Date
    /// Whether the peer dialled this daemon (true) or this daemon dialled it.
    public var inbound: Bool
    /// Ops this session sent (`OpsBatch` entries), and how many of them it had carried before,
    /// either way (`SentOps`).
    public var opsSent = 0
    public var opsSentAgain = 0

    /// Creates a description of a session.
    public init(key: PublicKey, name: String, address: String, listenPort: Int, connectedSince: Date, inbound: Bool) {
        self.key = key
        self.name = name
        self.address = address
        self.listenPort = listenPort
        self.connectedSince = connectedSince
        self.inbound = inbound
    }
}
