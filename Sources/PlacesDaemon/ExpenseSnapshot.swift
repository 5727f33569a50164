import PlacesCrypto
import PlacesExpenses
import PlacesModel
import PlacesStore

/// Everything the expense views read from one itinerary, loaded in one go: its settlement
/// currency and rate table, the travellers, the live expenses with their checked `terms`,
/// and the ledger (balances, debts, settle-up) computed from them. Kept while the store's
/// commit generation has not moved (`SnapshotCache`); the expenses and the ledger's sums come
/// from the itinerary's `ExpenseBook`, which a snapshot made after a change brings up to date
/// by reading again only the expenses that change touched.
final class ExpenseSnapshot: @unchecked Sendable {
    /// A live expense with its fields and checked terms; a class, so a snapshot made after a
    /// change shares the unchanged ones with the last and sorting moves pointers.
    final class Parsed: Sendable {
        let record: Store.EntityRecord
        let fields: [String: JSONValue]
        let terms: ExpenseTerms
        /// The listing order's key: date (newest first), then created (newest first), then id.
        let date: String
        /// What the ledger reads of it, made once (a snapshot after a change reuses it).
        let entry: LedgerEntry

        init(record: Store.EntityRecord, fields: [String: JSONValue], terms: ExpenseTerms) {
            self.record = record
            self.fields = fields
            self.terms = terms
            self.date = fields[ExpenseFields.date.name]?.stringValue ?? ""
            self.entry = LedgerEntry(id: record.id, terms: terms, category: fields["category"]?.stringValue)
        }

        /// A stored expense, or nil when it holds no readable terms.
        convenience init?(_ record: Store.EntityRecord) {
            let fields = Views.fields(record)
            guard let terms = fields[ExpenseFields.terms] else { return nil }
            self.init(record: record, fields: fields, terms: terms)
        }

        static func listedBefore(_ a: Parsed, _ b: Parsed) -> Bool {
            if a.date != b.date { return a.date > b.date }
            let (ca, cb) = (a.record.createdMs ?? 0, b.record.createdMs ?? 0)
            return ca != cb ? ca > cb : a.record.id < b.record.id
        }
    }

    let doc: DocumentID
    let root: Store.EntityRecord
    /// The trip's settlement currency as stored (nil until set).
    let settlementCurrency: String?
    /// The trip's rate table, by currency.
    let rates: [String: ExchangeRate]
    let directory: TravellerDirectory

    /// The live expenses in listing order, and by id, once read.
    typealias Listing = (expenses: [Parsed], byID: [String: Parsed])
    private let store: Store
    /// The itinerary's expenses and ledger sums, kept current across snapshots.
    private let book: ExpenseBook
    private var listing: Listing?

    // Computed on first use (a write needs neither); a snapshot is only read inside the
    // engine actor.
    private var cachedLedger: Result<Ledger, LedgerError>?
    private var cachedPlan: Result<(transfers: [Transfer], optimal: Bool), LedgerError>?
    private var cachedBodies: [String: [UInt8]] = [:]

    init(
        doc: DocumentID, owner: [UInt8], store: Store, book: ExpenseBook,
        displayName: @escaping (PublicKey) -> String
    ) throws(ServiceError) {
        self.doc = doc
        guard
            let root = try ServiceError.storing({ () throws(StoreError) in try store.entity(in: doc, id: doc.hex) }),
            !root.deleted
        else { throw ServiceError.notFound("no itinerary with id '\(doc.hex)'") }
        self.root = root
        let f = Views.fields(root)
        settlementCurrency = f[ItineraryFields.settlementCurrency]
        rates = Self.rateTable(f[ItineraryFields.rates])
        self.store = store
        self.book = book

        var members = [PublicKey]()
        if let key = try? PublicKey(bytes: owner) { members.append(key) }
        for member in try ServiceError.storing({ () throws(StoreError) in try store.members(of: doc) }) {
            if let key = Engine.publicKey(hex: member.key) { members.append(key) }
        }
        let named = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .traveller) }
        directory = TravellerDirectory(
            members: members, named: named,
            lookup: { id in try? store.entity(in: doc, id: id) }, displayName: displayName)
    }

    /// Live expenses, newest date first, then newest created, then id: read on first use (a
    /// write reads only the expense it changes) from the book, which reads again only what
    /// changed since its last read.
    func expenses() throws -> [Parsed] { try load().expenses }

    private func load() throws -> Listing {
        if let listing { return listing }
        let (listed, byID) = try book.expenses()
        let result = (listed, byID)
        listing = result
        return result
    }

    /// The live expense with id `id` (read alone while the listing is not).
    func expense(_ id: String) throws -> Parsed? {
        if let listing { return listing.byID[id] }
        let (doc, store) = (doc, store)
        guard let record = try ServiceError.storing({ () throws(StoreError) in try store.entity(in: doc, id: id) }),
            record.kind == .expense, !record.deleted
        else { return nil }
        return Parsed(record)
    }

    /// The balances, or why they cannot be counted (more money than 64 bits hold: only a
    /// peer's millions of huge expenses could do that; the API says so, as a 409, instead of
    /// trapping). The book keeps the sums, so a read after a change does not count every
    /// expense again.
    func ledger() throws -> Ledger {
        let result = try cachedLedger ?? book.ledger(given: settlementCurrency)
        cachedLedger = result
        switch result {
        case .success(let ledger): return ledger
        case .failure(let error): throw ExpenseSnapshot.problem(error)
        }
    }

    /// How an expense splits, in minor units of its currency, by traveller.
    static func shares(of expense: Parsed) -> [(traveller: String, minor: Int64)] {
        (try? Ledger.shares(of: expense.entry)) ?? []
    }

    /// A stored rate table; entries a peer could not have written are skipped (the register
    /// rule refuses them at ingest).
    static func rateTable(_ value: JSONValue?) -> [String: ExchangeRate] {
        var out = [String: ExchangeRate]()
        for (code, rate) in value?.objectValue ?? [:] {
            if let text = rate.stringValue, let r = try? ExchangeRate(text) { out[code] = r }
        }
        return out
    }

    /// The currency balances are in: the trip's, else the one most expenses settle in.
    var currency: String? {
        if let settlementCurrency { return settlementCurrency }
        return (try? expenses())?.isEmpty != false ? nil : (try? ledger())?.currency
    }

    /// Settle-up suggestions, computed once per snapshot.
    func plan() throws -> (transfers: [Transfer], optimal: Bool) {
        let balances = try ledger().balanceByTraveller
        let result = cachedPlan ?? Result { () throws(LedgerError) in try Settlement.plan(balances) }
        cachedPlan = result
        switch result {
        case .success(let plan): return plan
        case .failure(let error): throw ExpenseSnapshot.problem(error)
        }
    }

    /// A ledger that cannot be counted, as a 409 saying why.
    static func problem(_ error: LedgerError) -> ServiceError {
        let code =
            switch error.code {
            case .overflow: "ledger-overflow"
            case .invalidExpense: "ledger-invalid-expense"
            case .unbalanced: "ledger-unbalanced"
            }
        return ServiceError.conflict(code, error.message)
    }

    /// A text answer (the CSV exports), made once per snapshot.
    func text(_ route: String, _ make: (ExpenseSnapshot) throws -> String) throws -> [UInt8] {
        if let cached = cachedBodies[route] { return cached }
        let out = Array(try make(self).utf8)
        cachedBodies[route] = out
        return out
    }

    /// The encoded answer of a read route, made once per snapshot.
    func body(_ route: String, _ make: (ExpenseSnapshot) throws -> JSONValue) throws -> [UInt8] {
        if let cached = cachedBodies[route] { return cached }
        var out = [UInt8]()
        try make(self).write(to: &out)
        cachedBodies[route] = out
        return out
    }
}

extension Array {
    /// The element at `index`, or nil when there is none.
    subscript(safe index: Int?) -> Element? {
        guard let index, indices.contains(index) else { return nil }
        return self[index]
    }
}
