import PlacesCrypto
import PlacesModel

/// What the sync transport needs from the daemon. The transport (`SyncService`) owns
/// sockets, the Noise handshake, framing and peer bookkeeping; the delegate (the daemon's
/// engine) owns documents, membership and ops. Every method is called from the transport's
/// tasks; implementations are actors or otherwise thread-safe.
public protocol SyncDelegate: Sendable {
    /// The unlocked identity, or nil while logged out: then the transport neither accepts
    /// nor dials (a logged-out daemon syncs nothing).
    func syncIdentity() async -> SigningKeyPair?

    /// The local profile name sent in `Hello`.
    func syncDisplayName() async -> String

    /// A session with `peer` (its Ed25519 key, proven by the handshake) is up: the
    /// messages to send first (one `DocOffer` per document the peer is a member of).
    /// `address` is the peer's IP address, without a port (its listening port is in `hello`).
    func sessionOpened(with peer: PublicKey, hello: Places_Sync_V1_Hello, address: String) async
        -> [Places_Sync_V1_SyncMessage]

    /// A message from `peer` (never `hello`, ping or pong: the transport answers those);
    /// returns the messages to send back to that peer.
    func received(_ message: Places_Sync_V1_SyncMessage, from peer: PublicKey) async -> [Places_Sync_V1_SyncMessage]

    /// The session with `peer` ended (closed, failed or timed out).
    func sessionClosed(with peer: PublicKey, reason: String) async
}
