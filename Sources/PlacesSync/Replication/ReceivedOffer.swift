import PlacesAccess
import PlacesModel

/// An offer of a document this daemon does not hold, decoded and bounded by the replicator,
/// for the host's consent and joining decisions (`Protocol/sync.md` §7.1, §8.2).
public struct ReceivedOffer: Sendable {
    public var doc: DocumentID
    /// The owner the offer names (32 bytes: checked before the host sees it).
    public var owner: [UInt8]
    /// The offer's grants among its first `Replicator.maxGrantsPerOffer` entries that decode,
    /// in order, not verified.
    public var grants: [KeyGrant]
    /// The document's name (at most 200 characters, "" when not given).
    public var name: String
    /// The sender's profile name (at most 100 characters, "" when not given).
    public var fromName: String
    /// The role the offer says the receiver has (unchecked).
    public var role: String
    /// A holder's proof for a share link's redemption (empty when none).
    public var joinProof: [UInt8]
    /// The kind the offer names (an unknown kind never reaches the host).
    public var kind: ReplicaDocument.Kind = .itinerary
    /// A published trip's salt (at most 16 bytes are passed on; checked by the host).
    public var salt: [UInt8] = []

    public init(
        doc: DocumentID, owner: [UInt8], grants: [KeyGrant], name: String = "", fromName: String = "",
        role: String = "", joinProof: [UInt8] = [], kind: ReplicaDocument.Kind = .itinerary
    ) {
        self.kind = kind
        self.doc = doc
        self.owner = owner
        self.grants = grants
        self.name = name
        self.fromName = fromName
        self.role = role
        self.joinProof = joinProof
    }
}
