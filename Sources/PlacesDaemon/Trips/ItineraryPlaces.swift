import PlacesAPI
import PlacesModel
import PlacesStore

/// The `places` array of the itineraries answered last (`GET`/`PATCH /v1/itineraries/{id}`),
/// encoded, kept while the ops stored since change no place to go: an edit of a trip's
/// name or notes, a view, an item or an expense then answers with the places written
/// before instead of reading and writing every stop again (a 100,000-stop trip: about
/// 200 ms of CPU per answer, which a friend's daemon on the same machine waited behind).
///
/// Kept current the way `TripSnapshots` is: the ops stored for a kept itinerary wait in its
/// entry, and the next answer opens them. The places are written anew when that is not
/// known to be enough: an op that writes a `stop` (or a member, link or device, which can
/// exclude ops already materialized), one that does not extend its author's chain by one,
/// an itinerary where someone equivocated (the store re-materializes it), an op this
/// identity cannot open, documents changed outside ops, or too many ops waiting.
struct ItineraryPlaces {
    /// How many itineraries' places are kept (a 100,000-stop trip's are about 12 MB).
    static let capacity = 2
    /// Ops waiting in one entry; past this many the places are written anew.
    static let maxPendingOps = 256

    private struct Entry {
        var doc: DocumentID
        var json: [UInt8]
        /// Ops stored since the places were read, in order; nil when they must be read anew.
        var pending: [SignedOp]?
        /// Each author's last seq accounted for (the store's, when the places were read).
        var heads: VersionVector
        var equivocated: Bool
    }

    private var entries: [Entry] = []
    /// How many answers reused their places, and how many wrote them anew (tests show both).
    private(set) var reused = 0
    private(set) var readAnew = 0

    /// The `places` array of `doc`'s answer.
    mutating func json(of doc: DocumentID, store: Store, keyring: Keyring) throws(ServiceError) -> [UInt8] {
        if let index = entries.firstIndex(where: { $0.doc == doc }) {
            var entry = entries.remove(at: index)
            if let pending = entry.pending, !entry.equivocated,
                Self.leavesPlaces(pending, heads: &entry.heads, keyring: keyring)
            {
                entry.pending = []
                reused += 1
                entries.append(entry)
                return entry.json
            }
        }
        // Read before the stops: an op stored in between would be looked at again, harmlessly.
        let (heads, equivocated) = try ServiceError.storing { () throws(StoreError) in try store.chainHeads(of: doc) }
        let stops = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .stop) }
        let json = Itinerary.placesJSON(stops.enumerated().map { Views.stop($1, position: $0 + 1) })
        readAnew += 1
        entries.removeAll { $0.doc == doc }
        entries.append(Entry(doc: doc, json: json, pending: [], heads: heads, equivocated: equivocated))
        if entries.count > Self.capacity { entries.removeFirst() }
        return json
    }

    /// Whether `ops` leave the places as they were: each extends its author's chain by one,
    /// opens with `keyring` and writes no stop, member, link or device.
    static func leavesPlaces(_ ops: [SignedOp], heads: inout VersionVector, keyring: Keyring) -> Bool {
        for op in ops {
            let author = op.header.authorKey
            let last = heads[author]
            guard op.header.seq > last, op.header.seq - last == 1 else { return false }
            heads.include(author, op.header.seq)
            guard let body = try? Store.openBody(op, keyring: keyring) else { return false }
            for change in body.changes {
                switch change.kind {
                case .stop, .member, .link, .device: return false
                default: continue
                }
            }
        }
        return true
    }

    /// Ops were stored: those of kept itineraries wait for the next answer.
    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .ops(let ops, let membership):
            for i in entries.indices {
                let doc = entries[i].doc
                if membership.contains(doc) {
                    entries[i].pending = nil
                    continue
                }
                for op in ops where op.header.doc == doc {
                    entries[i].pending?.append(op)
                    if (entries[i].pending?.count ?? 0) > Self.maxPendingOps { entries[i].pending = nil }
                }
            }
        case .grant, .friendship: break
        case .documents: forget()
        }
    }

    mutating func forget() { entries = [] }
}
