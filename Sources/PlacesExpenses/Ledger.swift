/// Balances of a trip's expenses in its settlement currency: a pure function of the expenses,
/// the same on every device and for any order of the same expenses.
///
/// Each expense is apportioned with ``Apportionment`` (split in the expense currency, then the
/// converted total apportioned to payers and sharers), so each one nets to exactly 0 and the
/// balances always sum to 0. Every sum is checked: too much money is a ``LedgerError``, never a trap.
public struct Ledger: Sendable {
    /// The settlement currency; nil only when there are no expenses and none was given.
    public let currency: String?
    /// Every traveller any expense mentions (also unconverted ones, then maybe with zeros),
    /// sorted by reference.
    public let balances: [TravellerBalance]
    /// Ids of expenses converted to another settlement currency than `currency`, sorted: they
    /// are left out of the balances until they are re-entered with a rate to `currency`.
    public let unconverted: [String]
    /// The expenses counted, each with its settlement amounts (for ``debts()``).
    let counted: [Apportioned]

    /// Computes the balances.
    /// - Parameters:
    ///   - currency: the trip's settlement currency; nil takes the one most expenses were converted
    ///     to (ties: the first code in alphabetical order), so that the answer does not depend on
    ///     the order of `entries`.
    ///   - entries: the trip's expenses and transfers, in any order.
    /// - Throws: ``LedgerError`` when a sum overflows or an entry cannot be apportioned.
    public init(currency: String?, entries: [LedgerEntry]) throws(LedgerError) {
        let currency = currency ?? Ledger.mostUsedSettlement(entries)
        self.currency = currency
        var index = [String: Int]()
        var refs = [String]()
        var paid = [Int64]()
        var share = [Int64]()
        var categories = [[String: Int64]]()
        func slot(_ traveller: String) -> Int {
            if let known = index[traveller] { return known }
            index[traveller] = refs.count
            refs.append(traveller)
            paid.append(0)
            share.append(0)
            categories.append([:])
            return refs.count - 1
        }
        var unconverted = [String]()
        var counted = [Apportioned]()
        counted.reserveCapacity(entries.count)
        for entry in entries {
            for part in entry.paidBy { _ = slot(part.traveller) }
            for part in entry.among { _ = slot(part.traveller) }
            guard entry.settlement == currency else {
                unconverted.append(entry.id)
                continue
            }
            let amounts = try Apportioned(entry)
            for (payer, minor) in zip(entry.paidBy, amounts.paid) {
                let at = slot(payer.traveller)
                paid[at] = try Ledger.add(paid[at], minor, "total paid by \(payer.traveller)")
            }
            let category = entry.kind == .expense ? entry.categoryKey : nil
            for (sharer, minor) in zip(entry.among, amounts.shares) {
                let at = slot(sharer.traveller)
                share[at] = try Ledger.add(share[at], minor, "total share of \(sharer.traveller)")
                if let category {
                    let spent = categories[at][category, default: 0]
                    categories[at][category] = try Ledger.add(spent, minor, "spending on \(category)")
                }
            }
            counted.append(amounts)
        }
        balances = refs.indices.sorted { refs[$0] < refs[$1] }.map {
            TravellerBalance(traveller: refs[$0], paidMinor: paid[$0], shareMinor: share[$0], byCategory: categories[$0])
        }
        self.unconverted = unconverted.sorted()
        self.counted = counted
    }

    /// Each traveller's balance by reference, zeros included (the input of ``Settlement/plan(_:exactLimit:)``).
    public var balanceByTraveller: [String: Int64] {
        Dictionary(balances.map { ($0.traveller, $0.balanceMinor) }, uniquingKeysWith: +)
    }

    /// The fewest transfers that settle every balance (see ``Settlement/plan(_:exactLimit:)``).
    public func settlement(exactLimit: Int = Settlement.defaultExactLimit) throws(LedgerError) -> (
        transfers: [Transfer], optimal: Bool
    ) {
        try Settlement.plan(balanceByTraveller, exactLimit: exactLimit)
    }

    /// How an entry splits into minor units of the expense currency, in the order of `among`.
    public static func shares(of entry: LedgerEntry) throws(LedgerError) -> [(traveller: String, minor: Int64)] {
        let weights = entry.among.map(\.weight)
        guard
            let parts = Apportionment.split(
                entry.amountMinor, weights: weights, offset: Apportionment.offset(forID: entry.id, count: weights.count))
        else { throw Apportioned.invalid(entry) }
        return zip(entry.among, parts).map { ($0.traveller, $1) }
    }

    static func add(_ a: Int64, _ b: Int64, _ what: @autoclosure () -> String) throws(LedgerError) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw LedgerError.overflow(what()) }
        return sum
    }

    static func mostUsedSettlement(_ entries: [LedgerEntry]) -> String? {
        var uses = [String: Int]()
        for entry in entries { uses[entry.settlement, default: 0] += 1 }
        return uses.min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }?.key
    }
}
