import PlacesAccess
import PlacesModel

/// A holder's answer to a presented share link (`Protocol/sync.md` §8.2), decided by the
/// host; the replicator puts it on the wire.
public enum JoinAnswer: Sendable, Equatable {
    /// The link does not let the peer in: a `JoinRefused` with the holder's proof.
    case refused(JoinRefusal)
    /// The peer is let in: an offer of `doc` whose grants are `grants` (every epoch key held,
    /// sealed to the peer), naming `role` and carrying the holder's proof.
    case admitted(doc: DocumentID, grants: [KeyGrant], role: String, proof: [UInt8])
}
