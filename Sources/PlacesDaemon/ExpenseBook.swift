import PlacesExpenses
import PlacesModel
import PlacesStore

/// The live expenses of one itinerary and their ledger's sums (`LedgerTally`), kept current
/// by what was stored since they were read: the ops of the itinerary `TripComponent` hands
/// over (`pending`) name the entities they changed, and only those rows are read again, their
/// old terms taken out of the tally and the new ones counted in. Adding an expense to a trip
/// of 10,000 thus costs one row and one expense's sums, not the trip's (issue 34).
///
/// Read anew (every row, as the first time) when the ops could have changed rows they do not
/// name, or when they cannot be told: an op that cannot be opened, one that changes members,
/// links or devices (a removal or revocation re-materializes the document), one excluded or
/// by an author who equivocated (`Store.changedOnlyItsEntities`), more than `maxPendingOps`
/// ops, and documents changed outside ops (`TripComponent` drops the book). Only read inside
/// the engine actor.
final class ExpenseBook: @unchecked Sendable {
    typealias Parsed = ExpenseSnapshot.Parsed

    /// Ops kept for the next read; past this many the expenses are read anew.
    static let maxPendingOps = 1_000
    /// Entities named by the pending ops past which reading every row costs about as much.
    static let maxTouched = 2_000

    let doc: DocumentID
    private let store: Store
    /// Ops of the itinerary stored since the expenses were read; nil to read them anew.
    private var pending: [SignedOp]? = []
    /// Live expenses in listing order, and by id; nil until first read.
    private var listed: [Parsed] = []
    private var byID: [String: Parsed]?
    private var tally: LedgerTally?
    /// The ledger of the expenses held, for the currency it was asked in; nil after a change.
    private var ledger: (given: String?, result: Result<Ledger, LedgerError>)?
    /// Opens an op's body (the engine's keyring), for the pending ops.
    var open: (SignedOp) -> OpBody? = { _ in nil }

    /// How the expenses were last brought up to date (for tests and the bench).
    enum Update: Equatable { case none, read, applied(Int) }
    private(set) var lastUpdate = Update.none

    init(doc: DocumentID, store: Store) {
        self.doc = doc
        self.store = store
    }

    /// Ops stored in the itinerary (`TripComponent.didStore`): kept for the next read.
    func stored(_ op: SignedOp) {
        guard pending != nil, byID != nil else { return }
        pending?.append(op)
        if (pending?.count ?? 0) > Self.maxPendingOps { readAnew() }
    }

    /// Forgets what was read: the next read reads every row.
    func readAnew() {
        pending = nil
    }

    /// The live expenses, in listing order and by id.
    func expenses() throws -> (listed: [Parsed], byID: [String: Parsed]) {
        let byID = try current()
        return (listed, byID)
    }

    /// The ledger of the live expenses in the trip's currency `given` (nil: the most used).
    func ledger(given: String?) throws -> Result<Ledger, LedgerError> {
        _ = try current()
        if let ledger, ledger.given == given { return ledger.result }
        let result: Result<Ledger, LedgerError>
        // Debts read the expenses again, in listing order, only if asked for.
        let listed = listed
        let entries: @Sendable () -> [LedgerEntry] = { listed.map(\.entry) }
        if let tally, tally.given == given, tally.isExact, tally.resolvedCurrency == tally.currency,
            let counted = tally.ledger(entries: entries)
        {
            result = .success(counted)
        } else {
            // First read, another currency, or a sum past 64 bits: counted anew from the
            // expenses held (no row is read again); the full count also says what is wrong.
            let entries = listed.map(\.entry)
            let fresh = LedgerTally(currency: given, entries: entries)
            tally = fresh
            if let counted = fresh.ledger(entries: { entries }) {
                result = .success(counted)
            } else {
                result = Result { () throws(LedgerError) in try Ledger(currency: given, entries: entries) }
            }
        }
        ledger = (given, result)
        return result
    }

    /// The expenses by id, brought up to date.
    private func current() throws -> [String: Parsed] {
        if let byID, let ops = pending {
            if ops.isEmpty { return byID }
            if let touched = touchedEntities(ops) {
                try apply(touched)
                pending = []
                lastUpdate = .applied(touched.count)
                if let updated = self.byID { return updated }
            }
        }
        try readAll()
        pending = []
        lastUpdate = .read
        return self.byID ?? [:]
    }

    /// The entities `ops` name, or nil when they could have changed others (read anew).
    private func touchedEntities(_ ops: [SignedOp]) -> [EntityID]? {
        var touched = [EntityID](), seen = Set<EntityID>()
        for op in ops {
            guard let body = open(op) else { return nil }
            for change in body.changes {
                if change.kind == .member || change.kind == .link || change.kind == .device { return nil }
                if seen.insert(change.entity).inserted { touched.append(change.entity) }
            }
            guard touched.count <= Self.maxTouched,
                (try? store.changedOnlyItsEntities(op)) == true
            else { return nil }
        }
        return touched
    }

    /// Reads the rows of `ids` again and moves each changed expense in the listing and the tally.
    private func apply(_ ids: [EntityID]) throws {
        // Let go of the last ledger first: it shares the listing, which is changed in place.
        ledger = nil
        let (doc, store) = (doc, store)
        let records = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, ids: ids) }
        var byRecordID = [EntityID: Store.EntityRecord](minimumCapacity: records.count)
        for record in records { byRecordID[record.id] = record }
        for id in ids {
            let old = byID?[id]
            var new: Parsed?
            if let record = byRecordID[id], record.kind == .expense, !record.deleted {
                new = old.map { $0.record == record } == true ? old : Parsed(record)
            }
            if old === new { continue }
            if let old {
                if let at = position(of: old) { listed.remove(at: at) }
                tally?.remove(old.entry)
            }
            if let new {
                listed.insert(new, at: insertionPoint(new))
                tally?.add(new.entry)
            }
            byID?[id] = new
        }
    }

    /// Reads every live expense, reusing the parsed ones whose rows did not change.
    private func readAll() throws {
        let (doc, store) = (doc, store)
        let records = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .expense) }
        let previous = byID ?? [:]
        var parsed = [Parsed]()
        parsed.reserveCapacity(records.count)
        for record in records {
            if let old = previous[record.id], old.record == record {
                parsed.append(old)
            } else if let new = Parsed(record) {
                // An entity without money (an editor's op may create one without `terms`, or
                // declare `expense` for another kind's id: op-format §5) is no expense: not shown.
                parsed.append(new)
            }
        }
        parsed.sort(by: Parsed.listedBefore)
        var index = [String: Parsed](minimumCapacity: parsed.count)
        for p in parsed { index[p.record.id] = p }
        listed = parsed
        byID = index
        tally = nil
        ledger = nil
    }

    /// Where `expense` goes in the listing (after every one listed before it).
    private func insertionPoint(_ expense: Parsed) -> Int {
        var (low, high) = (0, listed.count)
        while low < high {
            let mid = (low + high) / 2
            if Parsed.listedBefore(listed[mid], expense) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The place of `expense` in the listing (the listing order is total: ids differ).
    private func position(of expense: Parsed) -> Int? {
        let at = insertionPoint(expense)
        return listed[safe: at] === expense ? at : listed.firstIndex { $0 === expense }
    }
}
