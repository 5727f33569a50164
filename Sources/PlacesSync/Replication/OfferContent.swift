import PlacesAccess
import PlacesModel

/// What the host reads for an offer of one document to one peer (`Protocol/sync.md` §7,
/// "Offers"). The replicator orders and bounds the grants and truncates the names.
public struct OfferContent: Sendable {
    public var owner: [UInt8]
    /// The document's version vector as this daemon holds it.
    public var vector: VersionVector
    /// The owner-signed grants held for the document, those of members removed (or gone) in
    /// this daemon's view left out, in the store's order.
    public var grants: [KeyGrant]
    /// What an invitation shows (asked only while the peer has not shown it holds the
    /// document): the local profile name, the document's name and the peer's active role.
    public var fromName: String?
    public var name: String?
    public var role: String?
    /// The document's kind (a card is offered only to peers that take cards).
    public var kind: ReplicaDocument.Kind = .itinerary
    /// A friend link's token the receiver issued, sent with the first offer of an outbox
    /// (`Protocol/sync.md` §7.3, `DocOffer.join_proof`): the request is accepted without a prompt.
    public var friendToken: [UInt8] = []
    /// A published trip's salt (`Protocol/sync.md` §7.5): its id is derived from it and the owner.
    public var salt: [UInt8] = []
    /// The newest signed access list held for the document (`Protocol/relay.md` §4.1),
    /// forwarded like a grant; empty when none.
    public var relayAccess: [UInt8] = []

    public init(
        owner: [UInt8], vector: VersionVector, grants: [KeyGrant], fromName: String? = nil, name: String? = nil,
        role: String? = nil
    ) {
        self.owner = owner
        self.vector = vector
        self.grants = grants
        self.fromName = fromName
        self.name = name
        self.role = role
    }
}
