/// Splits an amount of minor units into parts proportional to integer weights, exactly.
///
/// The remainder rule (docs/expenses.md): each part gets floor(total × w / W); the R minor units
/// left over go one each to the parts with the largest fractional remainders (total × w mod W);
/// ties go in list order rotated to start at `offset`. So the parts always sum to `total`, the
/// answer is the same on every device, and the extra cents of many expenses are spread around.
public enum Apportionment {
    /// The parts of `total` for `weights`, in the order of `weights`.
    /// - Returns: nil when `total` or a weight is negative or the weights sum to 0 or overflow.
    public static func split(_ total: Int64, weights: [Int64], offset: Int = 0) -> [Int64]? {
        var parts = [Int64]()
        var remainders = [UInt64]()
        guard split(total, count: weights.count, offset: offset, into: &parts, &remainders, weight: { weights[$0] })
        else { return nil }
        return parts
    }

    /// The same into reusable buffers (the ledger splits thousands of expenses): `parts` gets the
    /// `count` parts, `remainders` is scratch. `weight(i)` is the i-th weight.
    /// - Returns: false when `total` or a weight is negative, or the weights sum to 0 or overflow.
    @inline(__always)
    static func split(
        _ total: Int64, count: Int, offset: Int, into parts: inout [Int64], _ remainders: inout [UInt64],
        weight: (Int) -> Int64
    ) -> Bool {
        guard total >= 0, count > 0 else { return false }
        var weightSum: Int64 = 0
        for index in 0..<count {
            let value = weight(index)
            guard value >= 0 else { return false }
            let (sum, overflow) = weightSum.addingReportingOverflow(value)
            guard !overflow else { return false }
            weightSum = sum
        }
        guard weightSum > 0 else { return false }
        parts.removeAll(keepingCapacity: true)
        remainders.removeAll(keepingCapacity: true)
        // total ≥ 0, weightSum > 0 and every weight ≥ 0 were checked above (`weight` is a
        // lookup of fixed values), so none of these conversions to UInt64 can trap.
        let whole = UInt64(total)
        let divisor = UInt64(weightSum)
        var assigned: Int64 = 0
        var previous: (weight: Int64, quotient: UInt64, remainder: UInt64) = (0, 0, 0)
        for index in 0..<count {
            let value = weight(index)
            // Equal splits repeat one weight: one division serves them all.
            if value != previous.weight {
                // total × weight needs up to 128 bits (a slow division); the quotient is ≤ total
                // because weight ≤ W. Trip-sized amounts fit in 64 bits.
                let (product, overflow) = whole.multipliedReportingOverflow(by: UInt64(value))
                let (quotient, remainder) =
                    overflow
                    ? divisor.dividingFullWidth(whole.multipliedFullWidth(by: UInt64(value)))
                    : product.quotientAndRemainder(dividingBy: divisor)
                previous = (value, quotient, remainder)
            }
            parts.append(Int64(previous.quotient))  // ≤ total ≤ Int64.max
            remainders.append(previous.remainder)
            assigned += Int64(previous.quotient)  // Σ floor(total × w / W) ≤ total
        }
        // Fewer than `count` units are left (each remainder is < W), and more remainders than
        // that are positive, so only parts with a positive remainder ever get one.
        var left = Int(total - assigned)
        guard left > 0 else { return true }
        let start = ((offset % count) + count) % count
        if left * count <= 1024 {
            // A few units or travellers (the usual case): pick the largest remainder each time; among equal
            // ones the first in list order from `start` on.
            while left > 0 {
                var best = start
                var index = start
                for _ in 1..<count {
                    index = index + 1 == count ? 0 : index + 1
                    if remainders[index] > remainders[best] { best = index }
                }
                parts[best] += 1
                remainders[best] = 0  // only positive remainders ever win: see above
                left -= 1
            }
        } else {
            let order = (0..<count).sorted { a, b in
                if remainders[a] != remainders[b] { return remainders[a] > remainders[b] }
                return (a >= start ? a - start : a - start + count) < (b >= start ? b - start : b - start + count)
            }
            for index in order.prefix(left) { parts[index] += 1 }
        }
        return true
    }

    /// The tie-break offset for an expense: its id's first 8 hex digits as a number, mod `count`.
    /// An id that does not start with 8 hex digits gives 0.
    public static func offset(forID id: String, count: Int) -> Int {
        guard count > 1 else { return 0 }
        var value: UInt64 = 0
        var digits = 0
        for byte in id.utf8.prefix(8) {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt64(byte - UInt8(ascii: "A") + 10)
            default: return 0
            }
            digits += 1
        }
        guard digits == 8 else { return 0 }
        return Int(value % UInt64(count))
    }
}
