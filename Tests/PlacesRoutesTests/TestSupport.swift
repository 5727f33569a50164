@testable import PlacesRoutes

/// Random instances for property tests, reproducible from a seed.
struct InstanceFactory {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Euclidean-like symmetric integer matrix from random points (with duplicates when asked).
    mutating func symmetric(_ n: Int, duplicates: Bool = false) -> CostMatrix {
        var xs: [Double] = []
        var ys: [Double] = []
        for i in 0..<n {
            if duplicates && i > 0 && rng.below(3) == 0 {
                let j = rng.below(i)
                xs.append(xs[j])
                ys.append(ys[j])
            } else {
                xs.append(Double(rng.below(1000)))
                ys.append(Double(rng.below(1000)))
            }
        }
        var values = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n {
                let dx = xs[i] - xs[j]
                let dy = ys[i] - ys[j]
                values[i * n + j] = ((dx * dx + dy * dy).squareRoot()).rounded()
            }
        }
        return try! CostMatrix(count: n, values: values)
    }

    /// Asymmetric matrix with fractional costs (one-way streets, hills).
    mutating func asymmetric(_ n: Int) -> CostMatrix {
        var values = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n where i != j { values[i * n + j] = Double(rng.below(10_000)) / 7 }
        }
        return try! CostMatrix(count: n, values: values)
    }
}

/// The optimum for each options value, by enumerating every permutation once.
func bruteForceCosts(_ matrix: CostMatrix, _ cases: [SolveOptions]) -> [Double] {
    let n = matrix.count
    if n <= 1 { return cases.map { _ in 0 } }
    var best = [Double](repeating: .infinity, count: cases.count)
    var order = Array(0..<n)
    func permute(_ k: Int) {
        if k == n {
            var path = 0.0
            for i in 1..<n { path += matrix[order[i - 1], order[i]] }
            let closing = matrix[order[n - 1], order[0]]
            for (index, options) in cases.enumerated() {
                if let start = options.start, order[0] != start { continue }
                // On a round trip "end == start" only fixes the start.
                if let end = options.end, !(options.roundTrip && end == options.start), order[n - 1] != end { continue }
                let cost = options.roundTrip ? path + closing : path
                if cost < best[index] { best[index] = cost }
            }
            return
        }
        for i in k..<n {
            order.swapAt(k, i)
            permute(k + 1)
            order.swapAt(k, i)
        }
    }
    permute(0)
    return best
}

/// All endpoint combinations worth testing for `n` nodes.
func endpointCases(_ n: Int, rng: inout SplitMix64) -> [SolveOptions] {
    guard n >= 2 else { return [SolveOptions(roundTrip: true), SolveOptions(roundTrip: false)] }
    let a = rng.below(n)
    var b = rng.below(n - 1)
    if b >= a { b += 1 }
    var cases: [SolveOptions] = []
    for roundTrip in [true, false] {
        cases.append(SolveOptions(roundTrip: roundTrip))
        cases.append(SolveOptions(roundTrip: roundTrip, start: a))
        cases.append(SolveOptions(roundTrip: roundTrip, end: b))
        cases.append(SolveOptions(roundTrip: roundTrip, start: a, end: b))
    }
    cases.append(SolveOptions(roundTrip: true, start: a, end: a))
    return cases
}

func isPermutation(_ order: [Int], of n: Int) -> Bool { order.count == n && Set(order) == Set(0..<n) }

/// The ``RouteError`` code `body` throws, or `nil` when it succeeds.
func errorCode(_ body: () throws -> Void) -> RouteError.Code? {
    do {
        try body()
        return nil
    } catch {
        return (error as? RouteError)?.code
    }
}
