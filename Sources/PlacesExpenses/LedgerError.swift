/// Why balances, debts or a settlement could not be computed. Never a trap: a peer controls
/// the expenses, so every sum is checked and a failure is reported in words.
public struct LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for the API's error code.
    public enum Code: String, Hashable, Sendable {
        /// A sum of minor units does not fit in 64 bits (more money than the ledger can count).
        case overflow
        /// An expense cannot be apportioned (negative amounts, no weight to split by).
        case invalidExpense
        /// Balances given to the settle-up planner do not sum to zero.
        case unbalanced
    }

    /// What went wrong.
    public var code: Code
    /// A sentence saying what and where, for a person.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func overflow(_ what: String) -> LedgerError {
        LedgerError(
            .overflow, "The \(what) is too large to count (over 9.2 × 10^18 minor units); check for huge amounts.")
    }
}
