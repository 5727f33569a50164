import PlacesModel
import PlacesStore

/// Trips' state (issue 13, issue 14): the trip folders and expense ledgers last read.
///
/// A component of the engine (docs/devices-design.md §1): it owns the snapshots of
/// itineraries (`TripSnapshot`, `ExpenseSnapshot`), each current while the store's commit
/// generation has not moved; `Engine+TripFolder` and `Engine+Expenses` hold the rules.
struct TripComponent: EngineComponent {
    /// What the snapshots read of the rest of the daemon.
    struct Context {
        let store: Store
        /// Names for the keys an itinerary's expenses mention (the people features' query).
        let expenseNames: (Store.DocumentRecord) -> ExpenseNames
    }

    /// The trip folders last read.
    private var trips = SnapshotCache<TripSnapshot>()
    /// The expense ledgers last read.
    private var expenses = SnapshotCache<ExpenseSnapshot>(capacity: 4)

    /// The trip folder of `doc`, read again when the store has changed.
    mutating func tripSnapshot(_ doc: Store.DocumentRecord, _ context: Context) throws -> TripSnapshot {
        let store = context.store
        return try trips.snapshot(of: doc.id, store: store) { previous throws(ServiceError) in
            try TripSnapshot(doc: doc.id, store: store, previous: previous)
        }
    }

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

    /// Documents changed outside ops: the ledgers go, as for a new identity.
    mutating func didStore(_ change: StoreChange) {
        if case .documents = change { forgetLedgers() }
    }

    /// Expense views name "you" by the identity's profile: the ledgers go.
    mutating func didChangeIdentity() { forgetLedgers() }

    private mutating func forgetLedgers() { expenses = SnapshotCache(capacity: 4) }
}
