/// Activity words for travellers, expenses and payments: "Ana added the expense “Dinner at
/// Ramiro” (84.50 EUR)", "Bruno recorded the payment of 41.20 EUR from Bruno to Ana".
extension ActivityWording {
    /// Whether rows of `kind` are worded with `expensePhrase`.
    public static func isExpenseKind(_ kind: String) -> Bool {
        kind == EntityKind.expense.rawValue || kind == EntityKind.traveller.rawValue
    }

    /// How activity names a traveller or an expense from its fields; `name` names a
    /// traveller by their stored reference.
    public static func expensePhrase(kind: String, fields: [String: JSONValue], name: (String) -> String) -> String {
        if kind == EntityKind.traveller.rawValue {
            return "the traveller \(fields["name"]?.stringValue ?? "without a name")"
        }
        let title = fields["title"]?.stringValue ?? "an expense"
        guard let terms = fields["terms"].flatMap({ try? ExpenseTerms(json: $0) }) else {
            return "the expense “\(title)”"
        }
        if terms.kind == .transfer, let from = terms.paidBy.first, let to = terms.among.first {
            return "the payment of \(terms.amount) from \(name(from.traveller)) to \(name(to.traveller))"
        }
        return "the expense “\(title)” (\(terms.amount))"
    }

    /// The sentence of a row about a traveller or an expense; `phrase` names it.
    static func expenseSummary(_ row: Row, who: String, phrase: String, schema: Schema) -> String? {
        let action = ActivityAction(rawValue: row.action)
        if action == .created, phrase.hasPrefix("the payment") { return "\(who) recorded \(phrase)" }
        guard action == .edited, row.field == ExpenseFields.terms.name else {
            return tripFolderSummary(row, who: who, phrase: phrase, schema: schema)
        }
        let old = row.old.flatMap { try? ExpenseTerms(json: $0) }
        let new = row.new.flatMap { try? ExpenseTerms(json: $0) }
        if let old, let new, old.amount != new.amount {
            return "\(who) changed the amount of \(phrase) from \(old.amount) to \(new.amount)"
        }
        return "\(who) changed who paid or how \(phrase) is split"
    }
}
