/// A ``Ledger``'s sums kept while expenses come and go: adding or taking out one expense costs
/// its own payers and sharers, not the trip's. ``ledger()`` answers exactly what
/// `Ledger(currency:entries:)` answers for the entries held (tests compare the two over random
/// sequences of changes): every expense is apportioned alone, and every part is a whole number
/// of minor units ≥ 0, so the sums do not depend on the order the expenses came in.
///
/// The tally counts in one currency, fixed when it is made. When a change would make the ledger
/// count in another (``resolvedCurrency`` differs from ``currency``) or a sum leaves 64 bits or
/// an expense cannot be apportioned (``isExact`` turns false), the caller counts anew with
/// `Ledger(currency:entries:)`, which also says what went wrong.
public struct LedgerTally: Sendable {
    /// The currency the sums are in: the trip's, else the one most entries settled in when the
    /// tally was made.
    public let currency: String?
    /// The trip's settlement currency as given (nil: the most used one counts).
    public let given: String?
    /// False once a sum overflowed or an entry could not be apportioned: the sums are no longer
    /// the entries' and the tally must not be used.
    public private(set) var isExact = true

    private var travellers = Interner()
    private var categories = Interner()
    /// Per traveller number: how many parts of held entries name them (a traveller no entry
    /// names any more is not listed).
    private var mentions = [Int]()
    private var paid = [Int64]()
    private var share = [Int64]()
    /// Spending by traveller number << 32 | category number (Interner numbers are < 2^31).
    private var spending = [Int: Int64]()
    /// How many entries settle in each currency (the most used one counts when none is given).
    private var uses = [String: Int]()
    /// Ids of entries settled in another currency than `currency`.
    private var unconverted = Set<String>()
    private var split = Apportioned.Buffers()
    /// The traveller numbers of the entry being counted: its payers', then its sharers'.
    private var people = [Int]()

    /// A tally of `entries` for the trip's currency `given` (nil: the one most entries settle in).
    public init(currency given: String?, entries: [LedgerEntry]) {
        self.given = given
        currency = given ?? Ledger.mostUsedSettlement(entries)
        for entry in entries { add(entry) }
    }

    /// The currency the ledger would count in now: differs from ``currency`` when taking or
    /// adding entries changed the most used one (and none is given).
    public var resolvedCurrency: String? {
        if let given { return given }
        return uses.min { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }?.key
    }

    /// Counts `entry` in (an entry with its id must not be held already).
    public mutating func add(_ entry: LedgerEntry) {
        apply(entry, sign: 1)
    }

    /// Takes `entry` out: the very value given to ``add(_:)`` or ``init(currency:entries:)``.
    public mutating func remove(_ entry: LedgerEntry) {
        apply(entry, sign: -1)
    }

    private mutating func apply(_ entry: LedgerEntry, sign: Int) {
        uses[entry.settlement, default: 0] += sign
        if uses[entry.settlement] == 0 { uses[entry.settlement] = nil }
        people.removeAll(keepingCapacity: true)
        for part in entry.paidBy {
            let at = mention(part.traveller, sign)
            people.append(at)
        }
        for part in entry.among {
            let at = mention(part.traveller, sign)
            people.append(at)
        }
        guard isExact else { return }
        guard entry.settlement == currency else {
            if sign > 0 { unconverted.insert(entry.id) } else { unconverted.remove(entry.id) }
            return
        }
        do {
            try split.apportion(entry)
        } catch {
            isExact = false
            return
        }
        let category = entry.kind == .expense ? categories.index(entry.categoryKey) : -1
        for (k, minor) in split.paid.enumerated() {
            guard let sum = Self.move(paid[people[k]], minor, sign) else {
                isExact = false
                return
            }
            paid[people[k]] = sum
        }
        let payers = entry.paidBy.count
        for (k, minor) in split.shares.enumerated() {
            let at = people[payers + k]
            guard let sum = Self.move(share[at], minor, sign) else {
                isExact = false
                return
            }
            share[at] = sum
            guard category >= 0 else { continue }
            let cell = at << 32 | category
            guard let spent = Self.move(spending[cell, default: 0], minor, sign) else {
                isExact = false
                return
            }
            spending[cell] = spent == 0 ? nil : spent
        }
    }

    /// The number of `traveller`, with one mention more (or fewer).
    private mutating func mention(_ traveller: String, _ sign: Int) -> Int {
        let at = travellers.index(traveller)
        if at == mentions.count {
            mentions.append(0)
            paid.append(0)
            share.append(0)
        }
        mentions[at] += sign
        return at
    }

    /// `total` plus or minus `minor`, nil when it leaves 64 bits.
    private static func move(_ total: Int64, _ minor: Int64, _ sign: Int) -> Int64? {
        let (sum, overflow) =
            sign > 0 ? total.addingReportingOverflow(minor) : total.subtractingReportingOverflow(minor)
        return overflow ? nil : sum
    }

    /// The ledger of the entries held; nil when the tally is not exact (count anew). `entries`
    /// gives them all again (in any order), only if the ledger's ``Ledger/debts()`` are asked for.
    public func ledger(entries: @escaping @Sendable () -> [LedgerEntry]) -> Ledger? {
        guard isExact else { return nil }
        let names = travellers.names
        var byCategory = [Int: [String: Int64]]()
        for (cell, minor) in spending {
            byCategory[cell >> 32, default: [:]][categories.names[cell & 0xFFFF_FFFF]] = minor
        }
        let balances = names.indices.filter { mentions[$0] > 0 }.sorted { names[$0] < names[$1] }.map { at in
            TravellerBalance(
                traveller: names[at], paidMinor: paid[at], shareMinor: share[at], byCategory: byCategory[at] ?? [:])
        }
        let currency = currency
        return Ledger(
            currency: currency, balances: balances, unconverted: unconverted.sorted(),
            counted: .deferred { entries().filter { $0.settlement == currency } })
    }
}
