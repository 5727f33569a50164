import PlacesAccess
import PlacesCrypto
import PlacesModel

/// What the `Replicator` needs from the daemon, in domain types (no wire type crosses it):
/// the store's documents, vectors, ops and grants, and the decisions that are the daemon's —
/// who is known, consent to a share, admission through a share link. The daemon's engine
/// implements it by adapting its store and keyring.
///
/// Every method is called from the replicator's actor; an implementation is an actor (or
/// otherwise safe to call concurrently). The replicator holds it weakly.
public protocol ReplicationHost: AnyObject, Sendable {
    // MARK: Identity and peers

    /// The unlocked identity, or nil while logged out (then nothing syncs).
    func replicaIdentity() async -> SigningKeyPair?
    /// The local profile name, nil when there is none.
    func profileName() async -> String?
    /// Whether `peer` is someone this daemon deals with: a contact, a participant of a
    /// document held, or a peer in a join in progress. Strangers are closed after a grace.
    func knows(_ peer: PublicKey) async -> Bool
    /// Whether `peer` learns the profile name in `Hello` (never a relay, `Protocol/relay.md` §7).
    func tellsName(to peer: PublicKey) async -> Bool
    /// A session with `peer` opened; `name` is from its Hello (at most 100 characters),
    /// `address` where it listens (`host:port`, or the address alone).
    func peerConnected(_ peer: PublicKey, name: String, address: String) async
    /// A session with `peer` closed; `lastSession` when no other one is open.
    func peerDisconnected(_ peer: PublicKey, lastSession: Bool) async

    // MARK: Devices (Protocol/devices.md)

    /// What this daemon's `Hello` says of its device: its certificate (empty for a root
    /// device) and the revocations of its person's devices it knows.
    func deviceCredentials() async -> (certificate: [UInt8], revocations: [[UInt8]])
    /// What a new session's `Hello` and handshake say of the peer's device, before
    /// `peerConnected`.
    func peerDevice(_ peer: PublicKey, _ device: PeerDevice) async
    /// A pairing message from `peer`; returns the answers to send it.
    func pairing(_ message: PairingMessage, from peer: PublicKey) async -> [PairingMessage]
    /// A relay message from `peer` (`Protocol/relay.md` §3); returns the answers to send it.
    func relay(_ message: RelayMessage, from peer: PublicKey) async -> [RelayMessage]
    /// A signed access list (`Protocol/relay.md` §4.1, at most `RelayAccess.maxSize` bytes,
    /// not yet decoded) that `peer` offered with a document it named as `kind`.
    func receiveRelayAccess(_ record: [UInt8], kind: ReplicaDocument.Kind, from peer: PublicKey) async

    // MARK: Documents

    /// Shared documents both this daemon and `peer` participate in.
    func sharedDocumentIDs(with peer: PublicKey) async -> [DocumentID]
    /// What the session's opening summary covers (`Protocol/sync.md` §7, "The opening
    /// summary"): an entry for each of `sharedDocumentIDs(with:)` whose offers may be left
    /// out when the peer holds the same; the others are offered at once. Nil summarizes
    /// nothing: every shared document is offered.
    func openingSummary(with peer: PublicKey) async -> [OpeningSummary.Entry]?
    /// A document held, or nil.
    func document(_ doc: DocumentID) async -> ReplicaDocument?
    /// The owner and current members of a document.
    func participants(in doc: DocumentID) async -> Set<PublicKey>
    /// Whether `peer` was let in to fetch `doc` through a share link (by this daemon as a
    /// holder, or as the holder that admitted this daemon) before its membership arrived.
    func isAdmitting(_ peer: PublicKey, to doc: DocumentID) async -> Bool
    /// The document's version vector, nil when it cannot be read.
    func versionVector(of doc: DocumentID) async -> VersionVector?
    /// What an offer of `doc` to `peer` carries; `describe` asks for what an invitation
    /// shows. Nil when the document cannot be read.
    func offerContent(of doc: DocumentID, to peer: PublicKey, describe: Bool) async -> OfferContent?
    /// The document's ops that `peer` (holding `missingFrom`) lacks, in causal (log) order,
    /// read from log position `after` on, up to about `maxBytes`. Nil on a read error.
    func ops(of doc: DocumentID, missingFrom: VersionVector, after: Int64, maxBytes: Int) async -> ReplicaRound?
    /// Which of `ids` (op ids a peer said it holds, `OpsHave`) are ops of `doc` held here;
    /// nil on a read error.
    func heldOps(_ ids: [[UInt8]], in doc: DocumentID) async -> Set<[UInt8]>?
    /// The ops of `doc` among `ids` held here (a peer's `OpsWant`), in causal (log) order, up
    /// to about `maxBytes`. Nil on a read error.
    func ops(withIDs ids: [[UInt8]], in doc: DocumentID, maxBytes: Int) async -> ReplicaRound?

    // MARK: Received data

    /// Signatures of the grants held for `doc` (a grant held is not verified again).
    func heldGrantSignatures(in doc: DocumentID) async -> Set<[UInt8]>
    /// Verifies and keeps `grants` (owner-signed, for documents held), opening one to this
    /// daemon; returns whether any was kept.
    func keepGrants(_ grants: [KeyGrant]) async -> Bool
    /// Verifies and stores signed ops of `doc` received from `peer`, then tells the user
    /// (events). Nil when nothing could be stored (a storage failure).
    func ingest(_ ops: [[UInt8]], into doc: DocumentID, from peer: PublicKey) async -> IngestOutcome?
    /// This daemon holds what `peer` last offered of `doc` (`offered`): a join through it
    /// completes if one is waiting.
    func caughtUp(with peer: PublicKey, on doc: DocumentID, offered: VersionVector) async

    // MARK: Consent and joining

    /// An offer of a document not held and not being joined: added with the user's consent
    /// (a contact's share) or kept as an invitation. Returns the document when now held.
    func receiveShare(_ offer: ReceivedOffer, from peer: PublicKey) async -> ReplicaDocument?
    /// Drops an itinerary held under `doc` when `doc` is provably `peer`'s document of `kind`
    /// (its outbox to this daemon, its card), planted there by someone else; returns whether
    /// it did (`Protocol/sync.md` §7.3).
    func releaseSquatted(_ doc: DocumentID, as kind: ReplicaDocument.Kind, from peer: PublicKey) async -> Bool
    /// An offer of a document this daemon is joining through a link, from a peer it asked:
    /// registers the document when the holder's proof checks out. Returns whether it is held.
    func admitJoin(_ offer: ReceivedOffer, from peer: PublicKey) async -> Bool
    /// Share links to present to `peer`, which just connected (once per peer and join).
    func joinPresentations(for peer: PublicKey) async -> [JoinPresentation]
    /// A holder's decision on a share link `peer` presented: nil for no answer at all.
    func answerJoin(_ presentation: JoinPresentation, from peer: PublicKey) async -> JoinAnswer?
    /// A refusal of this daemon's share link from `peer` (its proof still to check).
    func joinRefused(_ refusal: JoinRefusal, from peer: PublicKey) async

    // MARK: Published trips (`Protocol/sync.md` §7.5)

    /// A like (or unlike) `peer` signed of a published trip, its sizes checked: the host keeps
    /// it when the trip is its own and `peer` may see it, and the signature holds.
    func receiveLike(_ like: PublishedLike, from peer: PublicKey) async
    /// This identity's likes of `peer`'s published trips that `peer` may not have yet.
    func publishedLikes(for peer: PublicKey) async -> [PublishedLike]

    // MARK: Blobs (photos, `Protocol/sync.md` §7.4)

    /// Hashes of the blobs that documents owned by `peer` and shared with this daemon (`doc`
    /// alone when given) name and that are not held whole here: what to want from `peer`.
    /// With `entities` (and `doc`: the entities ops just stored change, `IngestOutcome`),
    /// only what those entities name. At most `limit`.
    func missingBlobs(from peer: PublicKey, in doc: DocumentID?, among entities: Set<EntityID>?, limit: Int) async
        -> [[UInt8]]
    /// The offset to ask for blob `hash` from (the length of its partial download, 0 when
    /// none); nil when it is held whole (nothing to ask).
    func blobResumeOffset(_ hash: [UInt8]) async -> UInt64?
    /// A peer's want (hash and offset within bounds): up to `maxBytes` of the blob, only when
    /// `peer` participates in a document held here whose live entities name the blob (a
    /// post in an outbox to it, a card it is in the audience of); `.missing` otherwise.
    func blobChunk(_ want: BlobTransfer.Request, for peer: PublicKey, maxBytes: Int) async -> BlobTransfer.Answer
    /// A chunk of a blob this daemon asked `peer` for, its numbers already checked against the
    /// want: appended to the partial download, the blob stored when it is whole and matches
    /// its hash.
    func storeBlobChunk(_ piece: BlobTransfer.Piece, from peer: PublicKey) async -> BlobTransfer.Progress
}

extension ReplicationHost {
    /// Drops every like: a host that publishes no trips has none to keep.
    public func receiveLike(_ like: PublishedLike, from peer: PublicKey) async {}

    /// No likes to send.
    public func publishedLikes(for peer: PublicKey) async -> [PublishedLike] { [] }

    /// Drops an itinerary held under `doc` when `doc` is provably `peer`'s document of `kind`
    /// (its outbox to this daemon, its card): returns whether it did. By default, never.
    public func releaseSquatted(_ doc: DocumentID, as kind: ReplicaDocument.Kind, from peer: PublicKey) async -> Bool {
        false
    }

    /// A root device with no pairing: no certificate, no revocations.
    public func deviceCredentials() async -> (certificate: [UInt8], revocations: [[UInt8]]) { ([], []) }

    /// Ignores what a peer says of its device.
    public func peerDevice(_ peer: PublicKey, _ device: PeerDevice) async {}

    /// Takes part in no pairing.
    public func pairing(_ message: PairingMessage, from peer: PublicKey) async -> [PairingMessage] { [] }

    /// Takes part in no relay exchange.
    public func relay(_ message: RelayMessage, from peer: PublicKey) async -> [RelayMessage] { [] }

    /// Tells its name to those it knows.
    public func tellsName(to peer: PublicKey) async -> Bool { await knows(peer) }

    /// Keeps no access list.
    public func receiveRelayAccess(_ record: [UInt8], kind: ReplicaDocument.Kind, from peer: PublicKey) async {}

    /// Summarizes nothing: every shared document is offered when a session opens.
    public func openingSummary(with peer: PublicKey) async -> [OpeningSummary.Entry]? { nil }
}
