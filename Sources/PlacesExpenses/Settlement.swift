/// Settle-up suggestions: the fewest transfers that bring every balance to exactly zero.
///
/// n non-zero balances that split into g disjoint groups each summing to zero can be settled with
/// n − g transfers (k − 1 inside a group of k), and no fewer; so the plan maximises g
/// (docs/expenses.md). Exact opposites are paired first (always part of some optimal plan), then an
/// exact search over subsets handles up to `exactLimit` remaining balances; beyond it a heuristic
/// answers and says whether its answer is provably minimal. Inside a group, debtors pay creditors by
/// the north-west-corner rule in reference order, so paying one suggestion exactly leaves the others
/// as they were whenever the grouping stays the same. Deterministic: the same balances give the same
/// list on every device.
public enum Settlement {
    /// The default number of balances (left after pairing exact opposites) searched exactly.
    /// 22 is the largest that stays under 150 ms in a release build on the development machine
    /// (docs/expenses.md has the figures).
    public static let defaultExactLimit = 24
    /// The exact search needs 2^n bytes of memory: it is never run on more than this many balances.
    public static let maximumExactLimit = 24
    /// Beyond the exact limit, up to this many balances are split at zero-sum subsets found by
    /// meeting in the middle (2 × 2^16 subset sums); when there is none, settling them as one
    /// group is proven minimal.
    static let provableLimit = 32

    /// The transfers that settle `balances` (minor units by traveller reference; positive: is owed).
    /// - Returns: the transfers, sorted by payer then payee; `optimal` is true when their number is
    ///   proven minimal (always, up to `exactLimit` balances left after pairing exact opposites).
    /// - Throws: ``LedgerError`` when the balances do not sum to zero or their sum overflows.
    public static func plan(_ balances: [String: Int64], exactLimit: Int = defaultExactLimit) throws(LedgerError) -> (
        transfers: [Transfer], optimal: Bool
    ) {
        let people = balances.filter { $0.value != 0 }.map { Balance(traveller: $0.key, minor: $0.value) }
            .sorted { $0.traveller < $1.traveller }
        try checkBalanced(people)
        var (groups, rest) = pairOpposites(people)
        var optimal = true
        let limit = min(max(exactLimit, 0), maximumExactLimit)
        if rest.count <= limit {
            // Most trips' balances have no zero-sum subset but the whole: then they are one
            // group, found by meeting in the middle (2 × 2^(n/2) sums) without the exact
            // search over all 2^n subsets (3.7 ms for 20 balances).
            let whole = rest.count > 3 && properZeroSumSubset(rest) == nil
            groups += whole ? [rest] : exactGroups(rest)
        } else if rest.count <= provableLimit {
            // Split at any zero-sum subsets, or take small groups first: whichever finds more.
            let split = splitGroups(rest, exactLimit: limit)
            let small = heuristicGroups(rest, exactLimit: limit)
            // One group that no zero-sum subset splits: n − 1 transfers are the minimum.
            optimal = split.count == 1
            groups += small.count > split.count ? small : split
        } else {
            groups += heuristicGroups(rest, exactLimit: limit)
            optimal = false
        }
        var transfers = [Transfer]()
        for group in groups { transfers += northWestCorner(group) }
        if !optimal {
            let debtors = people.count(where: { $0.minor < 0 })
            optimal = transfers.count == max(debtors, people.count - debtors)
        }
        transfers.sort { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to }
        return (transfers, optimal)
    }

    /// A traveller's non-zero balance.
    struct Balance: Hashable, Sendable {
        var traveller: String
        var minor: Int64
    }

    /// Refuses balances that do not sum to zero, and any whose partial sums could overflow: once
    /// the positive ones sum within 64 bits, every subset sum does too.
    static func checkBalanced(_ people: [Balance]) throws(LedgerError) {
        var owed: Int64 = 0
        var owing: Int64 = 0
        for person in people {
            if person.minor > 0 {
                owed = try Ledger.add(owed, person.minor, "total owed")
            } else {
                guard person.minor != .min else { throw LedgerError.overflow("total owing") }
                owing = try Ledger.add(owing, -person.minor, "total owing")
            }
        }
        guard owed == owing else {
            throw LedgerError(
                .unbalanced,
                "The balances do not add up to zero (\(owed) owed against \(owing) owing): nothing to settle.")
        }
    }

    /// Pairs each balance with an exact opposite where there is one (in reference order among
    /// equal amounts): such a pair is a group of some optimal plan. Returns the pairs and the rest,
    /// still in reference order.
    static func pairOpposites(_ people: [Balance]) -> (pairs: [[Balance]], rest: [Balance]) {
        var waiting = [Int64: [Int]]()  // amount → indices of unpaired balances of that amount, in order
        var partner = [Int?](repeating: nil, count: people.count)
        for (index, person) in people.enumerated() {
            if var others = waiting[-person.minor], !others.isEmpty {
                let other = others.removeFirst()
                waiting[-person.minor] = others
                partner[other] = index
                partner[index] = other
            } else {
                waiting[person.minor, default: []].append(index)
            }
        }
        var pairs = [[Balance]]()
        var rest = [Balance]()
        for (index, person) in people.enumerated() {
            if let other = partner[index] {
                if other > index { pairs.append([person, people[other]]) }
            } else {
                rest.append(person)
            }
        }
        return (pairs, rest)
    }

    /// Debtors pay creditors in reference order, each payment as large as both allow.
    static func northWestCorner(_ group: [Balance]) -> [Transfer] {
        var debtors = group.filter { $0.minor < 0 }.sorted { $0.traveller < $1.traveller }
        var creditors = group.filter { $0.minor > 0 }.sorted { $0.traveller < $1.traveller }
        var transfers = [Transfer]()
        var d = 0
        var c = 0
        while d < debtors.count && c < creditors.count {
            let amount = min(-debtors[d].minor, creditors[c].minor)
            transfers.append(Transfer(from: debtors[d].traveller, to: creditors[c].traveller, amountMinor: amount))
            debtors[d].minor += amount
            creditors[c].minor -= amount
            if debtors[d].minor == 0 { d += 1 }
            if creditors[c].minor == 0 { c += 1 }
        }
        return transfers
    }
}
