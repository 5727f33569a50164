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
    /// How the member joined: `key` (added by id) or `link` (then `link` is the link id).
    public var via: String?
    public var link: String?

    public init(id: String, name: String?, role: String, via: String? = nil, link: String? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.via = via
        self.link = link
    }
}

/// `POST /v1/itineraries/{id}/links`: make a share link.
public struct LinkRequest: Codable, Sendable {
    /// `viewer` or `editor` (editor links: owner only).
    public var role: String
    /// When the link stops working: a duration (`30m`, `12h`, `7d`, `2w`) from now, a date
    /// (`2027-05-01`, end of that day UTC) or an RFC 3339 time. Never when absent.
    public var expires: String?
    /// How many joins the link allows (1…1,000,000). Unlimited when absent.
    public var uses: Int?
    /// Only this id (human form) may join with it.
    public var audience: String?

    public init(role: String, expires: String? = nil, uses: Int? = nil, audience: String? = nil) {
        self.role = role
        self.expires = expires
        self.uses = uses
        self.audience = audience
    }
}

/// A share link of an itinerary, as listed in `members` (without its secret text) or as
/// just made (with `url`).
public struct ShareLinkInfo: Codable, Sendable, Equatable {
    /// The link id (token id hex): what `unshare --link` takes.
    public var id: String
    public var role: String
    /// Human id of who made it.
    public var issuer: String
    public var createdAt: String?
    public var expiresAt: String?
    public var uses: Int?
    /// Members who joined through it and are still members.
    public var members: Int
    /// `live`, `expired`, `used-up` or `revoked`.
    public var state: String
    public var audience: String?
    /// `places://join/…`: only in the answer to the request that made it.
    public var url: String?

    public init(
        id: String, role: String, issuer: String, createdAt: String?, expiresAt: String?, uses: Int?, members: Int,
        state: String, audience: String?, url: String?
    ) {
        self.id = id
        self.role = role
        self.issuer = issuer
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.uses = uses
        self.members = members
        self.state = state
        self.audience = audience
        self.url = url
    }
}

/// `POST /v1/join`: redeem a share link.
public struct JoinRequest: Codable, Sendable {
    /// The whole link, `places://join/<doc>#<token>`.
    public var link: String
    /// How long to look for a member that can let this daemon in (1…120 s; default 15).
    public var waitSeconds: Int?

    public init(link: String, waitSeconds: Int? = nil) {
        self.link = link
        self.waitSeconds = waitSeconds
    }
}

/// `GET /v1/itineraries/{id}/members`.
public struct MemberList: Codable, Sendable {
    public var members: [Member]
    public var count: Int
    /// The itinerary's share links (all states; `state` says which still work).
    public var links: [ShareLinkInfo]

    public init(members: [Member], count: Int, links: [ShareLinkInfo] = []) {
        self.members = members
        self.count = count
        self.links = links
    }
}

/// How far one shared itinerary is in sync with a peer.
public struct PeerDocument: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// `in-sync`, `syncing`, or `unknown` (no offer or agreeing summary from the peer yet).
    public var state: String
    /// Ops this daemon holds that the peer lacks, and the reverse (from the peer's last offer
    /// or summary, and the ops sent to it since).
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
    /// `direct` or `relay`: how it is reached now (absent: not reached, or a relay).
    public var via: String?
    /// True for a relay.
    public var relay: Bool?
    /// While connected: ops sent the peer on its open sessions, and of them those the same
    /// session had carried before, either way (sent before, or received from the peer).
    public var opsSent: Int?
    public var opsSentAgain: Int?

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

/// A share waiting for the user's answer (`GET /v1/invitations`): an itinerary shared by
/// someone who is not a contact yet. `name` and `role` are what the sharer said; the
/// itinerary's real name and the role come with its ops once accepted.
public struct Invitation: Codable, Sendable, Equatable {
    /// The invitation's id: the itinerary's document id (32 hex characters).
    public var id: String
    /// `itinerary` (friend requests come later with `friend`).
    public var kind: String
    /// The public id of the person sharing (the itinerary's owner).
    public var from: String
    public var fromName: String?
    /// The public id of the daemon that passed it on (the owner's or another member's).
    public var via: String
    public var name: String?
    public var role: String?
    public var receivedAt: String
    /// `pending`, `accepted` or `declined` (the last two only in answers to accept/decline).
    public var status: String

    public init(
        id: String, kind: String, from: String, fromName: String?, via: String, name: String?, role: String?,
        receivedAt: String, status: String
    ) {
        self.id = id
        self.kind = kind
        self.from = from
        self.fromName = fromName
        self.via = via
        self.name = name
        self.role = role
        self.receivedAt = receivedAt
        self.status = status
    }
}

/// `GET /v1/invitations`.
public struct InvitationList: Codable, Sendable {
    public var invitations: [Invitation]
    public var count: Int
    public init(invitations: [Invitation]) {
        self.invitations = invitations
        self.count = invitations.count
    }
}

/// A person whose shares arrive directly (`GET /v1/contacts`).
public struct Contact: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var addedAt: String
    /// From their contact card, when this daemon holds it.
    public var username: String?
    public var bio: String?
    /// How many favorites they share with you (0 without a card).
    public var sharedFavorites: Int

    public init(
        id: String, name: String?, addedAt: String, username: String? = nil, bio: String? = nil,
        sharedFavorites: Int = 0
    ) {
        self.id = id
        self.name = name
        self.addedAt = addedAt
        self.username = username
        self.bio = bio
        self.sharedFavorites = sharedFavorites
    }

    private enum CodingKeys: String, CodingKey { case id, name, addedAt, username, bio, sharedFavorites }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        addedAt = try c.decode(String.self, forKey: .addedAt)
        username = try c.decodeIfPresent(String.self, forKey: .username)
        bio = try c.decodeIfPresent(String.self, forKey: .bio)
        sharedFavorites = try c.decodeIfPresent(Int.self, forKey: .sharedFavorites) ?? 0
    }
}

/// `GET /v1/contacts`.
public struct ContactList: Codable, Sendable {
    public var contacts: [Contact]
    public var count: Int
    public init(contacts: [Contact]) {
        self.contacts = contacts
        self.count = contacts.count
    }
}

/// `POST /v1/contacts` body: a public id (human form, as `places whoami` prints it).
public struct AddContactRequest: Codable, Sendable {
    public var id: String
    public var name: String?
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}
