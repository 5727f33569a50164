/// A validated square matrix of non-negative travel costs, row `i` column `j` being the
/// cost of going from node `i` to node `j`. Asymmetric matrices are allowed.
///
/// Integer matrices are stored exactly (as long as entries stay below 2⁵³).
public struct CostMatrix: Sendable, Equatable {
    /// The largest number of nodes a matrix may have.
    ///
    /// 2,000 nodes is 4 million entries (32 MB); solving beyond that within an interactive
    /// time budget gives poor tours, so the API refuses rather than answering badly.
    public static let maximumCount = 2_000

    /// Number of rows (and columns).
    public let count: Int
    /// Row-major entries, `count * count` of them.
    public let values: [Double]

    /// Validates and wraps nested rows of `Double` costs.
    public init(_ rows: [[Double]]) throws(RouteError) {
        try Self.checkShape(rows.count, rows.lazy.map(\.count))
        self.count = rows.count
        self.values = rows.flatMap { $0 }
        try Self.checkValues(values, count: count)
    }

    /// Validates and wraps nested rows of integer costs.
    public init(_ rows: [[Int]]) throws(RouteError) {
        try Self.checkShape(rows.count, rows.lazy.map(\.count))
        var flat: [Double] = []
        flat.reserveCapacity(rows.count * rows.count)
        for row in rows {
            for value in row {
                guard value >= 0 else {
                    throw RouteError(.invalidCost, "cost \(value) is negative; costs must be ≥ 0")
                }
                flat.append(Double(value))
            }
        }
        self.count = rows.count
        self.values = flat
    }

    /// Validates and wraps a row-major flat array of `count * count` costs.
    public init(count: Int, values: [Double]) throws(RouteError) {
        guard count >= 0, count <= Self.maximumCount else {
            throw RouteError(.tooManyNodes, "a matrix may have at most \(Self.maximumCount) rows, got \(count)")
        }
        guard values.count == count * count else {
            throw RouteError(
                .nonSquareMatrix, "expected \(count)×\(count) = \(count * count) values, got \(values.count)")
        }
        self.count = count
        self.values = values
        try Self.checkValues(values, count: count)
    }

    /// The cost from `from` to `to`.
    @inlinable public subscript(from: Int, to: Int) -> Double { values[from * count + to] }

    /// `true` when `self[i, j] == self[j, i]` for all pairs.
    public var isSymmetric: Bool {
        for i in 0..<count {
            for j in (i + 1)..<max(i + 1, count) where values[i * count + j] != values[j * count + i] {
                return false
            }
        }
        return true
    }

    /// Cost of visiting `order` in sequence, plus the closing edge back to the first node
    /// when `roundTrip` is true.
    public func cost(of order: [Int], roundTrip: Bool) -> Double {
        guard order.count > 1 else { return 0 }
        var total = 0.0
        for k in 1..<order.count { total += self[order[k - 1], order[k]] }
        if roundTrip, let first = order.first, let last = order.last { total += self[last, first] }
        return total
    }

    private static func checkShape(_ rowCount: Int, _ lengths: some Sequence<Int>) throws(RouteError) {
        guard rowCount <= maximumCount else {
            throw RouteError(.tooManyNodes, "a matrix may have at most \(maximumCount) rows, got \(rowCount)")
        }
        for (row, length) in lengths.enumerated() where length != rowCount {
            throw RouteError(
                .nonSquareMatrix,
                "row \(row) has \(length) entries but the matrix has \(rowCount) rows; send a square matrix")
        }
    }

    private static func checkValues(_ values: [Double], count: Int) throws(RouteError) {
        for (index, value) in values.enumerated() where !(value.isFinite && value >= 0) {
            let where_ = "row \(count == 0 ? 0 : index / count), column \(count == 0 ? 0 : index % count)"
            throw RouteError(.invalidCost, "cost \(value) at \(where_) is not a finite number ≥ 0")
        }
    }
}
