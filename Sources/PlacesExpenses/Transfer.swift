/// A payment from one traveller to another: a settle-up suggestion or a pairwise debt.
/// Travellers are named by their stored reference (a member's key hex or a traveller's id).
public struct Transfer: Hashable, Sendable, CustomStringConvertible {
    /// Who pays.
    public var from: String
    /// Who is paid.
    public var to: String
    /// How much, in minor units of the settlement currency (always positive).
    public var amountMinor: Int64

    public init(from: String, to: String, amountMinor: Int64) {
        self.from = from
        self.to = to
        self.amountMinor = amountMinor
    }

    public var description: String { "\(from) → \(to): \(amountMinor)" }
}
