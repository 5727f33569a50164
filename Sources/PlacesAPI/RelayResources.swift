/// `POST /v1/relay/invitations` on a relay: a single-use relay link.
public struct RelayInvitation: Codable, Sendable, Equatable {
    /// `places://relay/…`: give it to one person, who runs `places relay add LINK`.
    public var link: String
    public var expiresAt: String

    public init(link: String, expiresAt: String) {
        self.link = link
        self.expiresAt = expiresAt
    }
}

/// `GET /v1/relay` on a relay: what it keeps.
public struct RelaySummary: Codable, Sendable, Equatable {
    public var users: Int
    /// Documents kept, and the bytes of their ops and records.
    public var documents: Int
    public var bytes: Int64
    /// The sum of the users' quotas.
    public var quotaBytes: Int64

    public init(users: Int, documents: Int, bytes: Int64, quotaBytes: Int64) {
        self.users = users
        self.documents = documents
        self.bytes = bytes
        self.quotaBytes = quotaBytes
    }
}

/// `POST /v1/relays` body on a person's daemon.
public struct RelayAddRequest: Codable, Sendable {
    public var link: String
    /// How long to wait for the relay's answer, 1–120 s (default 15).
    public var waitSeconds: Int?

    public init(link: String, waitSeconds: Int? = nil) {
        self.link = link
        self.waitSeconds = waitSeconds
    }
}

/// A relay a person's daemon uses (`POST /v1/relays`, `GET /v1/relays`).
public struct RelayInfo: Codable, Sendable, Equatable {
    /// The relay's key as a human id.
    public var id: String
    public var address: String
    /// `connected` or `offline`.
    public var state: String
    /// `owner` or `user`: what the relay made this person.
    public var role: String?
    /// When a session with the relay last ended or synced; null before the first.
    public var lastSync: String?
    /// What the relay holds of this person's.
    public var documents: Int
    public var bytes: Int64
    public var quotaBytes: Int64

    public init(
        id: String, address: String, state: String, role: String? = nil, lastSync: String? = nil,
        documents: Int = 0, bytes: Int64 = 0, quotaBytes: Int64 = 0
    ) {
        self.id = id
        self.address = address
        self.state = state
        self.role = role
        self.lastSync = lastSync
        self.documents = documents
        self.bytes = bytes
        self.quotaBytes = quotaBytes
    }

    enum CodingKeys: String, CodingKey { case id, address, state, role, lastSync, documents, bytes, quotaBytes }

    /// Every field of the contract is present: `lastSync` is null before the first sync.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(address, forKey: .address)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(role, forKey: .role)
        try c.encode(lastSync, forKey: .lastSync)
        try c.encode(documents, forKey: .documents)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(quotaBytes, forKey: .quotaBytes)
    }
}

/// `GET /v1/relays`.
public struct RelayList: Codable, Sendable, Equatable {
    public var relays: [RelayInfo]

    public init(relays: [RelayInfo]) { self.relays = relays }
}
