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
        guard total >= 0, !weights.isEmpty else { return nil }
        var weightSum: Int64 = 0
        for weight in weights {
            guard weight >= 0 else { return nil }
            let (sum, overflow) = weightSum.addingReportingOverflow(weight)
            guard !overflow else { return nil }
            weightSum = sum
        }
        guard weightSum > 0 else { return nil }
        let whole = UInt64(total)
        let divisor = UInt64(weightSum)
        var parts = [Int64]()
        parts.reserveCapacity(weights.count)
        var remainders = [UInt64]()
        remainders.reserveCapacity(weights.count)
        var assigned: Int64 = 0
        for weight in weights {
            // total × weight needs up to 128 bits; the quotient is ≤ total because weight ≤ W.
            let product = whole.multipliedFullWidth(by: UInt64(weight))
            let (quotient, remainder) = divisor.dividingFullWidth(product)
            let part = Int64(quotient)  // ≤ total ≤ Int64.max
            parts.append(part)
            remainders.append(remainder)
            assigned += part  // Σ floor(total × w / W) ≤ total
        }
        var left = total - assigned  // < weights.count: each remainder is < W
        guard left > 0 else { return parts }
        let count = weights.count
        let start = ((offset % count) + count) % count
        // Largest remainder first; equal remainders in list order starting at `start`.
        let order = (0..<count).sorted { a, b in
            if remainders[a] != remainders[b] { return remainders[a] > remainders[b] }
            return (a - start + count) % count < (b - start + count) % count
        }
        for index in order where left > 0 {
            parts[index] += 1
            left -= 1
        }
        return parts
    }

    /// The tie-break offset for an expense: its id's first 8 hex digits as a number, mod `count`.
    /// An id that does not start with 8 hex digits gives 0.
    public static func offset(forID id: String, count: Int) -> Int {
        guard count > 0, let value = UInt32(id.prefix(8), radix: 16) else { return 0 }
        return Int(UInt64(value) % UInt64(count))
    }
}
