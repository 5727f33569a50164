import PlacesModel
import PlacesStore

/// The last few snapshots of one kind (an expense ledger's; trip folders are kept op by op,
/// `TripSnapshots`), each with the commit generation it was read at: current while the
/// generation has not moved.
struct SnapshotCache<Snapshot> {
    /// How many itineraries' snapshots are kept (a 500-item trip's is ~1 MB).
    let capacity: Int

    private var entries: [(doc: DocumentID, generation: UInt64, snapshot: Snapshot)] = []

    init(capacity: Int = 8) { self.capacity = capacity }

    /// The snapshot of `doc`, made again by `make` (given the last one of `doc`, to reuse
    /// what did not change) when the store has changed since it was made.
    mutating func snapshot(
        of doc: DocumentID, store: Store, make: (Snapshot?) throws(ServiceError) -> Snapshot
    ) throws(ServiceError) -> Snapshot {
        let generation = store.generations.current
        if let hit = entries.first(where: { $0.doc == doc && $0.generation == generation }) { return hit.snapshot }
        let previous = entries.last { $0.doc == doc }?.snapshot
        let snapshot = try make(previous)
        // Older snapshots of other itineraries stay: stale, they still lend their unchanged
        // entities' views to the next read of their itinerary.
        entries.removeAll { $0.doc == doc }
        entries.append((doc, generation, snapshot))
        if entries.count > capacity { entries.removeFirst() }
        return snapshot
    }
}
