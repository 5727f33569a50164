import PlacesModel
import PlacesStore

/// Trips' state (issue 13, issue 14): the trip folders and expense ledgers last read.
///
/// A component of the engine (docs/devices-design.md §1): it owns the snapshots of
/// itineraries: trip folders (`TripSnapshots`), kept current op by op from the ops stored,
/// and expense ledgers (`ExpenseSnapshot`), each current while the store's commit generation
/// has not moved. `Engine+TripFolder` and `Engine+Expenses` hold the rules.
struct TripComponent: EngineComponent {
    /// What the snapshots read of the rest of the daemon.
    struct Context {
        let store: Store
        /// Opens the ops stored since a trip folder was read.
        let keyring: Keyring
        /// Names for the keys an itinerary's expenses mention (the people features' query).
        let expenseNames: (Store.DocumentRecord) -> ExpenseNames
    }

    /// The trip folders last read.
    private var trips = TripSnapshots()
    /// The expense ledgers last read.
    private var expenses = SnapshotCache<ExpenseSnapshot>(capacity: 4)

    /// The trip folder of `doc`, brought up to date with the ops stored since it was read.
    mutating func tripSnapshot(_ doc: Store.DocumentRecord, _ context: Context) throws -> TripSnapshot {
        try trips.snapshot(of: doc.id, store: context.store, keyring: context.keyring)
    }

    /// How many trip folder reads applied ops one by one, and how many read anew.
    var tripReads: (appliedInPlace: Int, readAnew: Int) { (trips.appliedInPlace, trips.readAnew) }

    /// The expense ledger of `doc`, read again when the store has changed.
    mutating func expenseSnapshot(_ doc: Store.DocumentRecord, _ context: Context) throws -> ExpenseSnapshot {
        let store = context.store
        return try expenses.snapshot(of: doc.id, store: store) { previous throws(ServiceError) in
            let names = context.expenseNames(doc)
            return try ExpenseSnapshot(doc: doc.id, owner: doc.owner, store: store, previous: previous) { key in
                names.name(key)
            }
        }
    }

    /// Ops stored wait for the trip folders' next read; documents changed outside ops: the
    /// ledgers go, as for a new identity.
    mutating func didStore(_ change: StoreChange) {
        trips.didStore(change)
        if case .documents = change { forgetLedgers() }
    }

    /// Expense views name "you" by the identity's profile: the ledgers go. Trip folders are
    /// read anew (the ops waiting may need the new keyring).
    mutating func didChangeIdentity() {
        trips.readAllAnew()
        forgetLedgers()
    }

    private mutating func forgetLedgers() { expenses = SnapshotCache(capacity: 4) }
}
