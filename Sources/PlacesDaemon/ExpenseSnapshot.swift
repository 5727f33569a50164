import PlacesCrypto
import PlacesExpenses
import PlacesModel
import PlacesStore

/// Everything the expense views read from one itinerary, loaded in one go: its settlement
/// currency and rate table, the travellers, the live expenses with their checked `terms`,
/// and the ledger (balances, debts, settle-up) computed from them. Kept while the store's
/// commit generation has not moved (`SnapshotCache`); a snapshot made after a change reuses
/// the parsed expenses that did not change, so 10,000 expenses are not parsed again for
/// each new one.
final class ExpenseSnapshot: @unchecked Sendable {
    /// A live expense with its fields and checked terms; a class, so a snapshot made after a
    /// change shares the unchanged ones with the last and sorting moves pointers.
    final class Parsed {
        let record: Store.EntityRecord
        let fields: [String: JSONValue]
        let terms: ExpenseTerms
        /// The listing order's key: date (newest first), then created (newest first), then id.
        let date: String

        init(record: Store.EntityRecord, fields: [String: JSONValue], terms: ExpenseTerms) {
            self.record = record
            self.fields = fields
            self.terms = terms
            self.date = fields[ExpenseFields.date.name]?.stringValue ?? ""
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
    /// Live expenses, newest date first, then newest created, then id.
    let expenses: [Parsed]
    let index: [String: Int]
    let directory: TravellerDirectory

    // Computed on first use (a write needs neither); a snapshot is only read inside the
    // engine actor.
    private var cachedLedger: Result<Ledger, LedgerError>?
    private var cachedPlan: Result<(transfers: [Transfer], optimal: Bool), LedgerError>?
    private var cachedBodies: [String: [UInt8]] = [:]

    init(
        doc: DocumentID, owner: [UInt8], store: Store, previous: ExpenseSnapshot?,
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
        let records = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .expense) }
        var parsed = [Parsed]()
        parsed.reserveCapacity(records.count)
        for record in records {
            let p: Parsed
            if let old = previous?.expenses[safe: previous?.index[record.id]], old.record == record {
                p = old
            } else {
                // An entity without money (an editor's op may create one without `terms`, or
                // declare `expense` for another kind's id: op-format §5) is no expense: not shown.
                guard let new = Parsed(record) else { continue }
                p = new
            }
            parsed.append(p)
        }
        parsed.sort(by: Parsed.listedBefore)
        expenses = parsed
        var index = [String: Int](minimumCapacity: parsed.count)
        for (i, p) in parsed.enumerated() { index[p.record.id] = i }
        self.index = index

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

    /// The balances, or why they cannot be counted (more money than 64 bits hold: only a
    /// peer's millions of huge expenses could do that; the API says so, as a 409, instead of
    /// trapping).
    func ledger() throws -> Ledger {
        let result =
            cachedLedger
            ?? Result { () throws(LedgerError) in
                try Ledger(
                    currency: settlementCurrency,
                    entries: expenses.map {
                        LedgerEntry(id: $0.record.id, terms: $0.terms, category: $0.fields["category"]?.stringValue)
                    })
            }
        cachedLedger = result
        switch result {
        case .success(let ledger): return ledger
        case .failure(let error): throw ServiceError.conflict("ledger-\(error.code.rawValue)", error.message)
        }
    }

    /// How expense `id` splits, in minor units of its currency, by traveller.
    func shares(of id: String, _ terms: ExpenseTerms) -> [(traveller: String, minor: Int64)] {
        (try? Ledger.shares(of: LedgerEntry(id: id, terms: terms, category: nil))) ?? []
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
        return expenses.isEmpty ? nil : (try? ledger())?.currency
    }

    /// The live expense `id`.
    func expense(_ id: String) -> Parsed? { expenses[safe: index[id]] }

    /// Settle-up suggestions, computed once per snapshot.
    func plan() throws -> (transfers: [Transfer], optimal: Bool) {
        let balances = try ledger().balanceByTraveller
        let result = cachedPlan ?? Result { () throws(LedgerError) in try Settlement.plan(balances) }
        cachedPlan = result
        switch result {
        case .success(let plan): return plan
        case .failure(let error): throw ServiceError.conflict("ledger-\(error.code.rawValue)", error.message)
        }
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
