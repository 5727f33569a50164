import Foundation
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Group expense routes: travellers, expenses and payments, balances, settle-up, pairwise
/// debts, CSV exports and the rate table. `ExpenseService` checks and decides, the engine
/// commits; reads come from the itinerary's `ExpenseSnapshot`, kept while the store does not
/// change, and the read answers are encoded once per snapshot.
extension Engine {
    /// The expense snapshot of an itinerary the caller can see (any role).
    func expenseSnapshot(_ doc: Store.DocumentRecord) throws -> ExpenseSnapshot {
        let keyring = account.keyring
        return try trips.expenseSnapshot(doc, tripContext) { op in try? Store.openBody(op, keyring: keyring) }
    }

    /// Names for the keys an itinerary's expenses mention, each store read once
    /// (`ExpenseNames`: a peer's expenses may name thousands of strangers' keys).
    func expenseNames(_ doc: Store.DocumentRecord) -> ExpenseNames {
        ExpenseNames(doc: doc.id, owner: doc.owner, me: me, store: store, peerNames: syncComponent.peerNames) { key in
            self.displayName(of: key)
        }
    }

    private func expenseService(_ reference: String, editing: Bool) throws -> ExpenseService {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        if editing { try itineraries.requireEditor(doc) }
        return ExpenseService(
            snapshot: try expenseSnapshot(doc),
            itemIDs: {
                let trip = try self.tripSnapshot(doc)
                return Set(trip.itemRecords.map(\.id) + trip.stops.map(\.id))
            }, today: Self.localToday())
    }

    /// Today's date where the daemon runs, `YYYY-MM-DD`.
    static func localToday() -> String {
        // `localtime_r`, not `Calendar.current`: the same time zone (TZ), without building a
        // calendar on every expense write.
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "1970-01-01" }
        // `tm`'s fields are Int32: widening them to Int cannot trap (and the clock is no peer's).
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    private func after(_ reference: String) throws -> ExpenseSnapshot {
        try expenseSnapshot(try itineraryDoc(reference))
    }

    // MARK: Travellers

    func travellers(_ reference: String) throws -> [UInt8] {
        try after(reference).body("travellers", ExpenseViews.travellers)
    }

    private func travellerJSON(_ reference: String, _ ref: String) throws -> JSONValue {
        let snapshot = try after(reference)
        let entry = snapshot.directory.entry(ref)
        let count = try snapshot.expenses().filter { $0.terms.travellers.contains(ref) }.count
        return ExpenseViews.traveller(entry, expenseCount: count)
    }

    func addTraveller(_ reference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let (edit, id) = try expenseService(reference, editing: true).addTraveller(body)
        try commit(edit)
        return try travellerJSON(reference, id)
    }

    func renameTraveller(_ reference: String, traveller: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let service = try expenseService(reference, editing: true)
        let (edit, ref) = try service.renameTraveller(traveller, body)
        if let edit { try commit(edit) }
        return try travellerJSON(reference, ref)
    }

    func removeTraveller(_ reference: String, traveller: String) throws {
        try commit(try expenseService(reference, editing: true).removeTraveller(traveller))
    }

    // MARK: Expenses

    func expenses(_ reference: String, kind: String?) throws -> [UInt8] {
        if let kind, ExpenseTerms.Kind(rawValue: kind) == nil {
            throw ServiceError.invalid("kind", "'kind' must be expense or transfer")
        }
        let doc = try itineraryDoc(reference)
        let snapshot = try expenseSnapshot(doc)
        return try snapshot.body("expenses?kind=\(kind ?? "")") { s in
            let names = self.expenseNames(doc)
            let list = try s.expenses().filter { kind == nil || $0.terms.kind.rawValue == kind }.map {
                ExpenseViews.expense($0, in: s, names: names.name)
            }
            return .object(["expenses": .array(list), "count": .int(Int64(list.count))])
        }
    }

    func expense(_ reference: String, expense id: String) throws -> JSONValue {
        let service = try expenseService(reference, editing: false)
        let parsed = try service.expense(id)
        return ExpenseViews.expense(parsed, in: service.snapshot, names: displayName(of:))
    }

    func createExpense(_ reference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let service = try expenseService(reference, editing: true)
        let (edit, id) = try service.create(body)
        try commit(edit)
        return try written(id, service.snapshot)
    }

    func updateExpense(_ reference: String, expense id: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let service = try expenseService(reference, editing: true)
        let current = try service.expense(id)
        if let edit = try service.update(current.record.id, body) { try commit(edit) }
        return try written(current.record.id, service.snapshot)
    }

    /// The expense just written, read alone and named with the snapshot it was checked
    /// against (an expense write changes no traveller): answering does not read the trip's
    /// other expenses again.
    private func written(_ id: String, _ snapshot: ExpenseSnapshot) throws -> JSONValue {
        guard
            let record = try ServiceError.storing({ () throws(StoreError) in try store.entity(in: snapshot.doc, id: id)
            }),
            !record.deleted, let parsed = ExpenseSnapshot.Parsed(record)
        else { throw ServiceError.notFound("expense \(id.prefix(8)) is gone") }
        return ExpenseViews.expense(parsed, in: snapshot, names: displayName(of:))
    }

    func deleteExpense(_ reference: String, expense id: String) throws {
        try commit(try expenseService(reference, editing: true).delete(id))
    }

    // MARK: Balances, settle-up, debts, exports

    func balances(_ reference: String) throws -> [UInt8] {
        try after(reference).body("balances", ExpenseViews.balances)
    }

    func settlement(_ reference: String) throws -> [UInt8] {
        try after(reference).body("settlement", ExpenseViews.settlement)
    }

    func debts(_ reference: String) throws -> [UInt8] {
        try after(reference).body("debts", ExpenseViews.debts)
    }

    /// `GET …/expenses.csv` and `…/balances.csv`.
    func expenseCSV(_ reference: String, balances: Bool) throws -> ControlResponse {
        let body = try after(reference).text(balances ? "balances.csv" : "expenses.csv") { snapshot in
            balances ? try ExpenseViews.balancesCSV(snapshot) : try ExpenseViews.expensesCSV(snapshot)
        }
        return .raw(status: 200, contentType: "text/csv; charset=utf-8", body: body)
    }

    // MARK: Rates

    func rates(_ reference: String) throws -> JSONValue {
        let snapshot = try after(reference)
        let table = snapshot.rates.mapValues { JSONValue.string($0.description) }
        return .object(["currency": snapshot.currency.map(JSONValue.string) ?? .null, "rates": .object(table)])
    }

    func putRates(_ reference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        if let edit = try expenseService(reference, editing: true).putRates(body) { try commit(edit) }
        return try rates(reference)
    }
}
