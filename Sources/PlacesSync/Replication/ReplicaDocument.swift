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
        /// An outbox: one author's posts to one reader and the reactions on them, sent only by
        /// its author to its reader, to peers whose `Hello.features` has `outbox/1`, never
        /// relayed (`Protocol/sync.md` §7.3).
        case outbox
        /// A published trip: a read-only copy of an itinerary and the likes on it, sent only
        /// by its author to its audience (friends, a group, or any peer on the network), to
        /// peers whose `Hello.features` has `published/1`, never relayed (`Protocol/sync.md` §7.5).
        case published
        /// A person's library (places, favorites, groups, device list) and profile: offered only
        /// between devices of that person (`Protocol/devices.md` §4.3), to peers whose
        /// `Hello.features` has `device/1`.
        case library
        case profile

        /// The `Hello` feature a peer must have sent to be offered a document of this kind
        /// (an older daemon would take it for an itinerary); nil for itineraries.
        public var feature: String? {
            switch self {
            case .itinerary: nil
            case .card: "card/1"
            case .outbox: "outbox/1"
            case .published: PublishedLike.feature
            case .library, .profile: "device/1"
            }
        }

        /// Whether documents of this kind go only from their owner (or its devices) to their
        /// audience, never relayed (cards, outboxes, published trips, libraries and profiles).
        public var isDirect: Bool { self != .itinerary }
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
