import PlacesCrypto
import PlacesModel

/// What the host did with a batch of ops received from a peer (`Protocol/sync.md` §7,
/// "Ops"), read in the same step as the ingest so that the replicator relays from a
/// consistent view.
public struct IngestOutcome: Sendable {
    /// Why the first refused op was refused, when that tells the replicator what to do.
    public enum Refusal: Sendable, Equatable {
        /// A dependency of the op is not held.
        case missingDependency
        /// The author's previous op is not held.
        case sequenceGap
        /// Any other reason (bad signature, bad body, …): nothing to pull.
        case other
    }

    /// The document's version vector before the batch.
    public var before: VersionVector?
    /// The ops stored, in order.
    public var stored: [SignedOp]
    /// The first op refused, if any.
    public var refusal: Refusal?
    /// Participants (owner and members) before and after the batch.
    public var participantsBefore: Set<PublicKey>
    public var participantsAfter: Set<PublicKey>
    /// The entities the stored ops change, when the host read their bodies (nil when it did
    /// not, a relay): the photos wanted after the batch are those these entities name
    /// (`ReplicationHost.missingBlobs`), not the whole document's again.
    public var entities: Set<EntityID>?

    public init(
        before: VersionVector?, stored: [SignedOp], refusal: Refusal?, participantsBefore: Set<PublicKey>,
        participantsAfter: Set<PublicKey>, entities: Set<EntityID>? = nil
    ) {
        self.before = before
        self.stored = stored
        self.refusal = refusal
        self.participantsBefore = participantsBefore
        self.participantsAfter = participantsAfter
        self.entities = entities
    }
}
