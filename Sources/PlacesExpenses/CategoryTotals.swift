/// Each traveller's spending per category while the ledger sums: a dense table when travellers ×
/// categories is small (as on any real trip), a dictionary when a peer made it huge.
struct CategoryTotals {
    private let categories: Int
    private var dense: [Int64]
    private var sparse = [Int: Int64]()
    private let isDense: Bool

    init(travellers: Int, categories: Int) {
        self.categories = categories
        let (cells, overflow) = travellers.multipliedReportingOverflow(by: categories)
        isDense = !overflow && cells <= 1 << 20
        dense = isDense ? [Int64](repeating: 0, count: cells) : []
    }

    mutating func add(_ minor: Int64, traveller: Int, category: Int, name: () -> String) throws(LedgerError) {
        if isDense {
            let cell = traveller * categories + category  // < travellers × categories ≤ 2^20
            dense[cell] = try Ledger.add(dense[cell], minor, "spending on \(name())")
        } else {
            let key = traveller << 32 | category  // both < 2^31: Interner numbers
            sparse[key] = try Ledger.add(sparse[key, default: 0], minor, "spending on \(name())")
        }
    }

    /// Each traveller's non-zero totals by category name, indexed by traveller number.
    func totals(travellers: Int, names: [String]) -> [[String: Int64]] {
        var totals = [[String: Int64]](repeating: [:], count: travellers)
        if isDense {
            for traveller in 0..<travellers {
                for category in 0..<categories where dense[traveller * categories + category] != 0 {
                    totals[traveller][names[category]] = dense[traveller * categories + category]
                }
            }
        } else {
            for (key, value) in sparse where value != 0 {
                totals[key >> 32][names[key & 0xFFFF_FFFF]] = value
            }
        }
        return totals
    }
}
