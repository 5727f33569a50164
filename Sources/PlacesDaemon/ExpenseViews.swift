import PlacesCrypto
import PlacesExpenses
import PlacesModel
import PlacesStore

/// The API objects of expenses, travellers, balances, settle-up and debts
/// (`Protocol/control-api.yaml`), read from an `ExpenseSnapshot`.
enum ExpenseViews {
    /// `Traveller`.
    static func traveller(_ entry: TravellerDirectory.Entry, expenseCount: Int) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(entry.id), "name": .string(entry.name), "member": .bool(entry.member),
            "expenseCount": .int(Int64(expenseCount)),
        ]
        if entry.gone { o[entry.member ? "left" : "removed"] = .bool(true) }
        return .object(o)
    }

    /// `{"travellers": [Traveller], "count"}`.
    static func travellers(_ snapshot: ExpenseSnapshot) throws -> JSONValue {
        var counts = [String: Int]()
        for expense in try snapshot.expenses() {
            for ref in expense.terms.travellers { counts[ref, default: 0] += 1 }
        }
        let d = snapshot.directory
        let list = d.order(referenced: Set(counts.keys)).map { traveller(d.entry($0), expenseCount: counts[$0] ?? 0) }
        return .object(["travellers": .array(list), "count": .int(Int64(list.count))])
    }

    /// `Expense`.
    static func expense(_ p: ExpenseSnapshot.Parsed, in snapshot: ExpenseSnapshot, names: (PublicKey) -> String)
        -> JSONValue
    {
        let d = snapshot.directory
        var o: [String: JSONValue] = [
            "id": .string(p.record.id), "title": .string(p.fields["title"]?.stringValue ?? ""),
            "createdAt": .string(RFC3339.string(ms: p.record.createdMs ?? 0)),
        ]
        for key in ["date", "category", "itemId"] {
            if let v = p.fields[key], !v.isNull { o[key] = v }
        }
        if let hex = p.record.createdBy, let key = Engine.publicKey(hex: hex) {
            o["createdBy"] = .string(key.humanID)
            o["createdByName"] = .string(names(key))
        }
        if let updated = p.record.updatedMs { o["updatedAt"] = .string(RFC3339.string(ms: updated)) }
        let terms = p.terms
        o["kind"] = .string(terms.kind.rawValue)
        o["amount"] = terms.amount.jsonValue
        o["settlementAmount"] = Money(amountMinor: terms.settledMinor, currency: terms.settlement).jsonValue
        if let rate = terms.rate { o["rate"] = .string(rate.description) }
        o["paidBy"] = .array(
            terms.paidBy.map { payer in
                .object([
                    "traveller": .string(d.apiID(payer.traveller)), "name": .string(d.name(payer.traveller)),
                    "amountMinor": .int(payer.amountMinor),
                ])
            })
        let shares = Dictionary(
            ExpenseSnapshot.shares(of: p).map { ($0.traveller, $0.minor) }, uniquingKeysWith: +)
        o["split"] = .object([
            "mode": .string(terms.mode.rawValue),
            "among": .array(
                terms.among.map { part in
                    var e: [String: JSONValue] = [
                        "traveller": .string(d.apiID(part.traveller)), "name": .string(d.name(part.traveller)),
                        "shareMinor": .int(shares[part.traveller] ?? 0),
                    ]
                    switch terms.mode {
                    case .equal: break
                    case .shares: e["shares"] = .int(part.weight)
                    case .exact: e["amountMinor"] = .int(part.weight)
                    case .percent: e["percent"] = .number(Double(part.weight) / 100)
                    }
                    return .object(e)
                }),
        ])
        return .object(o)
    }

    /// `{"currency", "balances", "unconverted"}`.
    static func balances(_ snapshot: ExpenseSnapshot) throws -> JSONValue {
        let d = snapshot.directory
        let ledger = try snapshot.ledger()
        // Every traveller, in the travellers' order, with zeros for those in no expense.
        let counted = Dictionary(ledger.balances.map { ($0.traveller, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = d.order(referenced: Set(counted.keys)).map {
            counted[$0] ?? TravellerBalance(traveller: $0, paidMinor: 0, shareMinor: 0, byCategory: [:])
        }
        let list = rows.map { b -> JSONValue in
            .object([
                "traveller": .string(d.apiID(b.traveller)), "name": .string(d.name(b.traveller)),
                "paidMinor": .int(b.paidMinor), "shareMinor": .int(b.shareMinor), "balanceMinor": .int(b.balanceMinor),
                "byCategory": .object(b.byCategory.mapValues { .int($0) }),
            ])
        }
        return .object([
            "currency": snapshot.currency.map(JSONValue.string) ?? .null, "balances": .array(list),
            "unconverted": .array(ledger.unconverted.map(JSONValue.string)),
        ])
    }

    static func transfers(_ list: [Transfer], _ d: TravellerDirectory) -> JSONValue {
        .array(
            list.map { t in
                .object([
                    "from": .string(d.apiID(t.from)), "fromName": .string(d.name(t.from)),
                    "to": .string(d.apiID(t.to)), "toName": .string(d.name(t.to)), "amountMinor": .int(t.amountMinor),
                ])
            })
    }

    /// `{"currency", "transfers", "optimal"}`.
    static func settlement(_ snapshot: ExpenseSnapshot) throws -> JSONValue {
        let plan = try snapshot.plan()
        return .object([
            "currency": snapshot.currency.map(JSONValue.string) ?? .null,
            "transfers": transfers(plan.transfers, snapshot.directory), "optimal": .bool(plan.optimal),
        ])
    }

    /// `{"currency", "debts"}`: who owes whom pair by pair, without simplification.
    /// The most payer × sharer pairs pairwise debts are worked out over: each pair of each
    /// expense is a share to apportion, and an editor's 20,000 expenses of 100 payers and 100
    /// sharers would hold the engine for minutes. Real trips are far below (10,000 ordinary
    /// expenses are about 100,000 pairs).
    static let maxDebtPairs = 5_000_000

    static func debts(_ snapshot: ExpenseSnapshot) throws -> JSONValue {
        var pairs = 0
        for expense in try snapshot.expenses() {
            pairs += expense.terms.paidBy.count * expense.terms.among.count
            guard pairs <= maxDebtPairs else {
                throw ServiceError.conflict(
                    "ledger-too-large",
                    "this trip's expenses have more than \(maxDebtPairs) payer-and-sharer pairs: too many to work "
                        + "out who owes whom pair by pair (balances and settle-up still answer)")
            }
        }
        let debts: [Transfer]
        do { debts = try snapshot.ledger().debts() } catch let error as LedgerError {
            throw ExpenseSnapshot.problem(error)
        }
        return .object([
            "currency": snapshot.currency.map(JSONValue.string) ?? .null,
            "debts": transfers(debts, snapshot.directory),
        ])
    }

    // MARK: CSV

    /// `expenses.csv`: one row per expense, amounts in major units.
    static func expensesCSV(_ snapshot: ExpenseSnapshot) throws -> String {
        let d = snapshot.directory
        func major(_ minor: Int64, _ currency: String) -> String {
            Money(amountMinor: minor, currency: currency).decimalText
        }
        let rows = try snapshot.expenses().map { p -> [CSVWriter.Cell] in
            let t = p.terms
            let c = t.amount.currency
            let paid = t.paidBy.map { "\(d.name($0.traveller)) \(major($0.amountMinor, c))" }
            let split = ExpenseSnapshot.shares(of: p).map { "\(d.name($0.traveller)) \(major($0.minor, c))" }
            return [
                .text(p.fields["date"]?.stringValue ?? ""), .text(p.fields["title"]?.stringValue ?? ""),
                .text(t.kind.rawValue), .text(p.fields["category"]?.stringValue ?? ""),
                .number(t.amount.decimalText), .text(c), .number(t.rate?.description ?? ""),
                .number(major(t.settledMinor, t.settlement)), .text(t.settlement),
                .text(paid.joined(separator: "; ")), .text("\(t.mode.rawValue): " + split.joined(separator: "; ")),
            ]
        }
        return CSVWriter.document(
            header: [
                "date", "title", "kind", "category", "amount", "currency", "rate", "settlement amount",
                "settlement currency", "paid by", "split",
            ], rows: rows)
    }

    /// `balances.csv`: one row per traveller.
    static func balancesCSV(_ snapshot: ExpenseSnapshot) throws -> String {
        let d = snapshot.directory
        let currency = snapshot.currency ?? ""
        func major(_ minor: Int64) -> CSVWriter.Cell {
            .number(Money(amountMinor: minor, currency: currency).decimalText)
        }
        let counted = Dictionary(
            try snapshot.ledger().balances.map { ($0.traveller, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = d.order(referenced: Set(counted.keys)).compactMap { counted[$0] }.map { b -> [CSVWriter.Cell] in
            [
                .text(d.name(b.traveller)), major(b.paidMinor), major(b.shareMinor), major(b.balanceMinor),
                .text(currency),
            ]
        }
        return CSVWriter.document(header: ["traveller", "paid", "share", "balance", "currency"], rows: rows)
    }
}
