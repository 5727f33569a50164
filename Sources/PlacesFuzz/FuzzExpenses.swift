import Foundation
import PlacesExpenses
import PlacesModel

/// The `expenses` fuzz target: the money code of issue 14 with whatever a peer or a client
/// could send. The first byte picks what the rest drives:
///
/// - 0: `ExpenseTerms(json:)` over the rest read as JSON text (a peer's `terms` register).
///   Accepted terms keep every rule and are canonical: `json` is the value read, and reads
///   back as the same terms; the ledger counts them with balances summing to zero.
/// - 1: `ExchangeRate(_:)` over the rest as text, then `convert` of extreme amounts
///   (Int64.min…max) between currencies of 0 to 4 minor digits: canonical text round-trips,
///   a result is nil or at most 10^12 in magnitude, with the amount's sign, symmetric in sign
///   and monotonic in the amount.
/// - 2: `Money.parse(_:currency:)` and `decimalText`: a parsed amount is 0…10^12 and its
///   decimal text parses back to it; `decimalText` of any Int64 never traps.
/// - 3: `Ledger` over entries built straight from bytes (weights and amounts negative,
///   zero, huge, up to Int64.max; travellers repeated): an error in words or balances that
///   sum to zero, debts that net to each balance, and a plan that settles every balance.
/// - 4: `Settlement.plan` over arbitrary balances (Int64 extremes, sums that overflow or
///   are not zero) and exact limits: an error in words or transfers of positive amounts,
///   at most n − 1 of them, settling every balance exactly; a plan called optimal on at most
///   7 balances has the minimal count found by brute force.
enum FuzzExpenses {
    static let currencies = ["EUR", "JPY", "BHD", "CLF", "USD", "XAU", "XXX", "eur", "EURO", ""]
    static let travellers = (0..<12).map { String(format: "%032x", $0) } + [String(repeating: "a", count: 64)]

    static func run(_ input: [UInt8]) {
        var reader = FuzzReader(input)
        guard let selector = reader.byte() else { return }
        switch selector % 5 {
        case 0: terms(reader.rest())
        case 1: rate(&reader)
        case 2: money(&reader)
        case 3: ledger(&reader)
        default: settlement(&reader)
        }
    }

    // MARK: Terms

    static func terms(_ bytes: [UInt8]) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return }
        let terms: ExpenseTerms
        do throws(FieldError) { terms = try ExpenseTerms(json: value) } catch {
            FuzzLog.note("terms refused, \(error.field): \(error.message)")
            return
        }
        FuzzLog.note("terms accepted: \(terms.amount) settled \(terms.settledMinor) \(terms.settlement)")
        precondition(terms.json == value, "accepted terms that are not in canonical form")
        precondition((try? ExpenseTerms(json: terms.json)) == terms, "canonical terms do not read back")
        let amount = terms.amount.amountMinor
        precondition((1...ExpenseTerms.maxAmountMinor).contains(amount), "an amount out of range was accepted")
        precondition(terms.paidBy.map(\.amountMinor).reduce(0, +) == amount, "payers do not sum to the amount")
        precondition((0...ExpenseTerms.maxAmountMinor).contains(terms.settledMinor), "a settled amount out of range")
        precondition((terms.rate == nil) == (terms.amount.currency == terms.settlement), "a rate where none belongs")
        switch terms.mode {
        case .exact: precondition(terms.among.map(\.weight).reduce(0, +) == amount, "exact split off")
        case .percent: precondition(terms.among.map(\.weight).reduce(0, +) == 10_000, "percentages off")
        case .equal: precondition(terms.among.allSatisfy { $0.weight == 1 })
        case .shares: precondition(terms.among.allSatisfy { $0.weight >= 1 })
        }
        let entry = LedgerEntry(
            id: "0123abcd" + String(repeating: "0", count: 24), kind: terms.kind == .transfer ? .transfer : .expense,
            amountMinor: amount, settlement: terms.settlement, settledMinor: terms.settledMinor,
            paidBy: terms.paidBy.map { .init(traveller: $0.traveller, weight: $0.amountMinor) },
            among: terms.among.map { .init(traveller: $0.traveller, weight: $0.weight) })
        guard let ledger = try? Ledger(currency: terms.settlement, entries: [entry, entry]) else {
            preconditionFailure("the ledger refused two copies of valid terms")
        }
        checkBalances(ledger)
        let shares = (try? Ledger.shares(of: entry)) ?? []
        precondition(shares.map(\.minor).reduce(0, +) == amount, "shares do not sum to the amount")
    }

    // MARK: Rates and money

    static func rate(_ reader: inout FuzzReader) {
        let text = String(decoding: reader.take(Int(reader.byte() ?? 0) % 70), as: UTF8.self)
        guard let rate = try? ExchangeRate(text) else {
            FuzzLog.note("rate '\(text)' refused")
            return
        }
        FuzzLog.note("rate \(rate)")
        let canonical = rate.description
        precondition((try? ExchangeRate(canonical))?.description == canonical, "a rate's text does not round-trip")
        precondition((try? ExchangeRate(canonical)) == rate, "a rate's canonical text reads as another rate")
        let from = currencies[Int(reader.byte() ?? 0) % 5]
        let to = currencies[Int(reader.byte() ?? 0) % 5]
        var amounts: [Int64] = [.min, .max, .min + 1, -1, 0, 1, 1_000_000_000_000, -1_000_000_000_000]
        while amounts.count < 64, case let chunk = reader.take(8), chunk.count == 8 {
            amounts.append(chunk.reduce(Int64(0)) { $0 << 8 | Int64($1) })
        }
        for amount in amounts {
            guard let converted = rate.convert(amount, from: from, to: to) else { continue }
            precondition(converted.magnitude <= 1_000_000_000_000, "a conversion above 10^12")
            precondition(amount == 0 || converted == 0 || (converted < 0) == (amount < 0), "a conversion flips sign")
            if amount != .min {
                precondition(rate.convert(-amount, from: from, to: to) == -converted, "conversion not symmetric")
            }
            if amount >= 0, amount < .max, let next = rate.convert(amount + 1, from: from, to: to) {
                precondition(next >= converted, "conversion not monotonic")
            }
        }
    }

    static func money(_ reader: inout FuzzReader) {
        let currency = currencies[Int(reader.byte() ?? 0) % currencies.count]
        let raw = reader.take(8)
        let any = raw.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        _ = Money(amountMinor: any, currency: currency).decimalText
        _ = Money(amountMinor: .min, currency: currency).description
        let text = String(decoding: reader.rest(), as: UTF8.self)
        guard let parsed = try? Money.parse(text, currency: currency) else { return }
        precondition((0...FieldRule.maxAmountMinor).contains(parsed), "a parsed amount out of range")
        let written = Money(amountMinor: parsed, currency: currency).decimalText
        precondition((try? Money.parse(written, currency: currency)) == parsed, "an amount's text does not round-trip")
    }

    // MARK: Ledger and settlement

    /// An Int64 from one byte (small amounts, zero, negatives and the extremes), or eight.
    static func amount(_ reader: inout FuzzReader) -> Int64 {
        guard let b = reader.byte() else { return 1 }
        switch b >> 5 {
        case 0: return Int64(b & 0x1f)
        case 1: return -Int64(b & 0x1f)
        case 2: return [.max, .min, .max - 1, .min + 1, 1 << 62, -(1 << 62), 1_000_000_000_000, 0][Int(b & 7)]
        case 3: return reader.take(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        default: return Int64(b) * 37
        }
    }

    static func ledger(_ reader: inout FuzzReader) {
        var entries = [LedgerEntry]()
        while entries.count < 40, let shape = reader.byte() {
            func parts(_ count: Int) -> [LedgerEntry.Part] {
                (0..<count).map { _ in
                    LedgerEntry.Part(
                        traveller: travellers[Int(reader.byte() ?? 0) % travellers.count], weight: amount(&reader))
                }
            }
            let total = amount(&reader)
            let settled = shape & 0x80 == 0 ? total : amount(&reader)
            entries.append(
                LedgerEntry(
                    id: String(format: "%08x", Int(reader.byte() ?? 0) * 16_777_259)
                        + String(repeating: "0", count: 24),
                    kind: shape & 0x40 == 0 ? .expense : .transfer, amountMinor: total,
                    settlement: shape & 0x20 == 0 ? "EUR" : "USD", settledMinor: settled,
                    paidBy: parts(1 + Int(shape & 3)), among: parts(Int(shape >> 2) & 7),
                    category: shape & 0x10 == 0 ? nil : "food"))
        }
        let currency = entries.count.isMultiple(of: 3) ? nil : "EUR"
        let ledger: Ledger
        do throws(LedgerError) { ledger = try Ledger(currency: currency, entries: entries) } catch {
            FuzzLog.note("ledger of \(entries.count) entries refused: \(error.message)")
            return
        }
        FuzzLog.note("ledger of \(entries.count) entries: \(ledger.balances.count) balances")
        checkBalances(ledger)
    }

    /// Balances sum to zero and are paid − share; debts net to each balance; the plan settles.
    static func checkBalances(_ ledger: Ledger) {
        // In 128 bits: each traveller's totals fit in 64, but the balances of several travellers
        // need not (then the settle-up planner refuses them in words).
        var sum: Int128 = 0
        for b in ledger.balances {
            precondition(b.paidMinor >= 0 && b.shareMinor >= 0, "a negative total paid or share")
            precondition(b.balanceMinor == b.paidMinor - b.shareMinor)
            sum += Int128(b.balanceMinor)
        }
        precondition(sum == 0, "balances do not sum to zero")
        let balances = ledger.balanceByTraveller
        if let debts = try? ledger.debts() {
            var net = [String: Int64]()
            for d in debts {
                precondition(d.amountMinor > 0 && d.from != d.to, "a debt of nothing or to oneself")
                net[d.to, default: 0] += d.amountMinor
                net[d.from, default: 0] -= d.amountMinor
            }
            for (traveller, balance) in balances {
                precondition((net[traveller] ?? 0) == balance, "pairwise debts do not net to the balance")
            }
        }
        if let plan = try? Settlement.plan(balances, exactLimit: 12) { checkPlan(plan, balances) }
    }

    static func settlement(_ reader: inout FuzzReader) {
        let limit = Int(reader.byte() ?? 0) % 18 - 1
        let count = Int(reader.byte() ?? 0) % 40
        var balances = [String: Int64]()
        var sum: Int64 = 0
        var overflowed = false
        for i in 0..<count {
            let value = amount(&reader)
            balances[String(format: "t%03d", i)] = value
            let (next, overflow) = sum.addingReportingOverflow(value)
            overflowed = overflowed || overflow
            sum = next
        }
        // Mostly balanced: the last one takes what makes the sum zero.
        if reader.byte().map({ $0 & 1 == 0 }) ?? true, !overflowed, sum != .min {
            balances["zzz"] = -sum
        }
        let plan: (transfers: [Transfer], optimal: Bool)
        do throws(LedgerError) { plan = try Settlement.plan(balances, exactLimit: limit) } catch {
            FuzzLog.note("plan of \(balances.count) balances refused: \(error.message)")
            return
        }
        FuzzLog.note("plan of \(balances.count) balances: \(plan.transfers.count) transfers, optimal \(plan.optimal)")
        checkPlan(plan, balances)
    }

    static func checkPlan(_ plan: (transfers: [Transfer], optimal: Bool), _ balances: [String: Int64]) {
        var left = balances
        for t in plan.transfers {
            precondition(t.amountMinor > 0 && t.from != t.to, "a transfer of nothing or to oneself")
            precondition(left[t.from] != nil && left[t.to] != nil, "a transfer names someone without a balance")
            left[t.from, default: 0] += t.amountMinor
            left[t.to, default: 0] -= t.amountMinor
        }
        precondition(left.values.allSatisfy { $0 == 0 }, "the transfers do not settle every balance")
        let nonZero = balances.values.filter { $0 != 0 }
        precondition(plan.transfers.count <= max(0, nonZero.count - 1), "more transfers than n − 1")
        if plan.optimal, nonZero.count <= 7 {
            let minimal = nonZero.count - mostZeroSumGroups(nonZero)
            precondition(plan.transfers.count == minimal, "a plan called optimal is not minimal")
        }
    }

    /// The largest number of disjoint zero-sum groups that `values` (summing to zero) split
    /// into, by trying every way to split off the group holding the first value.
    static func mostZeroSumGroups(_ values: [Int64]) -> Int {
        guard let first = values.first else { return 0 }
        let rest = Array(values.dropFirst())
        var best = 0
        for mask in 0..<(1 << rest.count) {
            var sum = first
            var overflow = false
            var others = [Int64]()
            for (i, v) in rest.enumerated() {
                if mask & (1 << i) != 0 {
                    let (s, o) = sum.addingReportingOverflow(v)
                    sum = s
                    overflow = overflow || o
                } else {
                    others.append(v)
                }
            }
            guard !overflow, sum == 0 else { continue }
            best = max(best, 1 + mostZeroSumGroups(others))
        }
        return best
    }
}
