/// A deterministic trip for benchmarks: the 20 travellers and 10,000 expenses, with every
/// split mode, several payers now and then, transfers, categories, and expenses in USD and JPY
/// converted to EUR. The same seed always gives the same trip.
public struct LedgerBenchFixture: Sendable {
    /// The travellers' references: the first five look like members (64 hex), the rest like
    /// named travellers (32 hex).
    public let travellers: [String]
    /// The expenses and transfers, all settled in EUR.
    public let entries: [LedgerEntry]
    /// The settlement currency.
    public let currency = "EUR"

    public init(travellers count: Int = 20, expenses: Int = 10_000, seed: UInt64 = 14) {
        var random = SplitMix64(seed: seed)
        let travellers = (0..<max(count, 2)).map { index in
            let hex = String(random.next(), radix: 16) + String(random.next(), radix: 16) + String(index, radix: 16)
            let padded = String(repeating: "0", count: 64) + hex
            return String(padded.suffix(index < 5 ? 64 : 32))
        }
        self.travellers = travellers
        let categories = ["food", "lodging", "transport", "fun", nil]
        var entries = [LedgerEntry]()
        entries.reserveCapacity(expenses)
        for number in 0..<expenses {
            let id = String(String(repeating: "0", count: 32) + String(random.next(), radix: 16)).suffix(32)
            let roll = random.next() % 100
            let amount = Int64(random.next() % 50_000) + 100
            let (settled, settlement): (Int64, String) =
                switch random.next() % 10 {
                case 0: ((amount * 61 + 50) / 100, "EUR")  // JPY at 0.0061: yen → cents
                case 1, 2: ((amount * 92 + 50) / 100, "EUR")  // USD at 0.92
                default: (amount, "EUR")
                }
            if roll < 5 {
                let from = Int(random.next() % UInt64(travellers.count))
                let to = (from + 1 + Int(random.next() % UInt64(travellers.count - 1))) % travellers.count
                entries.append(
                    LedgerEntry(
                        id: String(id), kind: .transfer, amountMinor: amount, settlement: settlement,
                        settledMinor: settled, paidBy: [.init(traveller: travellers[from], weight: amount)],
                        among: [.init(traveller: travellers[to], weight: amount)]))
                continue
            }
            let people = Self.pick(2 + Int(random.next() % UInt64(travellers.count - 1)), of: travellers, &random)
            let among: [LedgerEntry.Part] =
                switch number % 4 {
                case 0: people.map { .init(traveller: $0, weight: 1) }
                case 1: people.map { .init(traveller: $0, weight: Int64(1 + random.next() % 4)) }
                case 2:
                    zip(people, Self.cut(amount, into: people.count, &random)).map { .init(traveller: $0, weight: $1) }
                default:
                    zip(people, Self.cut(10_000, into: people.count, &random)).map { .init(traveller: $0, weight: $1) }
                }
            let payerCount = roll < 20 ? 2 + Int(random.next() % 2) : 1
            let payers = Self.pick(payerCount, of: travellers, &random)
            let paidBy = zip(payers, Self.cut(amount, into: payers.count, &random)).map {
                LedgerEntry.Part(traveller: $0, weight: $1)
            }
            entries.append(
                LedgerEntry(
                    id: String(id), amountMinor: amount, settlement: settlement, settledMinor: settled, paidBy: paidBy,
                    among: among, category: categories[Int(random.next() % UInt64(categories.count))]))
        }
        self.entries = entries
    }

    /// `count` distinct travellers in a random order.
    private static func pick(_ count: Int, of travellers: [String], _ random: inout SplitMix64) -> [String] {
        var pool = travellers
        var chosen = [String]()
        for _ in 0..<min(count, pool.count) {
            chosen.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
        }
        return chosen
    }

    /// `total` (≥ parts) cut into `parts` positive amounts.
    private static func cut(_ total: Int64, into parts: Int, _ random: inout SplitMix64) -> [Int64] {
        var left = total
        var amounts = [Int64]()
        for index in 0..<parts {
            let remaining = Int64(parts - index - 1)
            let amount = remaining == 0 ? left : 1 + Int64(random.next() % UInt64(max(left - remaining, 1)))
            amounts.append(min(amount, left - remaining))
            left -= amounts[amounts.count - 1]
        }
        return amounts
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, the same on every platform.
/// Internal: PlacesRoutes has a public one of the same name.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
