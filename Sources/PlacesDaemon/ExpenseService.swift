import Foundation
import PlacesModel
import PlacesStore

/// Requests on a trip's expenses, travellers and rate table, checked and turned into edits
/// (the engine commits them). The money of an expense is one `ExpenseTerms` value: a request
/// gives it in the API's words (travellers by id, percentages as numbers), the service
/// resolves those and the model checks the whole (payers and split against the amount, the
/// rate against the currencies).
struct ExpenseService {
    let snapshot: ExpenseSnapshot
    /// The live items and places to go of the trip (an expense's `itemId` must be one), read
    /// only when a request links an item.
    let itemIDs: () throws -> Set<String>
    /// Today's date where the daemon runs (an expense's default date).
    let today: String

    private var doc: DocumentID { snapshot.doc }

    static let expenseKeys: Set<String> = [
        "title", "amount", "date", "category", "itemId", "paidBy", "split", "rate", "kind",
    ]

    // MARK: Expenses

    func create(_ body: [String: JSONValue]) throws -> (edit: Edit, id: String) {
        try Self.checkKeys(body, allowed: Self.expenseKeys, what: "an expense")
        var object = body
        if object["date"] == nil || object["date"] == .null { object["date"] = .string(today) }
        guard object["amount"] != nil else { throw ServiceError.invalid("amount", "'amount' is required") }
        let terms = try terms(from: object, current: nil)
        let fields = try plainFields(object, creating: true)
        let id = EntityLookup.newID()
        var changes: [Change] = [.create(entity: id, kind: .expense)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id, kind: .expense, field: field, value: value, old: nil))
        }
        changes.append(.set(ExpenseFields.terms, of: id, to: terms))
        // The first expense sets the trip's settlement currency when it has none.
        if snapshot.settlementCurrency == nil {
            changes.append(.set(ItineraryFields.settlementCurrency, of: doc.hex, to: terms.settlement))
        }
        let summary = terms.kind == .transfer ? "payment recorded" : "expense added"
        return (Edit(doc: doc, changes: changes, summary: summary), id)
    }

    func update(_ reference: String, _ body: [String: JSONValue]) throws -> Edit? {
        try Self.checkKeys(body, allowed: Self.expenseKeys, what: "an expense")
        let current = try expense(reference)
        let id = current.record.id
        var changes = [Change]()
        for (field, value) in try plainFields(body, creating: false) {
            let old = current.fields[field] ?? .null
            if old != value { changes.append(.set(entity: id, kind: .expense, field: field, value: value, old: old)) }
        }
        if ["amount", "paidBy", "split", "rate", "kind"].contains(where: { body[$0] != nil }) {
            let terms = try terms(from: body, current: current.terms)
            if terms != current.terms {
                changes.append(.set(ExpenseFields.terms, of: id, to: terms, old: current.terms))
            }
        }
        guard !changes.isEmpty else { return nil }
        return Edit(doc: doc, changes: changes, summary: "expense edited")
    }

    func delete(_ reference: String) throws -> Edit {
        let current = try expense(reference)
        return Edit(
            doc: doc, changes: [.tombstone(entity: current.record.id, kind: .expense)], summary: "expense removed")
    }

    func expense(_ reference: String) throws -> ExpenseSnapshot.Parsed {
        // A whole id is read alone; a prefix is looked up among every expense.
        if reference.utf8.count == 32, let parsed = try snapshot.expense(reference.lowercased()) { return parsed }
        let records = try snapshot.expenses().map(\.record)
        let record = try ItemService.find(reference, in: records, what: "expense of this itinerary")
        guard let parsed = try snapshot.expense(record.id) else {
            throw ServiceError.notFound("no expense '\(reference.prefix(64))' in this itinerary")
        }
        return parsed
    }

    /// `title`, `date`, `category`, `itemId`, checked by their register rules.
    private func plainFields(_ body: [String: JSONValue], creating: Bool) throws -> [(String, JSONValue)] {
        var object = [String: JSONValue]()
        for key in ["title", "date", "category", "itemId"] { object[key] = body[key] }
        if !creating, body["date"] == .null {
            throw ServiceError.invalid("date", "'date' cannot be cleared: give the day of the expense")
        }
        if let item = object["itemId"], !item.isNull {
            let text = item.stringValue?.lowercased() ?? ""
            let matches = text.utf8.count >= 4 ? try itemIDs().filter { $0.hasPrefix(text) } : []
            guard matches.count == 1, let id = matches.first else {
                throw ServiceError.invalid(
                    "itemId",
                    matches.count > 1
                        ? "'\(text.prefix(40))' is the start of several items' ids: give more of it"
                        : "'itemId' must be the id of an item or place to go of this trip (or null)")
            }
            object["itemId"] = .string(id)
        }
        let rules = ExpenseFields.schema.requestRules.filter { $0.key != ExpenseFields.terms.name }
        return try FieldRule.validate(object, rules: rules, creating: creating)
    }

    /// The expense's terms from a request, over `current` for an edit: the parts the request
    /// does not give are kept (a lone payer and a transfer's payee follow a new amount).
    func terms(from body: [String: JSONValue], current: ExpenseTerms?) throws -> ExpenseTerms {
        let also = current?.travellers ?? []
        let amount = try body["amount"].map { try Self.money($0) } ?? current?.amount
        guard let amount else { throw ServiceError.invalid("amount", "'amount' is required") }
        let kind =
            try body["kind"].map { v -> ExpenseTerms.Kind in
                guard let text = v.stringValue, let k = ExpenseTerms.Kind(rawValue: text) else {
                    throw ServiceError.invalid("kind", "'kind' must be \"expense\" or \"transfer\"")
                }
                return k
            } ?? current?.kind ?? .expense

        var payers: [ExpenseTerms.Payer]
        if let value = body["paidBy"] {
            payers = try self.payers(value, total: amount.amountMinor, also: also)
        } else if let current, current.paidBy.count == 1, let only = current.paidBy.first {
            payers = [.init(traveller: only.traveller, amountMinor: amount.amountMinor)]
        } else if let current {
            payers = current.paidBy
        } else {
            throw ServiceError.invalid("paidBy", "'paidBy' is required: who paid, e.g. [{\"traveller\": ID}]")
        }

        var mode: ExpenseTerms.Mode
        var parts: [ExpenseTerms.Part]
        if let value = body["split"] {
            (mode, parts) = try split(value, also: also)
        } else if let current {
            (mode, parts) = (current.mode, current.among)
            if current.kind == .transfer, parts.count == 1, let payee = parts.first {
                parts = [.init(traveller: payee.traveller, weight: amount.amountMinor)]
            }
        } else if kind == .transfer {
            throw ServiceError.invalid("split", "a transfer needs who was paid: {\"mode\": \"exact\", \"among\": […]}")
        } else {
            (mode, parts) = (.equal, snapshot.directory.current.map { .init(traveller: $0, weight: 1) })
        }

        let settlement = current?.settlement ?? snapshot.currency ?? amount.currency
        let rate = try self.rate(body["rate"], currency: amount.currency, settlement: settlement, current: current)
        do {
            return try ExpenseTerms(
                kind: kind, amount: amount, paidBy: payers, mode: mode, among: parts, settlement: settlement,
                rate: rate)
        } catch {
            // The model names travellers by their stored reference (a 64-hex key); the user
            // knows them by name.
            var message = error.message
            for ref in Set(payers.map(\.traveller) + parts.map(\.traveller)) where message.contains(ref) {
                message = message.replacingOccurrences(of: ref, with: snapshot.directory.name(ref))
            }
            throw ServiceError.invalid(error.field, message)
        }
    }

    static func money(_ value: JSONValue) throws -> Money {
        guard let o = value.objectValue, let minor = o["amountMinor"]?.intValue,
            let currency = o["currency"]?.stringValue,
            o.count == 2
        else {
            throw ServiceError.invalid(
                "amount", "'amount' must be {\"amountMinor\": <whole number of minor units>, \"currency\": \"EUR\"}")
        }
        guard CurrencyTable.minorDigits(currency) != nil else {
            throw ServiceError.invalid(
                "amount.currency", "'\(currency.prefix(10))' is not an ISO 4217 currency code such as EUR, USD or JPY")
        }
        guard minor > 0 else {
            throw ServiceError.invalid("amount", "'amount' must be more than zero (a refund is a payment back)")
        }
        return Money(amountMinor: minor, currency: currency)
    }

    private func payers(_ value: JSONValue, total: Int64, also: Set<String>) throws -> [ExpenseTerms.Payer] {
        guard let list = value.arrayValue, !list.isEmpty else {
            throw ServiceError.invalid(
                "paidBy", "'paidBy' must be a non-empty list of {\"traveller\", \"amountMinor\"}")
        }
        guard list.count <= ExpenseTerms.maxTravellers else {
            throw ServiceError.invalid("paidBy", "at most \(ExpenseTerms.maxTravellers) payers are allowed")
        }
        return try list.enumerated().map { i, entry in
            let field = "paidBy[\(i)]"
            guard let o = entry.objectValue else {
                throw ServiceError.invalid(field, "'\(field)' must be {\"traveller\", \"amountMinor\"}")
            }
            try Self.checkKeys(o, allowed: ["traveller", "amountMinor"], what: "a payer", at: field)
            let ref = try snapshot.directory.resolve(o["traveller"], field: "\(field).traveller", also: also)
            var amount = total
            if let a = o["amountMinor"] {
                guard let minor = a.intValue else {
                    throw ServiceError.invalid("\(field).amountMinor", "'amountMinor' must be a whole number")
                }
                amount = minor
            } else if list.count > 1 {
                throw ServiceError.invalid("\(field).amountMinor", "with several payers each needs 'amountMinor'")
            }
            return .init(traveller: ref, amountMinor: amount)
        }
    }

    private func split(_ value: JSONValue, also: Set<String>) throws -> (ExpenseTerms.Mode, [ExpenseTerms.Part]) {
        guard let o = value.objectValue else {
            throw ServiceError.invalid("split", "'split' must be {\"mode\", \"among\"}")
        }
        try Self.checkKeys(o, allowed: ["mode", "among"], what: "a split", at: "split")
        guard let text = o["mode"]?.stringValue, let mode = ExpenseTerms.Mode(rawValue: text) else {
            throw ServiceError.invalid("split.mode", "'split.mode' must be equal, shares, exact or percent")
        }
        guard let among = o["among"], !among.isNull else {
            guard mode == .equal else {
                throw ServiceError.invalid("split.among", "a split by \(mode.rawValue) needs 'among'")
            }
            return (mode, snapshot.directory.current.map { .init(traveller: $0, weight: 1) })
        }
        guard let list = among.arrayValue, !list.isEmpty, list.count <= ExpenseTerms.maxTravellers else {
            throw ServiceError.invalid(
                "split.among", "'split.among' must list 1 to \(ExpenseTerms.maxTravellers) travellers")
        }
        let key: String? =
            switch mode {
            case .equal: nil
            case .shares: "shares"
            case .exact: "amountMinor"
            case .percent: "percent"
            }
        let parts = try list.enumerated().map { i, entry -> ExpenseTerms.Part in
            let field = "split.among[\(i)]"
            guard let e = entry.objectValue else {
                throw ServiceError.invalid(
                    field, "'\(field)' must be {\"traveller\"\(key.map { ", \"\($0)\"" } ?? "")}")
            }
            try Self.checkKeys(
                e, allowed: Set(["traveller"] + (key.map { [$0] } ?? [])), what: "a \(mode) split entry", at: field)
            let ref = try snapshot.directory.resolve(e["traveller"], field: "\(field).traveller", also: also)
            guard let key else { return .init(traveller: ref, weight: 1) }
            guard let v = e[key] else { throw ServiceError.invalid("\(field).\(key)", "'\(key)' is required") }
            let weight: Int64
            if mode == .percent {
                weight = try Self.basisPoints(v, field: "\(field).percent")
            } else {
                guard let n = v.intValue else {
                    throw ServiceError.invalid("\(field).\(key)", "'\(key)' must be a whole number")
                }
                weight = n
            }
            return .init(traveller: ref, weight: weight)
        }
        return (mode, parts)
    }

    /// A percentage with at most two decimals (33.33) as hundredths of a percent.
    static func basisPoints(_ value: JSONValue, field: String) throws -> Int64 {
        if let i = value.intValue {
            guard (0...100).contains(i) else { throw ServiceError.invalid(field, "'percent' must be from 0 to 100") }
            return i * 100
        }
        guard let d = value.doubleValue, d.isFinite, d >= 0, d <= 100 else {
            throw ServiceError.invalid(field, "'percent' must be a number from 0 to 100")
        }
        let scaled = (d * 100).rounded()
        guard abs(scaled - d * 100) < 1e-6 else {
            throw ServiceError.invalid(field, "'percent' \(d) has more than two decimals")
        }
        return Int64(scaled)
    }

    /// The frozen rate: the request's, else the current one for an unchanged currency, else
    /// the trip's table; none when the expense is in the settlement currency.
    private func rate(
        _ value: JSONValue?, currency: String, settlement: String, current: ExpenseTerms?
    ) throws -> ExchangeRate? {
        if let value, !value.isNull {
            guard let text = value.stringValue else {
                throw ServiceError.invalid("rate", "'rate' must be a decimal written as a string, such as \"1.0834\"")
            }
            let rate: ExchangeRate
            do { rate = try ExchangeRate(text) } catch { throw ServiceError.invalid("rate", error.message) }
            if currency == settlement {
                guard rate.description == "1" else {
                    throw ServiceError.invalid(
                        "rate", "the expense is in the settlement currency \(settlement): it takes no rate")
                }
                return nil
            }
            return rate
        }
        guard currency != settlement else { return nil }
        if let current, current.amount.currency == currency, let rate = current.rate { return rate }
        guard let rate = snapshot.rates[currency] else {
            throw ServiceError.invalid(
                "rate",
                "no rate from \(currency) to the settlement currency \(settlement): give 'rate' (1 \(currency) = "
                    + "how many \(settlement)) or add \(currency) to the trip's rates (PUT …/rates)")
        }
        return rate
    }

    /// Refuses a key not in `allowed`, naming it with its path from the body (`paidBy[0].amount`,
    /// not `amount`, which is another field) when the object is `at` a member of the body.
    static func checkKeys(_ object: [String: JSONValue], allowed: Set<String>, what: String, at path: String? = nil)
        throws
    {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw ServiceError.invalid(
                path.map { "\($0).\(key.prefix(64))" } ?? String(key.prefix(64)),
                "unknown field '\(key.prefix(64))' for \(what); the fields are: \(allowed.sorted().joined(separator: ", "))"
            )
        }
    }
}
