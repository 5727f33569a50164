/// One expense in settlement minor units: what each payer paid and each sharer's share, both
/// apportioned from the converted total with the remainder rule, so they net to exactly 0.
struct Apportioned: Sendable {
    /// The travellers who paid, as in the entry, and their amounts.
    let payers: [String]
    let paid: [Int64]
    /// The travellers who share, as in the entry, and their shares.
    let sharers: [String]
    let shares: [Int64]
    /// The converted total (Σ paid = Σ shares = total).
    let total: Int64
    /// The remainder rule's tie-break offset source.
    let id: String

    init(_ entry: LedgerEntry) throws(LedgerError) {
        let id = entry.id
        let sharerWeights = entry.among.map(\.weight)
        let sharerOffset = Apportionment.offset(forID: id, count: sharerWeights.count)
        let payerWeights = entry.paidBy.map(\.weight)
        guard
            let ownShares = Apportionment.split(entry.amountMinor, weights: sharerWeights, offset: sharerOffset),
            let shares = Apportionment.split(entry.settledMinor, weights: ownShares, offset: sharerOffset),
            let paid = Apportionment.split(
                entry.settledMinor, weights: payerWeights,
                offset: Apportionment.offset(forID: id, count: payerWeights.count))
        else { throw Apportioned.invalid(entry) }
        self.payers = entry.paidBy.map(\.traveller)
        self.paid = paid
        self.sharers = entry.among.map(\.traveller)
        self.shares = shares
        self.total = entry.settledMinor
        self.id = id
    }

    static func invalid(_ entry: LedgerEntry) -> LedgerError {
        LedgerError(
            .invalidExpense,
            "The expense \(entry.id) cannot be split: its amounts must not be negative and its payers and "
                + "split must have something to share by.")
    }
}
