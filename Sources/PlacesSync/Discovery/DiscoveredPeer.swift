import PlacesCrypto

/// A daemon seen on the LAN through a valid beacon: who it claims to be (proven only by
/// the beacon signature; the Noise handshake proves it again) and where to dial it.
public struct DiscoveredPeer: Sendable, Equatable {
    /// The peer's Ed25519 identity key.
    public var key: PublicKey
    /// The IPv4 source address of the beacon, as text (`10.77.0.2`).
    public var host: String
    /// The TCP port the peer listens on for sync, from the beacon.
    public var tcpPort: Int
    /// The display name the peer announced (at most 64 UTF-8 bytes; unverified text).
    public var name: String

    /// Creates a peer record.
    public init(key: PublicKey, host: String, tcpPort: Int, name: String) {
        self.key = key
        self.host = host
        self.tcpPort = tcpPort
        self.name = name
    }
}
