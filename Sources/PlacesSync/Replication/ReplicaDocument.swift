import PlacesModel

/// A document this daemon holds, as replication sees it: its id, its owner, and whether its
/// ops travel to peers (only itineraries are shared; profiles and libraries stay local).
public struct ReplicaDocument: Sendable, Equatable {
    /// What a document is, as offers name it (`DocOffer.kind`, `Protocol/sync.md` §7
    /// "Document kinds").
    public enum Kind: String, Sendable, Equatable {
        case itinerary
        /// A contact card: its owner's profile and shared favorites, sent only by its owner to
        /// peers whose `Hello.features` has `card/1`, never relayed.
        case card
    }

    public var id: DocumentID
    /// The owner's Ed25519 key.
    public var owner: [UInt8]
    /// Whether the document is shared with peers (an itinerary).
    public var isShared: Bool
    public var kind: Kind

    public init(id: DocumentID, owner: [UInt8], isShared: Bool, kind: Kind = .itinerary) {
        self.id = id
        self.owner = owner
        self.isShared = isShared
        self.kind = kind
    }
}
