import PlacesModel
import PlacesStore

/// What a view of one document kept between reads (a trip folder in `TripSnapshots`, an
/// itinerary's places in `ItineraryPlaces`) knows of the ops stored since it was read: they
/// wait here, and the next read opens them to decide whether the view still holds or what
/// to read again, instead of reading the whole document anew.
struct OpsSinceRead {
    /// Ops stored since the read, in order; nil when the document must be read anew.
    private(set) var pending: [SignedOp]? = []
    /// Each author's last seq accounted for (the store's at the read, then the ops taken).
    private(set) var heads: VersionVector
    /// Someone equivocated in the document: the store re-materializes all of it, so ops are
    /// never taken one by one.
    let equivocated: Bool

    /// Ops waiting past this many: the document is read anew.
    static let maxPending = 256

    /// After a read that saw `heads` (read before the document's rows: an op stored in between
    /// is looked at again, harmlessly).
    init(heads: VersionVector, equivocated: Bool) {
        self.heads = heads
        self.equivocated = equivocated
    }

    /// Nothing stored since the read.
    var isEmpty: Bool { pending?.isEmpty == true }

    /// Ops were stored: those of `doc` wait. Changes of membership (they can exclude ops
    /// already materialized) and documents changed outside ops mean a read anew.
    mutating func didStore(_ change: StoreChange, doc: DocumentID) {
        switch change {
        case .ops(let ops, let membership):
            if membership.contains(doc) { return readAnew() }
            for op in ops where op.header.doc == doc {
                pending?.append(op)
                if (pending?.count ?? 0) > Self.maxPending { return readAnew() }
            }
        case .grant, .friendship: break
        case .documents: readAnew()
        }
    }

    mutating func readAnew() { pending = nil }

    /// The bodies of the waiting ops, taken (the view is then current), when they can be
    /// applied one by one: each extends its author's chain by one, opens with `keyring` and
    /// changes no member, link or device. Nil otherwise: the document must be read anew.
    mutating func take(keyring: Keyring) -> [OpBody]? {
        guard let ops = pending, !equivocated else { return nil }
        var heads = self.heads
        var bodies = [OpBody]()
        for op in ops {
            let author = op.header.authorKey
            let last = heads[author]
            guard op.header.seq > last, op.header.seq - last == 1 else { return nil }
            heads.include(author, op.header.seq)
            guard let body = try? Store.openBody(op, keyring: keyring) else { return nil }
            for change in body.changes {
                switch change.kind {
                case .member, .link, .device: return nil
                default: continue
                }
            }
            bodies.append(body)
        }
        self.heads = heads
        pending = []
        return bodies
    }
}
