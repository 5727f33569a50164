// route-bench: solver quality and speed on TSPLIB instances and on city-sized itineraries.
//
//   swift run -c release route-bench [--tsplib DIR] [--budget-ms MS] [--only NAME]
//       [--skip-tsplib] [--clustered DIR] [--seeds 1,2,3] [--skip-clustered] [--tsplib-only]
//       [--seed S]
//
// Sections: TSPLIB gaps, clustered cities vs LKH-3 (bench/clustered), the exact solver,
// the 60-place city, 30-place itineraries, day routes.
//
// DIR defaults to $PLACES_TSPLIB, else ../shared/bench/tsplib relative to the current
// directory (the package root under `swift run`).
import Foundation
import PlacesRoutes

struct Instance {
    var name: String
    var matrix: CostMatrix
}

enum BenchError: Error, CustomStringConvertible {
    case parse(String)
    var description: String {
        switch self {
        case .parse(let message): message
        }
    }
}

/// Reads a TSPLIB file with NODE_COORD_SECTION and builds the integer matrix exactly as
/// the directory's README prescribes (EUC_2D, ATT, GEO with pi = 3.141592).
func loadTSPLIB(_ url: URL) throws -> Instance {
    let text = try String(contentsOf: url, encoding: .utf8)
    var name = url.deletingPathExtension().lastPathComponent
    var type = ""
    var dimension = 0
    var coordinates: [(Double, Double)] = []
    var inCoordinates = false
    for rawLine in text.split(whereSeparator: \.isNewline) {
        let line = rawLine.trimmingCharacters(in: .whitespaces)
        if line.isEmpty { continue }
        if line == "EOF" { break }
        if inCoordinates {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, let x = Double(fields[1]), let y = Double(fields[2]) else {
                inCoordinates = false
                continue
            }
            coordinates.append((x, y))
            continue
        }
        if line.hasPrefix("NODE_COORD_SECTION") {
            inCoordinates = true
            continue
        }
        if let colon = line.firstIndex(of: ":") {
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).uppercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "NAME": name = value
            case "EDGE_WEIGHT_TYPE": type = value.uppercased()
            case "DIMENSION": dimension = Int(value) ?? 0
            default: break
            }
        }
    }
    guard dimension > 0, coordinates.count == dimension else {
        throw BenchError.parse("\(url.lastPathComponent): expected \(dimension) coordinates, read \(coordinates.count)")
    }
    let n = dimension
    var values = [Double](repeating: 0, count: n * n)
    func geoRadians(_ x: Double) -> Double {
        let degrees = Double(Int(x))
        return 3.141592 * (degrees + 5 * (x - degrees) / 3) / 180
    }
    for i in 0..<n {
        for j in 0..<n where i != j {
            let (xi, yi) = coordinates[i]
            let (xj, yj) = coordinates[j]
            let weight: Int
            switch type {
            case "EUC_2D":
                let dx = xi - xj
                let dy = yi - yj
                weight = Int((dx * dx + dy * dy).squareRoot() + 0.5)
            case "ATT":
                let dx = xi - xj
                let dy = yi - yj
                let r = ((dx * dx + dy * dy) / 10).squareRoot()
                let t = Int(r + 0.5)
                weight = Double(t) < r ? t + 1 : t
            case "GEO":
                let latI = geoRadians(xi)
                let lonI = geoRadians(yi)
                let latJ = geoRadians(xj)
                let lonJ = geoRadians(yj)
                let q1 = cos(lonI - lonJ)
                let q2 = cos(latI - latJ)
                let q3 = cos(latI + latJ)
                weight = Int(6378.388 * acos(0.5 * ((1 + q1) * q2 - (1 - q1) * q3)) + 1)
            default:
                throw BenchError.parse("\(url.lastPathComponent): unsupported EDGE_WEIGHT_TYPE \(type)")
            }
            values[i * n + j] = Double(weight)
        }
    }
    return Instance(name: name, matrix: try CostMatrix(count: n, values: values))
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

/// Random places around a point, in clusters of Gaussian spread.
func clusteredCity(clusters: Int, perCluster: Int, seed: UInt64) -> [GeoPoint] {
    var rng = SplitMix64(seed: seed)
    func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
    func gaussian() -> Double { (-2 * log(max(uniform(), 1e-12))).squareRoot() * cos(2 * .pi * uniform()) }
    let centerLatitude = 48.8566
    let centerLongitude = 2.3522
    let metersPerDegreeLatitude = 111_195.0
    let metersPerDegreeLongitude = metersPerDegreeLatitude * cos(centerLatitude * .pi / 180)
    var points: [GeoPoint] = []
    for _ in 0..<clusters {
        // Cluster centres within a 10 km × 10 km city; places within ~300 m of them.
        let cx = (uniform() - 0.5) * 10_000
        let cy = (uniform() - 0.5) * 10_000
        for _ in 0..<perCluster {
            let x = cx + gaussian() * 300
            let y = cy + gaussian() * 300
            points.append(
                GeoPoint(
                    latitude: centerLatitude + y / metersPerDegreeLatitude,
                    longitude: centerLongitude + x / metersPerDegreeLongitude))
        }
    }
    return points
}

// MARK: - Arguments

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let directory =
    option("--tsplib") ?? ProcessInfo.processInfo.environment["PLACES_TSPLIB"] ?? "../shared/bench/tsplib"
let budgetMilliseconds = Int(option("--budget-ms") ?? "") ?? 1000
// `--seed S`: the TSPLIB runs' seed (default: SolveOptions' default seed).
let tsplibSeed = UInt64(option("--seed") ?? "") ?? SolveOptions().seed
let only = option("--only")
let skipTSPLIB = arguments.contains("--skip-tsplib")
// `--tsplib-only`: the TSPLIB set and nothing after it (`scripts/bench-table.sh`'s row).
let tsplibOnly = arguments.contains("--tsplib-only")
let skipClustered = arguments.contains("--skip-clustered") || tsplibOnly
let clusteredDirectory = option("--clustered") ?? "bench/clustered"
let clusteredSeeds = (option("--seeds") ?? "1,2,3").split(separator: ",").compactMap { UInt64($0) }

if let svgPath = option("--svg") {
    // Writes a sample picture (a day in Paris) for eyeballing the SVG export.
    let sample: [(String, Double, Double)] = [
        ("Hôtel du Louvre", 48.8627, 2.3353), ("Musée d'Orsay", 48.8600, 2.3266), ("Tour Eiffel", 48.8584, 2.2945),
        ("Arc de Triomphe", 48.8738, 2.2950), ("Sacré-Cœur", 48.8867, 2.3431), ("Centre Pompidou", 48.8606, 2.3522),
        ("Notre-Dame", 48.8530, 2.3499), ("Panthéon", 48.8462, 2.3464), ("Jardin du Luxembourg", 48.8462, 2.3372),
        ("Place des Vosges", 48.8556, 2.3655), ("Café <Flore> & Co", 48.8540, 2.3325),
        ("Shakespeare & Company", 48.8526, 2.3471),
    ]
    let places = sample.enumerated().map { RoutePlace(id: "p\($0)", name: $1.0, latitude: $1.1, longitude: $1.2) }
    let roundTrip = !arguments.contains("--open")
    let plan = try RoutePlanner.plan(
        RoutePlanRequest(places: places, mode: .walking, criterion: .duration, roundTrip: roundTrip, startID: "p0"))
    try plan.svg(title: "Paris in a day").write(toFile: svgPath, atomically: true, encoding: .utf8)
    print("wrote \(svgPath)")
    exit(0)
}

print("route-bench  (release build recommended; 2 shared cores, timings are noisy)")

// MARK: - TSPLIB

if !skipTSPLIB {
    let base = URL(fileURLWithPath: directory)
    let optimaText: String
    do {
        optimaText = try String(contentsOf: base.appendingPathComponent("optima.tsv"), encoding: .utf8)
    } catch {
        print("cannot read \(base.path)/optima.tsv: \(error); pass --tsplib DIR or set PLACES_TSPLIB")
        exit(1)
    }
    var rows: [(String, Int)] = []
    for line in optimaText.split(whereSeparator: \.isNewline) {
        let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
        guard fields.count >= 4, let optimum = Int(fields[3]) else { continue }
        rows.append((String(fields[0]), optimum))
    }
    print("\nTSPLIB round trips, budget \(budgetMilliseconds) ms each (whole budget used: no stagnation stop)")
    print(
        pad("instance", 10) + pad("n", 6, right: true) + pad("length", 10, right: true)
            + pad("optimum", 10, right: true)
            + pad("gap %", 8, right: true) + pad("time ms", 9, right: true))
    var gaps: [Double] = []
    var optimalCount = 0
    for (name, optimum) in rows where only == nil || only == name {
        let instance: Instance
        do {
            instance = try loadTSPLIB(base.appendingPathComponent("\(name).tsp"))
        } catch {
            print("\(name): \(error)")
            continue
        }
        let clock = ContinuousClock()
        var solution = RouteSolution(order: [], cost: 0, optimal: false)
        let elapsed = clock.measure {
            do {
                solution = try RouteSolver.solve(
                    instance.matrix,
                    options: SolveOptions(
                        timeBudget: .milliseconds(budgetMilliseconds), seed: tsplibSeed, maxStagnantKicks: Int.max))
            } catch {
                print("\(name): \(error)")
            }
        }
        let length = Int(solution.cost)
        let gap = 100 * Double(length - optimum) / Double(optimum)
        gaps.append(gap)
        if length == optimum { optimalCount += 1 }
        print(
            pad(name, 10) + pad("\(instance.matrix.count)", 6, right: true) + pad("\(length)", 10, right: true)
                + pad("\(optimum)", 10, right: true) + pad(fixed(gap, 2), 8, right: true)
                + pad(fixed(milliseconds(elapsed), 0), 9, right: true))
    }
    if !gaps.isEmpty {
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        print("mean gap \(fixed(mean, 3)) %, optimal \(optimalCount)/\(gaps.count)")
    }
}

// MARK: - Clustered cities

if !skipClustered {
    runClustered(URL(fileURLWithPath: clusteredDirectory), only: only, seeds: clusteredSeeds)
}

// MARK: - Exact solver

if only != nil || tsplibOnly { exit(0) }

do {
    print("\nExact (Held-Karp) round trips, random symmetric matrices")
    var rng = SplitMix64(seed: 12)
    for n in [12, 13, 15] {
        var worst = 0.0
        var total = 0.0
        let repetitions = 20
        var allOptimal = true
        for _ in 0..<repetitions {
            var values = [Double](repeating: 0, count: n * n)
            for i in 0..<n {
                for j in (i + 1)..<n {
                    let cost = Double(Int(rng.next() % 10_000))
                    values[i * n + j] = cost
                    values[j * n + i] = cost
                }
            }
            let matrix = try CostMatrix(count: n, values: values)
            let clock = ContinuousClock()
            var optimal = false
            let elapsed = milliseconds(clock.measure { optimal = (try? RouteSolver.solve(matrix))?.optimal ?? false })
            allOptimal = allOptimal && optimal
            worst = max(worst, elapsed)
            total += elapsed
        }
        print(
            "n = \(n): max \(fixed(worst, 2)) ms, mean \(fixed(total / Double(repetitions), 2)) ms over \(repetitions) runs"
                + (allOptimal ? ", all proven optimal" : ", NOT all exact"))
    }
}

// MARK: - City instances

do {
    let provider = GreatCircleMatrixProvider()
    let city = clusteredCity(clusters: 6, perCluster: 10, seed: 60)
    let matrix = try provider.travelMatrices(for: city, mode: .walking).durationSeconds
    print("\n60-place clustered city (6 × 10 places in ~10 km, walking durations)")
    var bestKnown = Double.infinity
    for seed in 1...5 {
        let long = try RouteSolver.solve(
            matrix, options: SolveOptions(timeBudget: .seconds(1), seed: UInt64(seed), maxStagnantKicks: Int.max))
        bestKnown = min(bestKnown, long.cost)
    }
    print("best known (5 × 1 s, seeds 1–5): \(fixed(bestKnown, 1)) s")
    for (label, stagnation) in [("default stop", nil), ("whole budget", Int.max)] as [(String, Int?)] {
        var worstGap = 0.0
        var worstTime = 0.0
        for seed in 1...5 {
            let clock = ContinuousClock()
            var short = RouteSolution(order: [], cost: 0, optimal: false)
            let elapsed = try clock.measure {
                short = try RouteSolver.solve(
                    matrix,
                    options: SolveOptions(
                        timeBudget: .milliseconds(50), seed: UInt64(1000 + seed), maxStagnantKicks: stagnation))
            }
            worstGap = max(worstGap, 100 * (short.cost - bestKnown) / bestKnown)
            worstTime = max(worstTime, milliseconds(elapsed))
        }
        print(
            "50 ms budget, \(label), 5 seeds: worst gap \(fixed(worstGap, 3)) %, worst time \(fixed(worstTime, 1)) ms")
    }

    print("\n30-place itineraries (random places in a 10 km city, default options)")
    var worst = 0.0
    for seed in 1...10 {
        let places = clusteredCity(clusters: 30, perCluster: 1, seed: UInt64(100 + seed))
        let walking = try provider.travelMatrices(for: places, mode: .walking).durationSeconds
        let start = ContinuousClock().now
        _ = try RouteSolver.solve(walking, options: SolveOptions(roundTrip: false, start: 0))
        worst = max(worst, milliseconds(ContinuousClock().now - start))
    }
    print("open path with fixed start, 10 random cities: max \(fixed(worst, 1)) ms")
    runDayRoutes()
} catch {
    print("city benchmark failed: \(error)")
}
