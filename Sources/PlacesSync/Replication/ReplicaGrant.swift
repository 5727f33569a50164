import PlacesModel

/// A document key for one epoch, sealed to one member and signed by the document's owner,
/// as it travels in offers (`Protocol/sync.md` §7, "Offers"). Replication only carries
/// grants; checking a signature, keeping and opening a grant is the host's.
public struct ReplicaGrant: Sendable, Hashable {
    public var doc: DocumentID
    public var epoch: UInt32
    /// The member's Ed25519 key (32 bytes from an honest peer; anything from another).
    public var member: [UInt8]
    public var sealedKey: [UInt8]
    /// The owner's Ed25519 key, who signed it.
    public var issuer: [UInt8]
    public var signature: [UInt8]

    public init(
        doc: DocumentID, epoch: UInt32, member: [UInt8], sealedKey: [UInt8], issuer: [UInt8], signature: [UInt8]
    ) {
        self.doc = doc
        self.epoch = epoch
        self.member = member
        self.sealedKey = sealedKey
        self.issuer = issuer
        self.signature = signature
    }
}
