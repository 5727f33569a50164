extension Ledger {
    /// Who owes whom, pair by pair, without simplification: in each expense every sharer owes each
    /// payer part of their share in proportion to what that payer paid; the amounts are netted per
    /// pair of travellers. Sorted by payer then payee reference.
    ///
    /// Each expense's shares-by-payer table is rounded so that its rows add up to the shares and its
    /// columns to the amounts paid, exactly; so each traveller's debts and credits net to their balance.
    /// - Throws: ``LedgerError`` when a sum overflows.
    public func debts() throws(LedgerError) -> [Transfer] {
        var owed = [Pair: Int64]()
        for entry in counted {
            let expense = try Apportioned(entry)
            let table = Ledger.owedTable(expense)
            for (row, sharer) in expense.sharers.enumerated() {
                for (column, payer) in expense.payers.enumerated() where payer != sharer {
                    let amount = table[row * expense.payers.count + column]
                    guard amount > 0 else { continue }
                    let pair = Pair(from: sharer, to: payer)
                    owed[pair] = try Ledger.add(owed[pair, default: 0], amount, "debt of \(sharer) to \(payer)")
                }
            }
        }
        var debts = [Transfer]()
        for (pair, amount) in owed {
            // Both directions are ≥ 0, so the difference cannot overflow; keep the positive one once.
            let net = amount - owed[Pair(from: pair.to, to: pair.from), default: 0]
            if net > 0 { debts.append(Transfer(from: pair.from, to: pair.to, amountMinor: net)) }
        }
        return debts.sorted { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to }
    }

    private struct Pair: Hashable {
        var from: String
        var to: String
    }

    /// Row-major table (sharer × payer) of what each sharer owes each payer in one expense:
    /// share × paid / total rounded down, then the leftover units placed so that every row sums to
    /// the share and every column to the amount paid (largest remainder first, ties rotated by
    /// the expense id like the remainder rule).
    static func owedTable(_ expense: Apportioned) -> [Int64] {
        let rows = expense.shares.count
        let columns = expense.paid.count
        if columns == 1 { return expense.shares }
        if rows == 1 { return expense.paid }
        var table = [Int64](repeating: 0, count: rows * columns)
        guard expense.total > 0 else { return table }
        let total = UInt64(expense.total)
        var remainders = [UInt64](repeating: 0, count: rows * columns)
        var rowLeft = expense.shares
        var columnLeft = expense.paid
        for row in 0..<rows {
            for column in 0..<columns {
                // share × paid / total ≤ paid (share ≤ total), so the quotient fits.
                let product = UInt64(expense.shares[row]).multipliedFullWidth(by: UInt64(expense.paid[column]))
                let (quotient, remainder) = total.dividingFullWidth(product)
                let floor = Int64(quotient)
                table[row * columns + column] = floor
                remainders[row * columns + column] = remainder
                rowLeft[row] -= floor
                columnLeft[column] -= floor
            }
        }
        let start = Apportionment.offset(forID: expense.id, count: columns)
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
