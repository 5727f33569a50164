/// One expense in settlement minor units: what each payer paid and each sharer's share, both
/// apportioned from the converted total with the remainder rule, so that they net to exactly 0.
enum Apportioned {
    /// Reusable arrays for apportioning many expenses one after the other.
    struct Buffers {
        /// The last expense's payments and shares in settlement minor units (entry order).
        private(set) var paid = [Int64]()
        private(set) var shares = [Int64]()
        private var own = [Int64]()
        private var remainders = [UInt64]()

        /// Splits in the expense currency by the weights, then apportions the converted total to
        /// the payers (by what they paid) and the sharers (by their shares), all with the remainder rule.
        mutating func apportion(_ entry: LedgerEntry) throws(LedgerError) {
            let among = entry.among
            let payers = entry.paidBy
            let sharerOffset = Apportionment.offset(forID: entry.id, count: among.count)
            let payerOffset = Apportionment.offset(forID: entry.id, count: payers.count)
            guard
                Apportionment.split(
                    entry.amountMinor, count: among.count, offset: sharerOffset, into: &own, &remainders,
                    weight: { among[$0].weight })
            else { throw Apportioned.invalid(entry) }
            if entry.settledMinor == entry.amountMinor {
                swap(&shares, &own)
            } else {
                let own = own
                guard
                    Apportionment.split(
                        entry.settledMinor, count: own.count, offset: sharerOffset, into: &shares, &remainders,
                        weight: { own[$0] })
                else { throw Apportioned.invalid(entry) }
            }
            guard
                Apportionment.split(
                    entry.settledMinor, count: payers.count, offset: payerOffset, into: &paid, &remainders,
                    weight: { payers[$0].weight })
            else { throw Apportioned.invalid(entry) }
        }
    }

    static func invalid(_ entry: LedgerEntry) -> LedgerError {
        LedgerError(
            .invalidExpense,
            "The expense \(entry.id) cannot be split: its amounts must not be negative and its payers and "
                + "split must have something to share by.")
    }
}
