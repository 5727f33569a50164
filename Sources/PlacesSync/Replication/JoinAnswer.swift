import PlacesModel

/// A holder's answer to a presented share link (`Protocol/sync.md` §8.2), decided by the
/// host; the replicator puts it on the wire.
public enum JoinAnswer: Sendable, Equatable {
    /// The link does not let the peer in: a `JoinRefused` with the holder's proof.
    case refused(JoinRefusal)
    /// The peer is let in: an offer of `doc` whose grants are `grants` (every epoch key held,
    /// sealed to the peer), naming `role` and carrying the holder's proof.
    case admitted(doc: DocumentID, grants: [ReplicaGrant], role: String, proof: [UInt8])
}

/// A refusal of a share link (`JoinRefused` on the wire).
public struct JoinRefusal: Sendable, Equatable {
    public var doc: DocumentID
    public var tokenID: [UInt8]
    /// An `AccessError` code.
    public var code: String
    /// Why, for the joiner's user (at most 500 characters are kept from a peer).
    public var reason: String
    public var proof: [UInt8]

    public init(doc: DocumentID, tokenID: [UInt8], code: String, reason: String, proof: [UInt8]) {
        self.doc = doc
        self.tokenID = tokenID
        self.code = code
        self.reason = reason
        self.proof = proof
    }
}
