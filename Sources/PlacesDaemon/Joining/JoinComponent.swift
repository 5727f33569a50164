import PlacesCrypto
import PlacesModel

/// Joining's state (`Protocol/sync.md` §8.2): the share links this daemon is redeeming, and
/// the peers a link let in to fetch a document here.
///
/// A component of the engine (docs/devices-design.md §1): it owns the pending joins and the
/// provisional peers; `Engine+Joining` holds the rules (presenting a token, answering one,
/// taking an admission), and other features ask it only the questions below.
struct JoinComponent: EngineComponent {
    /// Share links being redeemed here, by document.
    private var pending: [DocumentID: PendingJoin] = [:]
    /// Peers a share link let in to fetch a document, before their `join` op arrives.
    private var provisional: [DocumentID: Set<PublicKey>] = [:]

    // MARK: Joins this daemon makes

    /// The join of `doc`, whatever its state.
    func join(_ doc: DocumentID) -> PendingJoin? { pending[doc] }

    /// The join of `doc` still waiting for an outcome, if any.
    func openJoin(_ doc: DocumentID) -> PendingJoin? {
        guard let join = pending[doc], join.state.isOpen else { return nil }
        return join
    }

    /// The documents being joined, in a fixed order.
    var joiningDocuments: [DocumentID] { pending.keys.sorted { $0.hex < $1.hex } }

    /// Keeps `join` as the join of `doc` (a new one, or one that moved on).
    mutating func keep(_ join: PendingJoin, for doc: DocumentID) { pending[doc] = join }

    /// The join of `doc` is over.
    mutating func end(_ doc: DocumentID) { pending[doc] = nil }

    /// Notes a link address the join of `doc` dialled, to forget when it ends; false (nothing
    /// noted) when the join has ended meanwhile.
    mutating func dialled(_ doc: DocumentID, host: String, port: Int) -> Bool {
        guard pending[doc]?.state.isOpen == true else { return false }
        pending[doc]?.dialled.append((host, port))
        return true
    }

    // MARK: Peers let in here

    /// A link let `peer` in to fetch `doc` before its `join` op arrives.
    mutating func admitProvisionally(_ peer: PublicKey, to doc: DocumentID) {
        provisional[doc, default: []].insert(peer)
    }

    /// Whether `peer` may fetch `doc` because of a link: this daemon let it in, or it let
    /// this daemon in.
    func isAdmitting(_ peer: PublicKey, to doc: DocumentID) -> Bool {
        provisional[doc]?.contains(peer) == true || pending[doc]?.admittedBy == peer
    }

    /// Whether a link involves `peer` now: let in here, or asked by a join still waiting.
    func involves(_ peer: PublicKey) -> Bool {
        if provisional.values.contains(where: { $0.contains(peer) }) { return true }
        return pending.values.contains(where: { $0.asked.contains(peer) && $0.outcome == nil })
    }

    /// The peer's last session closed: it is let in nowhere any more, and a join still
    /// waiting presents its token to it again at its next session (a request sent on a
    /// session that closed before the answer came would otherwise leave the join waiting on
    /// a peer that never saw it).
    mutating func peerDisconnected(_ peer: PublicKey) {
        for doc in pending.keys where pending[doc]?.state.isOpen == true { pending[doc]?.asked.remove(peer) }
        for doc in provisional.keys {
            provisional[doc]?.remove(peer)
            if provisional[doc]?.isEmpty == true { provisional[doc] = nil }
        }
    }
}
