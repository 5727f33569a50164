import Testing

@testable import PlacesModel

/// Seeded random expenses (the package has no property-testing library; failures reproduce
/// from the seed): valid terms round-trip through their stored form, one minor unit off is
/// always refused, and whatever `init(json:)` accepts is exactly what `json` writes.
@Suite struct ExpenseTermsPropertyTests {
    static let currencies = ["EUR", "USD", "JPY", "BHD", "CLF", "KRW", "GBP"]

    struct Generator {
        var rng: SeededRandom

        mutating func int(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &rng) }
        mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

        /// Distinct traveller references, members (64 hex) and named travellers (32 hex).
        mutating func travellers(_ n: Int) -> [String] {
            var out = [String]()
            var seen = Set<String>()
            while out.count < n {
                let ref = String(UInt64.random(in: 0...UInt64.max, using: &rng), radix: 16)
                let hex = String(repeating: "0", count: 16 - ref.count) + ref
                let full =
                    Bool.random(using: &rng) ? String(repeating: hex, count: 4) : String(repeating: hex, count: 2)
                if seen.insert(full).inserted { out.append(full) }
            }
            return out
        }

        /// `total` cut into `n` parts, each ≥ `minimum` (total ≥ n × minimum).
        mutating func cut(_ total: Int64, into n: Int, minimum: Int64) -> [Int64] {
            var cuts = (0..<(n - 1)).map { _ in int(0...(total - Int64(n) * minimum)) }.sorted()
            cuts.insert(0, at: 0)
            cuts.append(total - Int64(n) * minimum)
            return (0..<n).map { cuts[$0 + 1] - cuts[$0] + minimum }
        }

        mutating func terms() throws(FieldError) -> ExpenseTerms {
            let currency = pick(ExpenseTermsPropertyTests.currencies)
            let settlement = Bool.random(using: &rng) ? currency : pick(ExpenseTermsPropertyTests.currencies)
            let amount = max(1, int(1...1_000_000_000_000) >> int(0...36))
            let payerCount = Int(min(amount, int(1...4) == 4 ? int(1...100) : int(1...3)))
            let people = travellers(Int(int(1...12)) + payerCount)
            let payers = zip(people.prefix(payerCount), cut(amount, into: payerCount, minimum: 1)).map {
                ExpenseTerms.Payer(traveller: $0, amountMinor: $1)
            }
            let mode = pick(ExpenseTerms.Mode.allCases)
            let sharers = Array(people.shuffled(using: &rng).prefix(Int(int(1...Int64(min(people.count, 100))))))
            let weights: [Int64]
            switch mode {
            case .equal: weights = sharers.map { _ in 1 }
            case .shares: weights = sharers.map { _ in max(1, int(1...ExpenseTerms.maxShares) >> int(0...19)) }
            case .exact: weights = cut(amount, into: sharers.count, minimum: 0)
            case .percent:
                let n = min(sharers.count, 100)
                weights = cut(ExpenseTerms.fullBasisPoints, into: n, minimum: 1)
            }
            var rate: ExchangeRate?
            if currency != settlement {
                // A rate that keeps the converted total within 10^12 most of the time.
                let scale = Int(int(0...6))
                rate = try ExchangeRate(ExchangeRateTests.text(int(1...99_999), scale))
            }
            return try ExpenseTerms(
                kind: .expense, amount: Money(amountMinor: amount, currency: currency), paidBy: payers, mode: mode,
                among: zip(sharers, weights).map { ExpenseTerms.Part(traveller: $0, weight: $1) },
                settlement: settlement, rate: rate)
        }
    }

    @Test func validTermsRoundTripThroughTheirStoredForm() throws {
        var g = Generator(rng: SeededRandom(state: 2026))
        var made = 0
        for _ in 0..<3_000 {
            let terms: ExpenseTerms
            do { terms = try g.terms() } catch {
                // Only a conversion past 10^12 may refuse a generated expense.
                #expect(error.field == "rate", "\(error)")
                continue
            }
            made += 1
            let stored = terms.json
            #expect(try ExpenseTerms(json: stored) == terms)
            #expect(try FieldRule.expenseTerms.validate("terms", stored) == stored)
            let expected =
                terms.rate.map {
                    $0.convert(terms.amount.amountMinor, from: terms.amount.currency, to: terms.settlement)
                }
                ?? terms.amount.amountMinor
            #expect(terms.settledMinor == expected)
            #expect(terms.travellers == Set(terms.paidBy.map(\.traveller) + terms.among.map(\.traveller)))
        }
        #expect(made > 2_500)
    }

    @Test func oneMinorUnitOffIsAlwaysRefused() throws {
        var g = Generator(rng: SeededRandom(state: 99))
        for _ in 0..<1_000 {
            guard let terms = try? g.terms() else { continue }
            for delta: Int64 in [-1, 1] {
                var paidBy = terms.paidBy
                let i = Int(g.int(0...Int64(paidBy.count - 1)))
                paidBy[i].amountMinor += delta
                #expect(throws: FieldError.self) {
                    try ExpenseTerms(
                        kind: terms.kind, amount: terms.amount, paidBy: paidBy, mode: terms.mode, among: terms.among,
                        settlement: terms.settlement, rate: terms.rate)
                }
                guard terms.mode == .exact || terms.mode == .percent else { continue }
                var among = terms.among
                among[Int(g.int(0...Int64(among.count - 1)))].weight += delta
                do {
                    _ = try ExpenseTerms(
                        kind: terms.kind, amount: terms.amount, paidBy: terms.paidBy, mode: terms.mode, among: among,
                        settlement: terms.settlement, rate: terms.rate)
                    Issue.record("a split one unit off was accepted: \(among)")
                } catch {
                    #expect(error.field == "split")
                }
            }
        }
    }

    /// Random edits of a stored value: each is refused with a message, or accepted only if it
    /// is exactly the canonical form of what it decodes to (so peers cannot store variants).
    @Test func whateverIsAcceptedIsCanonical() throws {
        var g = Generator(rng: SeededRandom(state: 7))
        let junk: [JSONValue] = [
            .null, .bool(true), .int(0), .int(-1), .int(1), .int(Int64.max), .double(1.5), .string(""), .string("EUR"),
            .string("1.50"), .array([]), .object([:]), .string(ExpenseTermsJSONTests.ana),
        ]
        var accepted = 0
        for _ in 0..<5_000 {
            guard let terms = try? g.terms() else { continue }
            let mutated = mutate(terms.json, with: &g, junk: junk)
            guard let decoded = try? ExpenseTerms(json: mutated) else { continue }
            accepted += 1
            #expect(decoded.json == mutated, "accepted a non-canonical form: \(mutated)")
        }
        #expect(accepted > 0)
    }

    /// Replaces one value somewhere in `value` by junk, or removes or adds an object key.
    func mutate(_ value: JSONValue, with g: inout Generator, junk: [JSONValue]) -> JSONValue {
        switch value {
        case .object(var o) where !o.isEmpty && g.int(0...3) > 0:
            let key = g.pick(o.keys.sorted())
            switch g.int(0...5) {
            case 0: o[key] = nil
            case 1: o["x" + key] = g.pick(junk)
            case 2: o[key] = g.pick(junk)
            default: o[key] = mutate(o[key] ?? .null, with: &g, junk: junk)
            }
            return .object(o)
        case .array(var a) where !a.isEmpty && g.int(0...3) > 0:
            let i = Int(g.int(0...Int64(a.count - 1)))
            switch g.int(0...4) {
            case 0: a.remove(at: i)
            case 1: a.append(a[i])
            default: a[i] = mutate(a[i], with: &g, junk: junk)
            }
            return .array(a)
        case .int(let n):
            return g.pick([.int(n &+ 1), .int(n &- 1), .double(Double(n)), .string(String(n)), .int(0)])
        default:
            return g.pick(junk)
        }
    }
}
