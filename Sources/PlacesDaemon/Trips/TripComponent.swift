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
    /// Each itinerary's expenses and ledger sums, kept current by the ops stored since
    /// (`ExpenseBook`), for the itineraries whose ledgers were read last.
    /// The most recently used last.
    private var expenseBooks = [ExpenseBook]()
    private static let booksKept = 4

    /// The trip folder of `doc`, read again when the store has changed.
    mutating func tripSnapshot(_ doc: Store.DocumentRecord, _ context: Context) throws -> TripSnapshot {
        let store = context.store
        return try trips.snapshot(of: doc.id, store: store) { previous throws(ServiceError) in
            try TripSnapshot(doc: doc.id, store: store, previous: previous)
        }
    }

    /// The expense ledger of `doc`, read again when the store has changed; `open` opens the
    /// bodies of the ops stored since (the expenses they touched are read again, no other).
    mutating func expenseSnapshot(
        _ doc: Store.DocumentRecord, _ context: Context, open: @escaping (SignedOp) -> OpBody?
    ) throws -> ExpenseSnapshot {
        let store = context.store
        let book = expenseBook(doc.id, store)
        book.open = open
        return try expenses.snapshot(of: doc.id, store: store) { _ throws(ServiceError) in
            let names = context.expenseNames(doc)
            return try ExpenseSnapshot(doc: doc.id, owner: doc.owner, store: store, book: book) { key in
                names.name(key)
            }
        }
    }

    /// The book of `doc`'s expenses, made on first use (the least recently used one goes).
    private mutating func expenseBook(_ doc: DocumentID, _ store: Store) -> ExpenseBook {
        let book = expenseBooks.first { $0.doc == doc } ?? ExpenseBook(doc: doc, store: store)
        expenseBooks.removeAll { $0.doc == doc }
        expenseBooks.append(book)
        if expenseBooks.count > Self.booksKept { expenseBooks.removeFirst() }
        return book
    }

    /// Ops stored: each book of their itineraries keeps them for its next read (membership
    /// changes make it read every expense again). Documents changed outside ops: the ledgers
    /// go, as for a new identity.
    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .ops(let ops, let membership):
            guard !expenseBooks.isEmpty else { return }
            for book in expenseBooks {
                if membership.contains(book.doc) { book.readAnew() }
            }
            for op in ops { expenseBooks.first { $0.doc == op.header.doc }?.stored(op) }
        case .documents: forgetLedgers()
        case .grant, .friendship: break
        }
    }

    /// Expense views name "you" by the identity's profile: the ledgers go.
    mutating func didChangeIdentity() { forgetLedgers() }

    private mutating func forgetLedgers() {
        expenses = SnapshotCache(capacity: 4)
        expenseBooks = []
    }
}
