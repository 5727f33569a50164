import PlacesModel

/// A document this daemon holds, as replication sees it: its id, its owner, and whether its
/// ops travel to peers (only itineraries are shared; profiles and libraries stay local).
public struct ReplicaDocument: Sendable, Equatable {
    public var id: DocumentID
    /// The owner's Ed25519 key.
    public var owner: [UInt8]
    /// Whether the document is shared with peers (an itinerary).
    public var isShared: Bool

    public init(id: DocumentID, owner: [UInt8], isShared: Bool) {
        self.id = id
        self.owner = owner
        self.isShared = isShared
    }
}
