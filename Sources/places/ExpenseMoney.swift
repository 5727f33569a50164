import ArgumentParser
import PlacesModel

/// The money part of an expense as given on the command line (`AMOUNT CURRENCY --paid-by …
/// --split … --among …`), checked before anything is sent: payers sum to the amount, exact
/// amounts cover it, percentages make 100. One payer or sharer given without a value takes
/// what the others leave.
struct ExpenseMoney {
    /// The amount in minor units of `currency`.
    var amountMinor: Int64
    var currency: String
    /// Payers with their amounts; nil amount: the single payer of the whole amount.
    var payers: [(name: String, amountMinor: Int64?)]
    var mode: SplitMode
    /// Sharers with their weight: 1 (equal), shares, minor units (exact) or basis points
    /// (percent). Empty for `equal` means every current traveller.
    var among: [(name: String, weight: Int64)]

    /// Reads and checks the options; `paidBy` empty means `me`.
    init(
        amount: String, currency: String, paidBy: [TravellerEntry], mode: SplitMode, among: [TravellerEntry],
        amountName: String = "AMOUNT"
    ) throws {
        let code = try AmountText.currency(currency)
        let minor = try AmountText.minor(amount, currency: code, what: amountName)
        self.init(
            amountMinor: minor, currency: code,
            payers: try Self.payers(paidBy.isEmpty ? [TravellerEntry(name: "me")] : paidBy, minor, code),
            mode: mode, among: try Self.among(among, mode: mode, minor, code))
    }

    init(
        amountMinor: Int64, currency: String, payers: [(name: String, amountMinor: Int64?)], mode: SplitMode,
        among: [(name: String, weight: Int64)]
    ) {
        self.amountMinor = amountMinor
        self.currency = currency
        self.payers = payers
        self.mode = mode
        self.among = among
    }

    /// Payers with their amounts checked against `total`; a single payer without an amount
    /// pays it all (sent without one).
    static func payers(
        _ entries: [TravellerEntry], _ total: Int64, _ currency: String
    ) throws -> [(name: String, amountMinor: Int64?)] {
        let show = { (minor: Int64) in AmountText.money(minor, currency) }
        if entries.count == 1 && entries[0].value == nil { return [(entries[0].name, nil)] }
        var amounts: [Int64?] = []
        for entry in entries {
            amounts.append(
                try entry.value.map {
                    try AmountText.minor($0, currency: currency, what: "--paid-by \(entry.name)")
                })
        }
        let given = amounts.compactMap { $0 }.reduce(0, +)
        let open = amounts.indices.filter { amounts[$0] == nil }
        guard open.count <= 1 else {
            throw ValidationError("--paid-by: give the amount of every payer but one (who pays the rest)")
        }
        if let rest = open.first {
            guard given < total else {
                throw ValidationError(
                    "--paid-by: the payers' amounts already make \(show(given)) of \(show(total)); "
                        + "nothing is left for \(entries[rest].name)")
            }
            amounts[rest] = total - given
        } else if given != total {
            throw ValidationError(
                "--paid-by amounts sum to \(show(given)), not the expense's \(show(total))")
        }
        return zip(entries, amounts).map { ($0.name, $1) }
    }

    /// Sharers with their weights for `mode`, checked against `total` where they must sum to it.
    static func among(
        _ entries: [TravellerEntry], mode: SplitMode, _ total: Int64, _ currency: String
    ) throws -> [(name: String, weight: Int64)] {
        switch mode {
        case .equal:
            if let valued = entries.first(where: { $0.value != nil }) {
                throw ValidationError(
                    "--split equal takes names only ('\(valued.name):\(valued.value ?? "")'); "
                        + "for 2:1:1 use --split shares")
            }
            return entries.map { ($0.name, 1) }
        case .shares:
            guard !entries.isEmpty else { throw ValidationError("--split shares needs --among ana:2,bruno,carla") }
            return try entries.map { entry in
                guard let text = entry.value else { return (entry.name, 1) }
                guard let shares = Int64(text), (1...1_000_000).contains(shares) else {
                    throw ValidationError(
                        "--among \(entry.name):\(text): shares are whole numbers from 1 to 1000000")
                }
                return (entry.name, shares)
            }
        case .exact:
            guard !entries.isEmpty else { throw ValidationError("--split exact needs --among ana:30,bruno:54.50") }
            return try rest(
                entries, total: total, option: "--split exact",
                parse: {
                    try AmountText.minor($1, currency: currency, what: "--among \($0)", allowZero: true)
                }, show: { AmountText.money($0, currency) })
        case .percent:
            guard !entries.isEmpty else { throw ValidationError("--split percent needs --among ana:50,bruno:25,carla") }
            return try rest(
                entries, total: 10_000, option: "--split percent",
                parse: { try AmountText.basisPoints($1, what: "--among \($0)") },
                show: { "\(percentText($0))%" })
        }
    }

    /// Values for `entries` where at most one may be missing and takes what is left of `total`.
    private static func rest(
        _ entries: [TravellerEntry], total: Int64, option: String, parse: (String, String) throws -> Int64,
        show: (Int64) -> String
    ) throws -> [(name: String, weight: Int64)] {
        var values: [Int64?] = try entries.map { entry in try entry.value.map { try parse(entry.name, $0) } }
        let given = values.compactMap { $0 }.reduce(0, +)
        let open = values.indices.filter { values[$0] == nil }
        guard open.count <= 1 else {
            throw ValidationError("\(option): give every traveller's part in --among but one (who gets the rest)")
        }
        if let missing = open.first {
            guard given < total else {
                throw ValidationError(
                    "\(option): the parts given already make \(show(given)) of \(show(total)); "
                        + "nothing is left for \(entries[missing].name)")
            }
            values[missing] = total - given
        } else if given != total {
            throw ValidationError("\(option): the parts in --among sum to \(show(given)), not \(show(total))")
        }
        return zip(entries, values).map { ($0.name, $1 ?? 0) }
    }

    /// "33.33", "50".
    static func percentText(_ basisPoints: Int64) -> String {
        let whole = basisPoints / 100
        let fraction = basisPoints % 100
        guard fraction != 0 else { return "\(whole)" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `amount`, `paidBy` and `split` of a request body, travellers resolved by `resolve`.
    func fill(_ body: inout JSONBody, resolve: (String) throws -> String) throws {
        body["amount"] = Money(amountMinor: amountMinor, currency: currency).jsonValue
        try fillPaidBy(&body, resolve: resolve)
        try fillSplit(&body, resolve: resolve)
    }

    /// `paidBy` only.
    func fillPaidBy(_ body: inout JSONBody, resolve: (String) throws -> String) throws {
        body["paidBy"] = .array(
            try payers.map { payer in
                var object: [String: JSONValue] = ["traveller": .string(try resolve(payer.name))]
                if let minor = payer.amountMinor { object["amountMinor"] = .int(minor) }
                return .object(object)
            })
    }

    /// `split` only.
    func fillSplit(_ body: inout JSONBody, resolve: (String) throws -> String) throws {
        var split: [String: JSONValue] = ["mode": .string(mode.rawValue)]
        if !among.isEmpty {
            split["among"] = .array(
                try among.map { part in
                    var object: [String: JSONValue] = ["traveller": .string(try resolve(part.name))]
                    switch mode {
                    case .equal: break
                    case .shares: object["shares"] = .int(part.weight)
                    case .exact: object["amountMinor"] = .int(part.weight)
                    case .percent: object["percent"] = AmountText.percentJSON(part.weight)
                    }
                    return .object(object)
                })
        }
        body["split"] = .object(split)
    }
}
