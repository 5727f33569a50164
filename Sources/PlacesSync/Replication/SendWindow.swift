import PlacesModel

/// What this daemon has sent one peer of one document in answer to its offers
/// (`Protocol/sync.md` §7, "Rounds"), so that a pull is answered with the round after
/// those still in flight instead of the same ops again.
///
/// The peer pulls after every batch it stores, with an offer of what it then holds; that
/// offer acknowledges the batches it covers. Up to `Replicator.maxInFlightBytes` stay
/// unacknowledged, so the next round travels while the peer ingests the current one.
struct SendWindow: Sendable {
    /// What the peer holds or has been sent.
    var frontier: VersionVector
    /// The log position (`Store.OutgoingOps.readThrough`) up to which the document's ops
    /// were read for this window: every op at or before it is in `frontier`. Rounds go on
    /// from there, so a long history is read once rather than once per round. Ops stored
    /// later (local commits, relayed ops) come after it in the log.
    var readThrough: Int64 = 0
    /// Batches sent and not yet acknowledged, oldest first: the peer's vector once it holds
    /// the batch, and the batch's bytes.
    var inFlight: [(through: VersionVector, bytes: Int)] = []
    /// What the peer held at the last acknowledgement (or when the window opened).
    private var acknowledged: VersionVector

    init(frontier: VersionVector) {
        self.frontier = frontier
        self.acknowledged = frontier
    }

    var inFlightBytes: Int { inFlight.reduce(0) { $0 + $1.bytes } }

    /// Takes in an offer of the peer. Returns false when the offer shows the peer holding
    /// more than at the last acknowledgement but not the whole of the next batch (it stored
    /// part of a batch: it refused an op), or an empty vector after holding something (it
    /// asks for the whole log, `Protocol/sync.md` §7 "Equivocation"): what it was sent is no
    /// longer a guide. An older offer otherwise keeps the window (with two sessions, offers
    /// can arrive out of order).
    mutating func acknowledge(_ theirs: VersionVector) -> Bool {
        if theirs.seqs.isEmpty, !acknowledged.seqs.isEmpty { return false }
        frontier.merge(theirs)
        var count = 0
        while count < inFlight.count, theirs.includes(inFlight[count].through) { count += 1 }
        if count > 0 {
            acknowledged = inFlight[count - 1].through
            inFlight.removeFirst(count)
        }
        // Nothing in flight: what the peer holds is all the window knows. Ops pushed past it
        // that it does not hold were refused (a push that overtook a round on the peer's
        // other session) or are still on their way: the next round sends them (again; a
        // receiver skips ops it holds by id).
        if inFlight.isEmpty, frontier != theirs {
            frontier = theirs
            readThrough = 0
        }
        return count > 0 || inFlight.isEmpty || acknowledged.includes(theirs)
    }
}
