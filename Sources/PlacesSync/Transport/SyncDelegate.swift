import PlacesCrypto
import PlacesModel

/// What the sync transport needs from the document side. The transport (`SyncService`) owns
/// sockets, the Noise handshake, framing and peer bookkeeping; the delegate (the
/// `Replicator`, or a scripted one in tests) owns documents, membership and ops. Every
/// method is called from the transport's tasks; implementations are actors or otherwise
/// thread-safe.
protocol SyncDelegate: Sendable {
    /// The unlocked identity, or nil while logged out: then the transport neither accepts
    /// nor dials (a logged-out daemon syncs nothing).
    func syncIdentity() async -> SigningKeyPair?

    /// The local profile name.
    func syncDisplayName() async -> String

    /// The name to send in `Hello` to `peer` (its key proven by the handshake, nothing else
    /// known yet): the profile name for peers the daemon knows, "" for strangers
    /// (`Protocol/sync.md` §4). The default sends `syncDisplayName()` to everyone.
    func helloName(for peer: PublicKey) async -> String

    /// Asked `SyncLimits.strangerGrace` (10 s) after a session with `peer` opened, and then
    /// every `strangerRecheckInterval` (60 s): false closes the session as a stranger's
    /// (`Protocol/sync.md` §6). Answer true while the peer shares a document with this
    /// daemon, a join involving it is in progress, or it is otherwise expected. The default
    /// keeps every session.
    func keepSession(with peer: PublicKey) async -> Bool

    /// A session with `peer` (its Ed25519 key, proven by the handshake) is up: the
    /// messages to send first (one `DocOffer` per document the peer is a member of).
    /// `address` is the peer's IP address, without a port (its listening port is in `hello`).
    /// `handshakeHash` is the session's final Noise handshake hash (its channel binding).
    func sessionOpened(with peer: PublicKey, hello: Places_Sync_V1_Hello, address: String, handshakeHash: [UInt8])
        async -> [Places_Sync_V1_SyncMessage]

    /// What this side's `Hello` says of its device (`Protocol/devices.md` §6): its certificate
    /// (empty for a person's root device) and the revocations of its person's devices it knows.
    func deviceCredentials() async -> (certificate: [UInt8], revocations: [[UInt8]])

    /// A message from `peer` (never `hello`, ping or pong: the transport answers those);
    /// returns the messages to send back to that peer.
    func received(_ message: Places_Sync_V1_SyncMessage, from peer: PublicKey) async -> [Places_Sync_V1_SyncMessage]

    /// The session with `peer` ended (closed, failed or timed out).
    func sessionClosed(with peer: PublicKey, reason: String) async

    /// A `Pong` from `peer` (the transport answers Pings itself): the peer has handled every
    /// message sent before the Ping it answers. Returns the messages to send next.
    func pong(_ nonce: UInt64, from peer: PublicKey) async -> [Places_Sync_V1_SyncMessage]
}

extension SyncDelegate {
    /// Sends the profile name to every peer, strangers included.
    func helloName(for peer: PublicKey) async -> String { await syncDisplayName() }

    /// Keeps every session: no peer is treated as a stranger.
    func keepSession(with peer: PublicKey) async -> Bool { true }

    /// A root device: no certificate, no revocations.
    func deviceCredentials() async -> (certificate: [UInt8], revocations: [[UInt8]]) { ([], []) }

    /// Sends nothing on a Pong.
    func pong(_ nonce: UInt64, from peer: PublicKey) async -> [Places_Sync_V1_SyncMessage] { [] }
}
