import PlacesCrypto
import PlacesModel

/// A local commit handed to the replicator, with what pushing it needs, read by the daemon
/// when it commits: the replicator then never waits on the daemon (which may be busy with a
/// long request) before the ops leave.
public struct LocalCommit: Sendable {
    /// The ops of the commit, in log order.
    public var ops: [SignedOp]
    /// Their document.
    public var doc: DocumentID
    /// The document's participants other than this daemon's identity (empty for a
    /// document that is not shared).
    public var recipients: [PublicKey]
    /// This daemon's version vector of the document before the commit.
    public var before: VersionVector?

    public init(ops: [SignedOp], doc: DocumentID, recipients: [PublicKey], before: VersionVector?) {
        self.ops = ops
        self.doc = doc
        self.recipients = recipients
        self.before = before
    }
}
