/// One expense or transfer as the ledger reads it: plain numbers, independent of how it is stored.
///
/// Weights say how the expense is split: 1 each for an equal split, the shares for 2:1:1, the
/// exact amounts in minor units, or basis points for percentages. Parts are
/// floor(amount × weight / Σ weights) plus the remainder rule (``Apportionment``), so every mode
/// is one computation, and exact amounts or percentages that sum right come out exactly.
public struct LedgerEntry: Hashable, Sendable {
    /// An expense is shared and shows in spending by category; a transfer is a payment from one
    /// traveller to another (its single sharer is the one paid) and does not.
    public enum Kind: String, Hashable, Sendable {
        case expense, transfer
    }

    /// A traveller with a weight: what they paid (minor units of the expense currency) or
    /// their weight in the split.
    public struct Part: Hashable, Sendable {
        /// The traveller's stored reference (a member's key hex or a traveller's id).
        public var traveller: String
        /// Minor units paid, or the weight in the split.
        public var weight: Int64

        public init(traveller: String, weight: Int64) {
            self.traveller = traveller
            self.weight = weight
        }
    }

    /// The expense's id (its first 8 hex digits pick the remainder rule's tie-break offset).
    public var id: String
    /// Expense or transfer.
    public var kind: Kind
    /// The total in minor units of the expense's own currency.
    public var amountMinor: Int64
    /// The settlement currency the total was converted to.
    public var settlement: String
    /// The total converted once to `settlement` (equal to `amountMinor` when no conversion).
    public var settledMinor: Int64
    /// Who paid how much, in minor units of the expense currency (in the stored order).
    public var paidBy: [Part]
    /// Who shares the expense, with their weights (in the stored `among` order).
    public var among: [Part]
    /// The expense's category; nil or empty counts as "other".
    public var category: String?

    public init(
        id: String, kind: Kind = .expense, amountMinor: Int64, settlement: String, settledMinor: Int64? = nil,
        paidBy: [Part], among: [Part], category: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.amountMinor = amountMinor
        self.settlement = settlement
        self.settledMinor = settledMinor ?? amountMinor
        self.paidBy = paidBy
        self.among = among
        self.category = category
    }

    /// The category spending is counted under.
    var categoryKey: String {
        guard let category, !category.isEmpty else { return "other" }
        return category
    }
}
