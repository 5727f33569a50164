import PlacesModel
import PlacesStore

/// The trip folders last read (`TripSnapshot`), kept current op by op: the ops stored for a
/// kept itinerary (a local write, a peer's ops) wait in its entry, and the next read opens
/// them and reads again only the entities they name (`TripSnapshot.apply`), so that a write
/// costs the same in a trip of 10 items and one of 1,000.
///
/// An itinerary is read anew (lending its unchanged entities' views) when that is not known
/// to be enough: documents changed outside ops, membership or device changes (they can
/// exclude ops already materialized), an op that does not extend its author's chain by one
/// or an itinerary where someone equivocated (the store then re-materializes the whole
/// document), an op this identity cannot open, or too many ops waiting.
struct TripSnapshots {
    /// How many itineraries' snapshots are kept (a 500-item trip's is ~1 MB).
    let capacity: Int

    struct Entry {
        var doc: DocumentID
        var snapshot: TripSnapshot
        /// The ops stored since the snapshot was read.
        var since: OpsSinceRead
    }

    private var entries: [Entry] = []
    /// How many reads took their ops one by one, and how many read an itinerary anew (tests
    /// show both paths run).
    private(set) var appliedInPlace = 0
    private(set) var readAnew = 0

    init(capacity: Int = 8) { self.capacity = capacity }

    /// The current snapshot of `doc`.
    mutating func snapshot(of doc: DocumentID, store: Store, keyring: Keyring) throws(ServiceError) -> TripSnapshot {
        guard let index = entries.firstIndex(where: { $0.doc == doc }) else {
            return try read(doc, store: store, previous: nil)
        }
        if entries[index].since.isEmpty { return entries[index].snapshot }
        // Taken out while it changes, so that the entry holds the only reference.
        var entry = entries.remove(at: index)
        if let bodies = entry.since.take(keyring: keyring) {
            let touched = Self.touched(by: bodies)
            let records = try ServiceError.storing { () throws(StoreError) in
                try store.entities(in: doc, ids: touched)
            }
            // Another holder (a request still reading it) keeps the old state: change a copy.
            if !isKnownUniquelyReferenced(&entry.snapshot) { entry.snapshot = entry.snapshot.copy() }
            guard entry.snapshot.apply(records) else {
                throw ServiceError.notFound("no itinerary with id '\(doc.hex)'")
            }
            appliedInPlace += 1
            entries.append(entry)
            return entry.snapshot
        }
        return try read(doc, store: store, previous: entry.snapshot)
    }

    /// Reads `doc` anew, lending `previous`'s views of unchanged entities.
    private mutating func read(_ doc: DocumentID, store: Store, previous: TripSnapshot?) throws(ServiceError)
        -> TripSnapshot
    {
        // Read before the entities: an op stored in between would be applied again, harmlessly.
        let (heads, equivocated) = try ServiceError.storing { () throws(StoreError) in
            try store.chainHeads(of: doc)
        }
        let snapshot = try TripSnapshot(doc: doc, store: store, previous: previous)
        readAnew += 1
        entries.removeAll { $0.doc == doc }
        entries.append(Entry(doc: doc, snapshot: snapshot, since: OpsSinceRead(heads: heads, equivocated: equivocated)))
        if entries.count > capacity { entries.removeFirst() }
        return snapshot
    }

    /// The entities `bodies` name, in the order first named.
    static func touched(by bodies: [OpBody]) -> [EntityID] {
        var ids = [EntityID](), seen = Set<EntityID>()
        for change in bodies.lazy.flatMap(\.changes) where seen.insert(change.entity).inserted {
            ids.append(change.entity)
        }
        return ids
    }

    /// Ops were stored: those of kept itineraries wait for the next read.
    mutating func didStore(_ change: StoreChange) {
        for i in entries.indices { entries[i].since.didStore(change, doc: entries[i].doc) }
    }

    /// Every itinerary is read anew at its next read (its views still lent).
    mutating func readAllAnew() {
        for i in entries.indices { entries[i].since.readAnew() }
    }
}
