import PlacesModel

extension LedgerEntry {
    /// What the ledger reads of a stored expense: its checked `terms` (PlacesModel), its id and
    /// category. Equal splits weigh 1 each, shares by their shares, exact amounts by their minor
    /// units, percentages by their basis points (docs/expenses.md).
    public init(id: String, terms: ExpenseTerms, category: String?) {
        self.init(
            id: id, kind: terms.kind == .transfer ? .transfer : .expense, amountMinor: terms.amount.amountMinor,
            settlement: terms.settlement, settledMinor: terms.settledMinor,
            paidBy: terms.paidBy.map { Part(traveller: $0.traveller, weight: $0.amountMinor) },
            among: terms.among.map { Part(traveller: $0.traveller, weight: $0.weight) }, category: category)
    }
}
