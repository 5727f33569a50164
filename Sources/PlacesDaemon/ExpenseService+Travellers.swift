import PlacesModel
import PlacesStore

/// Named travellers and the rate table.
extension ExpenseService {
    func addTraveller(_ body: [String: JSONValue]) throws -> (edit: Edit, id: String) {
        try Self.checkKeys(body, allowed: ["name"], what: "a traveller")
        let fields = try TravellerFields.schema.validate(body, creating: true)
        let id = EntityLookup.newID()
        var changes: [Change] = [.create(entity: id, kind: .traveller)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id, kind: .traveller, field: field, value: value, old: nil))
        }
        return (Edit(doc: snapshot.doc, changes: changes, summary: "traveller added"), id)
    }

    func renameTraveller(_ reference: String, _ body: [String: JSONValue]) throws -> (edit: Edit?, ref: String) {
        try Self.checkKeys(body, allowed: ["name"], what: "a traveller")
        let entry = try namedTraveller(reference)
        let fields = try TravellerFields.schema.validate(body, creating: false)
        let changes: [Change] = fields.compactMap { field, value in
            guard field == TravellerFields.name.name, value != .string(entry.name) else { return nil }
            return .set(entity: entry.ref, kind: .traveller, field: field, value: value, old: .string(entry.name))
        }
        return (
            changes.isEmpty ? nil : Edit(doc: snapshot.doc, changes: changes, summary: "traveller renamed"), entry.ref
        )
    }

    /// Refused while an expense names them: their money would have nobody to go to.
    func removeTraveller(_ reference: String) throws -> Edit {
        let entry = try namedTraveller(reference)
        let count = try snapshot.expenses().filter { $0.terms.travellers.contains(entry.ref) == true }.count
        guard count == 0 else {
            throw ServiceError.conflict(
                "traveller-has-expenses",
                "\(entry.name) appears in \(count) expense\(count == 1 ? "" : "s"): change or remove "
                    + "\(count == 1 ? "it" : "them") first (renaming them is fine)")
        }
        return Edit(
            doc: snapshot.doc, changes: [.tombstone(entity: entry.ref, kind: .traveller)], summary: "traveller removed")
    }

    /// A live named traveller; a member is refused (their name is their own).
    /// An id in the path that names no traveller of this trip is a 404, as for expenses.
    private func namedTraveller(_ reference: String) throws -> TravellerDirectory.Entry {
        let ref: String
        do { ref = try snapshot.directory.resolve(.string(reference), field: "travellerId") } catch {
            throw ServiceError.notFound("no traveller '\(reference.prefix(80))' in this itinerary")
        }
        guard let entry = snapshot.directory.entries[ref] else {
            throw ServiceError.notFound("no traveller '\(reference.prefix(80))' in this itinerary")
        }
        guard !entry.member else {
            throw ServiceError.conflict(
                "member-traveller",
                "\(entry.name) is a member of the itinerary: a member's name is their own, and they stay a "
                    + "traveller while they are a member")
        }
        return entry
    }

    /// `PUT …/rates`: `{"rates": {"USD": "0.92"}}` replaces the table.
    func putRates(_ body: [String: JSONValue]) throws -> Edit? {
        try Self.checkKeys(body, allowed: ["rates"], what: "the rate table")
        guard let table = body["rates"]?.objectValue else {
            throw ServiceError.invalid("rates", "'rates' must be an object such as {\"USD\": \"0.92\"}")
        }
        guard let settlement = snapshot.currency else {
            throw ServiceError.invalid(
                "rates", "set the trip's settlementCurrency first (PATCH the itinerary): the rates are to it")
        }
        let value = try Self.checkedRates(table, settlement: settlement)
        let stored = try ItineraryFields.rates.spec.rule.check(ItineraryFields.rates.name, value)
        let old = Views.fields(snapshot.root)[ItineraryFields.rates.name] ?? .null
        guard old != stored else { return nil }
        return Edit(
            doc: snapshot.doc,
            changes: [.set(entity: snapshot.doc.hex, kind: .itinerary, field: "rates", value: stored, old: old)],
            summary: "exchange rates changed")
    }

    /// A rate table as a request gives it (`PUT …/rates`, or `rates` in an itinerary's PATCH),
    /// checked entry by entry against the settlement currency it converts to, each refusal
    /// naming its entry (`rates.USD`); returned with every rate in canonical text.
    static func checkedRates(_ table: [String: JSONValue], settlement: String) throws -> JSONValue {
        var canonical = [String: JSONValue]()
        for (code, value) in table {
            let field = "rates.\(code.prefix(10))"
            guard CurrencyTable.minorDigits(code) != nil else {
                throw ServiceError.invalid(field, "'\(code.prefix(10))' is not an ISO 4217 currency code")
            }
            guard code != settlement else {
                throw ServiceError.invalid(field, "\(code) is the settlement currency: it needs no rate")
            }
            guard let text = value.stringValue else {
                throw ServiceError.invalid(field, "a rate is a decimal written as a string, such as \"0.92\"")
            }
            do { canonical[code] = .string(try ExchangeRate(text).description) } catch {
                throw ServiceError.invalid(field, error.message)
            }
        }
        return .object(canonical)
    }
}
