/// Everything about an expense that involves money, kept as one register (`terms`) so that
/// concurrent edits can never combine into an inconsistent expense: who paid how much, how it
/// is split, in which currency, and the rate to the trip's settlement currency frozen when it
/// was entered (`Protocol/expenses.md` §5).
///
/// A value of this type always meets every rule: the initializers check them all and throw a
/// `FieldError` naming the API field (`amount`, `paidBy`, `split`, `rate`, `kind`,
/// `settlement`) and saying exactly what is wrong.
public struct ExpenseTerms: Hashable, Sendable {
    /// An expense, or a transfer (a payment between two travellers to settle up).
    public enum Kind: String, Sendable, CaseIterable {
        case expense, transfer
    }

    /// How the amount is split among travellers.
    public enum Mode: String, Sendable, CaseIterable {
        /// Equally (every weight 1).
        case equal
        /// By shares, e.g. 2:1:1 (weights 1…1,000,000).
        case shares
        /// By exact amounts in minor units (weights 0…amount, summing to the amount).
        case exact
        /// By percentages in basis points (weights 1…10,000 hundredths of a percent, summing
        /// to 10,000).
        case percent
    }

    /// One payer: a traveller and what they paid, in minor units of the expense's currency.
    public struct Payer: Hashable, Sendable {
        /// A traveller reference: a member's public key (64 lowercase hex) or a named
        /// traveller's entity id (32 lowercase hex).
        public var traveller: String
        /// What they paid, ≥ 1.
        public var amountMinor: Int64

        public init(traveller: String, amountMinor: Int64) {
            self.traveller = traveller
            self.amountMinor = amountMinor
        }
    }

    /// One traveller the expense is split among, with their weight in the split's mode.
    public struct Part: Hashable, Sendable {
        /// A traveller reference (as `Payer.traveller`).
        public var traveller: String
        /// equal: 1; shares: the number of shares; exact: the amount in minor units of the
        /// expense's currency; percent: basis points (3333 = 33.33 %).
        public var weight: Int64

        public init(traveller: String, weight: Int64) {
            self.traveller = traveller
            self.weight = weight
        }
    }

    /// The most payers, and the most travellers an expense is split among.
    public static let maxTravellers = 100
    /// The largest number of shares one traveller may have.
    public static let maxShares: Int64 = 1_000_000
    /// 100 % in basis points.
    public static let fullBasisPoints: Int64 = 10_000
    /// The largest amount, and the largest converted amount, in minor units: 10^12.
    public static let maxAmountMinor: Int64 = FieldRule.maxAmountMinor

    /// An expense or a transfer.
    public let kind: Kind
    /// The total, 1…10^12 minor units of an ISO 4217 currency with a minor unit.
    public let amount: Money
    /// Who paid: 1…100 distinct travellers, each ≥ 1, summing exactly to `amount`.
    public let paidBy: [Payer]
    /// How `among` weighs.
    public let mode: Mode
    /// Who shares it: 1…100 distinct travellers, in the order the remainder rule uses.
    public let among: [Part]
    /// The settlement currency `rate` converts to (the trip's when the expense was entered).
    public let settlement: String
    /// 1 unit of `amount.currency` = `rate` units of `settlement`; present iff they differ.
    public let rate: ExchangeRate?
    /// The amount converted to `settlement` (rounded half away from zero), in its minor units;
    /// `amount.amountMinor` when the currencies are the same.
    public let settledMinor: Int64

    /// Checks every rule (`Protocol/expenses.md` §5) and builds the terms. For `equal` the
    /// weights given are ignored (each is 1).
    public init(
        kind: Kind, amount: Money, paidBy: [Payer], mode: Mode, among: [Part], settlement: String,
        rate: ExchangeRate?
    ) throws(FieldError) {
        let currency = amount.currency
        guard CurrencyTable.minorDigits(currency) != nil else {
            throw FieldError("amount", ExpenseTerms.currencyProblem(currency, what: "the amount's currency"))
        }
        guard amount.amountMinor >= 1, amount.amountMinor <= ExpenseTerms.maxAmountMinor else {
            let largest = Money(amountMinor: ExpenseTerms.maxAmountMinor, currency: currency)
            throw FieldError(
                "amount", "the amount must be more than zero and at most \(largest); it is \(amount)")
        }
        guard CurrencyTable.minorDigits(settlement) != nil else {
            throw FieldError("settlement", ExpenseTerms.currencyProblem(settlement, what: "the settlement currency"))
        }
        try ExpenseTerms.checkPayers(paidBy, amount: amount)
        let parts = mode == .equal ? among.map { Part(traveller: $0.traveller, weight: 1) } : among
        try ExpenseTerms.checkSplit(parts, mode: mode, amount: amount)
        if kind == .transfer {
            try ExpenseTerms.checkTransfer(paidBy: paidBy, mode: mode, among: parts)
        }
        let settled: Int64
        switch (currency == settlement, rate) {
        case (true, nil):
            settled = amount.amountMinor
        case (true, .some):
            throw FieldError(
                "rate", "an expense in the settlement currency \(settlement) has no rate; leave 'rate' out")
        case (false, nil):
            throw FieldError(
                "rate",
                "an expense in \(currency) needs the rate from \(currency) to the settlement currency \(settlement)")
        case (false, .some(let r)):
            guard let converted = r.convert(amount.amountMinor, from: currency, to: settlement) else {
                let largest = Money(amountMinor: ExpenseTerms.maxAmountMinor, currency: settlement)
                throw FieldError("rate", "\(amount) at the rate \(r) is more than \(largest)")
            }
            settled = converted
        }
        self.kind = kind
        self.amount = amount
        self.paidBy = paidBy
        self.mode = mode
        self.among = parts
        self.settlement = settlement
        self.rate = rate
        self.settledMinor = settled
    }

    /// Every traveller the expense mentions (payers and sharers).
    public var travellers: Set<String> {
        Set(paidBy.map(\.traveller)).union(among.map(\.traveller))
    }

    /// Whether `s` is a traveller reference: 64 lowercase hex (a member's key) or 32 (a named
    /// traveller's id).
    public static func isTravellerRef(_ s: String) -> Bool {
        // Every expense of a trip is checked on each read: scan the contiguous UTF-8 once.
        var s = s
        return s.withUTF8 { bytes in
            (bytes.count == 64 || bytes.count == 32)
                && bytes.allSatisfy { b in (48...57).contains(b) || (97...102).contains(b) }
        }
    }

    static func currencyProblem(_ code: String, what: String) -> String {
        if CurrencyTable.contains(code) { return "\(what) \(code) has no minor unit: money cannot be kept in it" }
        return "\(what) '\(code.prefix(16))' is not an ISO 4217 currency code such as EUR or JPY"
    }

    /// 1…100 distinct traveller references; `place` names the list in messages.
    private static func checkTravellers(_ refs: [String], field: String, place: String) throws(FieldError) {
        guard (1...maxTravellers).contains(refs.count) else {
            throw FieldError(field, "\(place) must list 1 to \(maxTravellers) travellers; it lists \(refs.count)")
        }
        var seen = Set<String>()
        seen.reserveCapacity(refs.count)
        for ref in refs {
            guard isTravellerRef(ref) else {
                throw FieldError(
                    field, "'\(ref.prefix(70))' in \(place) is not a traveller (a member's key or a traveller id)")
            }
            guard seen.insert(ref).inserted else {
                throw FieldError(field, "the traveller \(ref) is listed twice in \(place)")
            }
        }
    }

    private static func checkPayers(_ paidBy: [Payer], amount: Money) throws(FieldError) {
        try checkTravellers(paidBy.map(\.traveller), field: "paidBy", place: "'paidBy'")
        let money = { (minor: Int64) in Money(amountMinor: minor, currency: amount.currency) }
        var sum: Int64 = 0
        for payer in paidBy {
            // Each at most the amount (≤ 10^12) and at most 100 of them: the sum cannot overflow.
            guard payer.amountMinor >= 1, payer.amountMinor <= amount.amountMinor else {
                throw FieldError(
                    "paidBy",
                    "the payer \(payer.traveller) paid \(money(payer.amountMinor)); "
                        + "a payer pays more than zero and at most the amount \(amount)")
            }
            sum += payer.amountMinor
        }
        guard sum == amount.amountMinor else {
            throw FieldError("paidBy", "payers sum to \(money(sum)) but the amount is \(amount)")
        }
    }

    private static func checkSplit(_ among: [Part], mode: Mode, amount: Money) throws(FieldError) {
        try checkTravellers(among.map(\.traveller), field: "split", place: "the split")
        let money = { (minor: Int64) in Money(amountMinor: minor, currency: amount.currency) }
        var sum: Int64 = 0
        for part in among {
            let who = "the traveller \(part.traveller)"
            switch mode {
            case .equal:
                continue
            case .shares:
                guard (1...maxShares).contains(part.weight) else {
                    throw FieldError("split", "\(who) has \(part.weight) shares; shares are 1 to \(maxShares)")
                }
            case .exact:
                guard (0...amount.amountMinor).contains(part.weight) else {
                    throw FieldError(
                        "split", "\(who) has \(money(part.weight)); an exact share is 0 to the amount \(amount)")
                }
            case .percent:
                guard (1...fullBasisPoints).contains(part.weight) else {
                    throw FieldError(
                        "split",
                        "\(who) has \(percentText(part.weight)) %; a percentage is more than 0 and at most 100")
                }
            }
            sum += part.weight  // each bounded, at most 100: no overflow
        }
        switch mode {
        case .exact where sum != amount.amountMinor:
            throw FieldError("split", "the exact amounts sum to \(money(sum)) but the amount is \(amount)")
        case .percent where sum != fullBasisPoints:
            throw FieldError("split", "the percentages sum to \(percentText(sum)) % but must sum to exactly 100 %")
        default:
            break
        }
    }

    private static func checkTransfer(paidBy: [Payer], mode: Mode, among: [Part]) throws(FieldError) {
        guard paidBy.count == 1 else {
            throw FieldError("paidBy", "a transfer has exactly one payer; this one has \(paidBy.count)")
        }
        guard mode == .exact, among.count == 1 else {
            throw FieldError(
                "split",
                "a transfer goes to exactly one traveller: split 'exact' with one traveller and the whole amount")
        }
        guard among[0].traveller != paidBy[0].traveller else {
            throw FieldError("split", "a transfer goes to a traveller other than the payer")
        }
    }

    /// Basis points as a percentage: 9999 → "99.99", 10000 → "100", 3350 → "33.5", -5 → "-0.05".
    static func percentText(_ basisPoints: Int64) -> String {
        let magnitude = basisPoints.magnitude
        var fraction = String(magnitude % 100)
        if fraction.count < 2 { fraction = "0" + fraction }
        while fraction.last == "0" { fraction.removeLast() }
        let sign = basisPoints < 0 ? "-" : ""
        return sign + (fraction.isEmpty ? "\(magnitude / 100)" : "\(magnitude / 100).\(fraction)")
    }
}
