/// `POST /v1/itineraries/{id}/share` body: add a member by public id.
public struct ShareRequest: Codable, Sendable {
    /// The member's public id (human form with check characters, or 64 hex).
    public var member: String
    /// `editor` or `viewer`.
    public var role: String

    public init(member: String, role: String) {
        self.member = member
        self.role = role
    }
}

/// A member of an itinerary.
public struct Member: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    /// `owner`, `editor` or `viewer`.
    public var role: String

    public init(id: String, name: String?, role: String) {
        self.id = id
        self.name = name
        self.role = role
    }
}

/// `GET /v1/itineraries/{id}/members`.
public struct MemberList: Codable, Sendable {
    public var members: [Member]
    public var count: Int

    public init(members: [Member], count: Int) {
        self.members = members
        self.count = count
    }
}

/// How far one shared itinerary is in sync with a peer.
public struct PeerDocument: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// `in-sync`, `syncing`, or `unknown` (no offer from the peer yet).
    public var state: String
    /// Ops this daemon holds that the peer lacks, and the reverse (from the peer's last offer).
    public var theyLack: Int?
    public var weLack: Int?

    public init(id: String, name: String, state: String, theyLack: Int?, weLack: Int?) {
        self.id = id
        self.name = name
        self.state = state
        self.theyLack = theyLack
        self.weLack = weLack
    }
}

/// A known peer daemon.
public struct Peer: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var addresses: [String]
    public var connected: Bool
    /// When it was last connected (absent while connected).
    public var lastSeen: String?
    /// Itineraries shared with it.
    public var documents: [PeerDocument]

    public init(
        id: String, name: String, addresses: [String], connected: Bool, lastSeen: String?, documents: [PeerDocument]
    ) {
        self.id = id
        self.name = name
        self.addresses = addresses
        self.connected = connected
        self.lastSeen = lastSeen
        self.documents = documents
    }
}

/// `GET /v1/peers`.
public struct PeerList: Codable, Sendable {
    public var peers: [Peer]
    public var count: Int
    /// Addresses added with `places peers add`.
    public var staticPeers: [String]

    public init(peers: [Peer], count: Int, staticPeers: [String]) {
        self.peers = peers
        self.count = count
        self.staticPeers = staticPeers
    }
}

/// `POST /v1/peers` body.
public struct AddPeerRequest: Codable, Sendable {
    /// `HOST:PORT`.
    public var address: String
    public init(address: String) { self.address = address }
}
