extension Ledger {
    /// Who owes whom, pair by pair, without simplification: in each expense every sharer owes each
    /// payer part of their share in proportion to what that payer paid; the amounts are netted per
    /// pair of travellers. Sorted by payer then payee reference.
    ///
    /// Each expense's shares-by-payer table is rounded so that its rows add up to the shares and its
    /// columns to the amounts paid, exactly; so each traveller's debts and credits net to their balance.
    /// - Throws: ``LedgerError`` when a sum overflows.
    public func debts() throws(LedgerError) -> [Transfer] {
        var travellers = Interner()
        var owed = [Int: Int64]()  // from << 32 | to (Interner numbers are < 2^31)
        var split = Apportioned.Buffers()
        var payers = [Int]()
        try counted.forEach { entry throws(LedgerError) in
            try split.apportion(entry)
            payers.removeAll(keepingCapacity: true)
            for payer in entry.paidBy { payers.append(travellers.index(payer.traveller)) }
            let table = Ledger.owedTable(
                shares: split.shares, paid: split.paid, total: entry.settledMinor, id: entry.id)
            for (row, sharer) in entry.among.enumerated() {
                let from = travellers.index(sharer.traveller)
                for (column, to) in payers.enumerated() where to != from {
                    let amount = table[row * payers.count + column]
                    guard amount > 0 else { continue }
                    let key = from << 32 | to
                    owed[key] = try Ledger.add(owed[key, default: 0], amount, "debt of \(sharer.traveller)")
                }
            }
        }
        let names = travellers.names
        var debts = [Transfer]()
        for (key, amount) in owed {
            let from = key >> 32
            let to = key & 0xFFFF_FFFF
            // Both directions are ≥ 0, so the difference cannot overflow; keep the positive one once.
            let net = amount - owed[to << 32 | from, default: 0]
            if net > 0 { debts.append(Transfer(from: names[from], to: names[to], amountMinor: net)) }
        }
        return debts.sorted { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to }
    }

    /// Row-major table (sharer × payer) of what each sharer owes each payer in one expense:
    /// share × paid / total rounded down, then the leftover units placed so that every row sums to
    /// the share and every column to the amount paid (largest remainder first, ties rotated by
    /// the expense id like the remainder rule).
    static func owedTable(shares: [Int64], paid: [Int64], total: Int64, id: String) -> [Int64] {
        let rows = shares.count
        let columns = paid.count
        if columns == 1 { return shares }
        if rows == 1 { return paid }
        var table = [Int64](repeating: 0, count: rows * columns)
        guard total > 0 else { return table }
        let divisor = UInt64(total)
        var remainders = [UInt64](repeating: 0, count: rows * columns)
        var rowLeft = shares
        var columnLeft = paid
        for row in 0..<rows {
            for column in 0..<columns {
                // share × paid / total ≤ paid (share ≤ total), so the quotient fits.
                let product = UInt64(shares[row]).multipliedFullWidth(by: UInt64(paid[column]))
                let (quotient, remainder) = divisor.dividingFullWidth(product)
                let floor = Int64(quotient)
                table[row * columns + column] = floor
                remainders[row * columns + column] = remainder
                rowLeft[row] -= floor
                columnLeft[column] -= floor
            }
        }
        let start = Apportionment.offset(forID: id, count: columns)
        for row in 0..<rows where rowLeft[row] > 0 {
            let order = (0..<columns).sorted { a, b in
                let ra = remainders[row * columns + a]
                let rb = remainders[row * columns + b]
                if ra != rb { return ra > rb }
                return (a - start + columns) % columns < (b - start + columns) % columns
            }
            // One unit per cell first; if the columns with room run out, fill what room is left.
            // Σ rowLeft = Σ columnLeft throughout, so the row always finds room.
            for column in order where rowLeft[row] > 0 && columnLeft[column] > 0 {
                table[row * columns + column] += 1
                rowLeft[row] -= 1
                columnLeft[column] -= 1
            }
            for column in order where rowLeft[row] > 0 && columnLeft[column] > 0 {
                let moved = min(rowLeft[row], columnLeft[column])
                table[row * columns + column] += moved
                rowLeft[row] -= moved
                columnLeft[column] -= moved
            }
        }
        return table
    }
}
