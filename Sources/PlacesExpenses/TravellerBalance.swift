/// One traveller's totals in the settlement currency.
public struct TravellerBalance: Hashable, Sendable {
    /// The traveller's stored reference (a member's key hex or a traveller's id).
    public var traveller: String
    /// What they paid: expenses and transfers they made.
    public var paidMinor: Int64
    /// Their share: of expenses, plus transfers they received.
    public var shareMinor: Int64
    /// `paidMinor − shareMinor`: positive means the others owe them.
    public var balanceMinor: Int64
    /// Their share of expenses (not transfers) per category; no category counts as "other".
    public var byCategory: [String: Int64]

    public init(traveller: String, paidMinor: Int64, shareMinor: Int64, byCategory: [String: Int64]) {
        self.traveller = traveller
        self.paidMinor = paidMinor
        self.shareMinor = shareMinor
        self.balanceMinor = paidMinor - shareMinor  // both in 0...Int64.max: cannot overflow
        self.byCategory = byCategory
    }
}
