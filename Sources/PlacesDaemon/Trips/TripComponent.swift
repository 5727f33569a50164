import NIOCore
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
    /// Each itinerary's expenses and ledger sums, kept current by the ops stored since
    /// (`ExpenseBook`), for the itineraries whose ledgers were read last.
    /// The most recently used last.
    private var expenseBooks = [ExpenseBook]()
    private static let booksKept = 4

    /// The encoded places to go of the itineraries answered last.
    private var places = ItineraryPlaces()

    /// The `places` array of `doc`'s answer (`ItineraryPlaces`).
    mutating func placesJSON(_ doc: DocumentID, _ context: Context) throws -> ByteBuffer {
        try places.json(of: doc, store: context.store, keyring: context.keyring)
    }

    /// How many itinerary answers reused their places, and how many wrote them anew.
    var placesReads: (reused: Int, readAnew: Int) { (places.reused, places.readAnew) }

    /// The trip folder of `doc`, brought up to date with the ops stored since it was read.
    mutating func tripSnapshot(_ doc: Store.DocumentRecord, _ context: Context) throws -> TripSnapshot {
        try trips.snapshot(of: doc.id, store: context.store, keyring: context.keyring)
    }

    /// How many trip folder reads applied ops one by one, and how many read anew.
    var tripReads: (appliedInPlace: Int, readAnew: Int) { (trips.appliedInPlace, trips.readAnew) }

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

    /// Ops stored wait for the trip folders' next read, and each book of their itineraries
    /// keeps them for its next read (membership changes make it read every expense again).
    /// Documents changed outside ops: the ledgers go, as for a new identity.
    mutating func didStore(_ change: StoreChange) {
        trips.didStore(change)
        places.didStore(change)
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

    /// Expense views name "you" by the identity's profile: the ledgers go. Trip folders are
    /// read anew and the kept places go (the ops waiting may need the new keyring).
    mutating func didChangeIdentity() {
        trips.readAllAnew()
        places.forget()
        forgetLedgers()
    }

    private mutating func forgetLedgers() {
        expenses = SnapshotCache(capacity: 4)
        expenseBooks = []
    }
}
