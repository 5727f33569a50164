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
    /// The expenses counted (for ``debts()``).
    let counted: Counted

    /// The expenses a ledger counted: a list, or for a ``LedgerTally``'s ledger, made when
    /// ``debts()`` asks (a tally keeps no copy of its entries per change).
    enum Counted: Sendable {
        case list([LedgerEntry])
        case deferred(@Sendable () -> [LedgerEntry])

        func forEach(_ body: (LedgerEntry) throws(LedgerError) -> Void) throws(LedgerError) {
            switch self {
            case .list(let entries): for entry in entries { try body(entry) }
            case .deferred(let make): for entry in make() { try body(entry) }
            }
        }
    }

    /// A ledger of sums made elsewhere (``LedgerTally``).
    init(currency: String?, balances: [TravellerBalance], unconverted: [String], counted: Counted) {
        self.currency = currency
        self.balances = balances
        self.unconverted = unconverted
        self.counted = counted
    }

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
        // First pass: number the travellers and categories, so that the sums below run over
        // plain arrays instead of hashing a 64-character reference for every share.
        var travellers = Interner()
        var categories = Interner()
        var slots = [Int32]()  // per counted entry: its payers' numbers, then its sharers'
        var categoryOf = [Int32]()  // per counted entry: its category's number, or -1 for a transfer
        var unconverted = [String]()
        var counted = [LedgerEntry]()
        counted.reserveCapacity(entries.count)
        for entry in entries {
            guard entry.settlement == currency else {
                for part in entry.paidBy { _ = travellers.index(part.traveller) }
                for part in entry.among { _ = travellers.index(part.traveller) }
                unconverted.append(entry.id)
                continue
            }
            for part in entry.paidBy { slots.append(Int32(truncatingIfNeeded: travellers.index(part.traveller))) }
            for part in entry.among { slots.append(Int32(truncatingIfNeeded: travellers.index(part.traveller))) }
            categoryOf.append(
                entry.kind == .expense ? Int32(truncatingIfNeeded: categories.index(entry.categoryKey)) : -1)
            counted.append(entry)
        }
        // Second pass: the sums, each one checked.
        let people = travellers.count
        var paid = [Int64](repeating: 0, count: people)
        var share = [Int64](repeating: 0, count: people)
        var spending = CategoryTotals(travellers: people, categories: categories.count)
        var split = Apportioned.Buffers()
        var next = 0
        for (number, entry) in counted.enumerated() {
            try split.apportion(entry)
            for minor in split.paid {
                let at = Int(slots[next])
                next += 1
                paid[at] = try Ledger.add(paid[at], minor, "total paid by \(travellers.names[at])")
            }
            let category = Int(categoryOf[number])
            for minor in split.shares {
                let at = Int(slots[next])
                next += 1
                share[at] = try Ledger.add(share[at], minor, "total share of \(travellers.names[at])")
                if category >= 0 {
                    try spending.add(minor, traveller: at, category: category) { categories.names[category] }
                }
            }
        }
        let names = travellers.names
        let byCategory = spending.totals(travellers: people, names: categories.names)
        balances = names.indices.sorted { names[$0] < names[$1] }.map { at in
            TravellerBalance(
                traveller: names[at], paidMinor: paid[at], shareMinor: share[at], byCategory: byCategory[at])
        }
        self.unconverted = unconverted.sorted()
        self.counted = .list(counted)
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
                entry.amountMinor, weights: weights, offset: Apportionment.offset(forID: entry.id, count: weights.count)
            )
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
