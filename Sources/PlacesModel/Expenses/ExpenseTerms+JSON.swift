extension ExpenseTerms {
    /// The stored form of the `terms` register (`Protocol/expenses.md` §5): exactly these keys,
    /// `rate` only when the expense's currency is not the settlement currency, and in
    /// `split.among` only the weight key of the mode (`shares`, `amountMinor`, `basisPoints`;
    /// none for `equal`).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(kind.rawValue),
            "amount": amount.jsonValue,
            "paidBy": .array(
                paidBy.map { .object(["traveller": .string($0.traveller), "amountMinor": .int($0.amountMinor)]) }),
            "split": .object([
                "mode": .string(mode.rawValue),
                "among": .array(
                    among.map { part in
                        var entry: [String: JSONValue] = ["traveller": .string(part.traveller)]
                        if let key = ExpenseTerms.weightKey(mode) { entry[key] = .int(part.weight) }
                        return .object(entry)
                    }),
            ]),
            "settlement": .string(settlement),
        ]
        if let rate { object["rate"] = .string(rate.description) }
        return .object(object)
    }

    /// Reads the stored form and checks every rule. Refuses anything a local write would not
    /// store byte for byte: unknown or missing keys, a weight key of another mode, numbers that
    /// are not whole, a rate not in canonical text, `"rate": null`. So
    /// `ExpenseTerms(json: x).json == x` for every `x` it accepts.
    public init(json value: JSONValue) throws(FieldError) {
        let o = try Self.object(
            value, field: "terms", keys: ["kind", "amount", "paidBy", "split", "settlement"],
            optional: "rate", what: "the terms of an expense")
        guard let kindText = o["kind"]?.stringValue, let kind = Kind(rawValue: kindText) else {
            throw FieldError("kind", "'kind' must be \"expense\" or \"transfer\"")
        }
        let a = try Self.object(
            o["amount"], field: "amount", keys: ["amountMinor", "currency"],
            what: "the amount ({\"amountMinor\": N, \"currency\": \"EUR\"})")
        guard let amountMinor = a["amountMinor"]?.intValue, let currency = a["currency"]?.stringValue else {
            throw FieldError("amount", "the amount must be {\"amountMinor\": <whole number>, \"currency\": \"EUR\"}")
        }
        guard let payerValues = o["paidBy"]?.arrayValue, payerValues.count <= Self.maxTravellers else {
            throw FieldError("paidBy", "'paidBy' must be a list of 1 to \(Self.maxTravellers) payers")
        }
        var payers = [Payer]()
        payers.reserveCapacity(payerValues.count)
        for entry in payerValues {
            let p = try Self.object(
                entry, field: "paidBy", keys: ["traveller", "amountMinor"],
                what: "a payer ({\"traveller\": ID, \"amountMinor\": N})")
            guard let traveller = p["traveller"]?.stringValue, let paid = p["amountMinor"]?.intValue else {
                throw FieldError("paidBy", "a payer is {\"traveller\": ID, \"amountMinor\": <whole number>}")
            }
            payers.append(Payer(traveller: traveller, amountMinor: paid))
        }
        let s = try Self.object(
            o["split"], field: "split", keys: ["mode", "among"],
            what: "the split ({\"mode\": …, \"among\": […]})")
        guard let modeText = s["mode"]?.stringValue, let mode = Mode(rawValue: modeText) else {
            throw FieldError("split", "the split's mode must be equal, shares, exact or percent")
        }
        guard let partValues = s["among"]?.arrayValue, partValues.count <= Self.maxTravellers else {
            throw FieldError("split", "the split's 'among' must be a list of 1 to \(Self.maxTravellers) travellers")
        }
        let weightKey = Self.weightKey(mode)
        let partKeys = weightKey.map { ["traveller", $0] } ?? ["traveller"]
        var parts = [Part]()
        parts.reserveCapacity(partValues.count)
        for entry in partValues {
            let p = try Self.object(
                entry, field: "split", keys: partKeys,
                what: "a traveller of a split by \(mode.rawValue) (keys: \(partKeys.sorted().joined(separator: ", ")))")
            guard let traveller = p["traveller"]?.stringValue else {
                throw FieldError("split", "each traveller of the split is {\"traveller\": ID, …}")
            }
            var weight: Int64 = 1
            if let weightKey {
                guard let w = p[weightKey]?.intValue else {
                    throw FieldError(
                        "split", "'\(weightKey)' of the traveller \(traveller.prefix(70)) must be a whole number")
                }
                weight = w
            }
            parts.append(Part(traveller: traveller, weight: weight))
        }
        guard let settlement = o["settlement"]?.stringValue else {
            throw FieldError("settlement", "'settlement' must be an ISO 4217 code such as EUR")
        }
        var rate: ExchangeRate?
        if let r = o["rate"] {
            guard let text = r.stringValue else {
                throw FieldError("rate", "'rate' must be a decimal number written as a string, such as \"1.0834\"")
            }
            let parsed = try ExchangeRate(text)
            guard parsed.description == text else {
                throw FieldError("rate", "the rate '\(text.prefix(64))' must be written \(parsed)")
            }
            rate = parsed
        }
        try self.init(
            kind: kind, amount: Money(amountMinor: amountMinor, currency: currency), paidBy: payers, mode: mode,
            among: parts, settlement: settlement, rate: rate)
    }

    /// The key of a split entry's weight in `mode`; nil for `equal`.
    static func weightKey(_ mode: Mode) -> String? {
        switch mode {
        case .equal: nil
        case .shares: "shares"
        case .exact: "amountMinor"
        case .percent: "basisPoints"
        }
    }

    /// `value`'s members when it is an object with every key of `keys`, any of `optional`, and
    /// no other. (Decoding every expense of a trip goes through here: the message is built
    /// only when the value is refused.)
    private static func object(
        _ value: JSONValue?, field: String, keys: [String], optional: String? = nil,
        what: @autoclosure () -> String
    ) throws(FieldError) -> [String: JSONValue] {
        guard let o = value?.objectValue else { throw FieldError(field, "\(what()) must be a JSON object") }
        var expected = keys.count
        if let optional, o[optional] != nil { expected += 1 }
        if o.count == expected, keys.allSatisfy({ o[$0] != nil }) { return o }
        if let unknown = o.keys.sorted().first(where: { !keys.contains($0) && $0 != optional }) {
            throw FieldError(field, "unknown key '\(unknown.prefix(64))' in \(what())")
        }
        let missing = keys.sorted().first(where: { o[$0] == nil }) ?? ""
        throw FieldError(field, "'\(missing)' is missing from \(what())")
    }
}
