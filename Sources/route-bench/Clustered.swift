import Foundation
import PlacesRoutes

/// One clustered city instance of bench/clustered with its LKH-3 reference length.
struct ClusteredInstance {
    var name: String
    var matrix: CostMatrix
    var checksum: Int
    var reference: Int
}

/// Reads `DIR/reference.tsv` and each `DIR/NAME.csv`, and builds the integer walking
/// matrix exactly as scripts/clustered-cities.py does (deciseconds, rounded half up).
func loadClustered(_ directory: URL) throws -> [ClusteredInstance] {
    let referenceText = try String(contentsOf: directory.appendingPathComponent("reference.tsv"), encoding: .utf8)
    var instances: [ClusteredInstance] = []
    for line in referenceText.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
        let fields = line.split(separator: "\t")
        guard fields.count >= 4, let checksum = Int(fields[2]), let reference = Int(fields[3]) else { continue }
        let name = String(fields[0])
        let csv = try String(contentsOf: directory.appendingPathComponent("\(name).csv"), encoding: .utf8)
        var points: [GeoPoint] = []
        for row in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let cells = row.split(separator: ",")
            guard cells.count == 3, let latitude = Double(cells[1]), let longitude = Double(cells[2]) else {
                throw BenchError.parse("\(name).csv: bad row \(row)")
            }
            points.append(GeoPoint(latitude: latitude, longitude: longitude))
        }
        let seconds = try GreatCircleMatrixProvider().travelMatrices(for: points, mode: .walking).durationSeconds
        let deciseconds = seconds.values.map { ($0 * 10 + 0.5).rounded(.down) }
        let matrix = try CostMatrix(count: seconds.count, values: deciseconds)
        instances.append(ClusteredInstance(name: name, matrix: matrix, checksum: checksum, reference: reference))
    }
    return instances
}

/// Solves every clustered instance with the default options (1 s budget, default stop)
/// for a few seeds and prints the gap to LKH-3 and the time taken.
func runClustered(_ directory: URL, only: String?, seeds: [UInt64]) {
    let instances: [ClusteredInstance]
    do {
        instances = try loadClustered(directory)
    } catch {
        print("cannot read clustered instances in \(directory.path): \(error)")
        return
    }
    print("\nClustered cities (round trips, walking deciseconds), default options, seeds \(seeds)")
    print(
        pad("instance", 10) + pad("n", 5, right: true) + pad("LKH-3", 9, right: true) + pad("worst", 9, right: true)
            + pad("gap %", 8, right: true) + pad("mean gap %", 11, right: true) + pad("max ms", 8, right: true))
    var worstGap = 0.0
    var gapSum = 0.0
    var runs = 0
    for instance in instances where only == nil || only == instance.name {
        let checksum = instance.matrix.values.reduce(0) { $0 + Int($1) }
        guard checksum == instance.checksum else {
            print("\(instance.name): matrix checksum \(checksum) ≠ \(instance.checksum); the matrices differ, skipped")
            continue
        }
        var worst = 0
        var sum = 0.0
        var maxTime = 0.0
        for seed in seeds {
            let clock = ContinuousClock()
            var cost = 0
            let elapsed = clock.measure {
                cost = Int((try? RouteSolver.solve(instance.matrix, options: SolveOptions(seed: seed)))?.cost ?? -1)
            }
            worst = max(worst, cost)
            let gap = 100 * Double(cost - instance.reference) / Double(instance.reference)
            sum += gap
            gapSum += gap
            runs += 1
            maxTime = max(maxTime, milliseconds(elapsed))
        }
        let gap = 100 * Double(worst - instance.reference) / Double(instance.reference)
        worstGap = max(worstGap, gap)
        print(
            pad(instance.name, 10) + pad("\(instance.matrix.count)", 5, right: true)
                + pad("\(instance.reference)", 9, right: true) + pad("\(worst)", 9, right: true)
                + pad(fixed(gap, 3), 8, right: true) + pad(fixed(sum / Double(seeds.count), 3), 11, right: true)
                + pad(fixed(maxTime, 0), 8, right: true))
    }
    if runs > 0 {
        print("worst gap \(fixed(worstGap, 3)) %, mean gap \(fixed(gapSum / Double(runs), 3)) % over \(runs) runs")
    }
}

/// Times day routes of typical sizes: lodging round trips with timed stops.
func runDayRoutes() {
    print("\nDay routes (round trip from a hotel, walking, 09:00 start, default options)")
    for (count, timedCount) in [(8, 2), (12, 3), (20, 4), (40, 6)] {
        var worst = 0.0
        var late = 0
        var exact = 0
        for seed in 1...10 {
            let points = clusteredCity(clusters: 3, perCluster: (count + 2) / 3, seed: UInt64(500 + seed)).prefix(count)
            let places = points.enumerated().map {
                RoutePlace(id: "p\($0)", name: "P\($0)", latitude: $1.latitude, longitude: $1.longitude)
            }
            let timed = (1...timedCount).map { TimedStop(id: "p\($0)", startMinute: 9 * 60 + 90 * $0) }
            let request = DayRouteRequest(
                places: places, startID: "p0", endID: "p0", timedStops: timed, startMinute: 9 * 60)
            let clock = ContinuousClock()
            var plan: DayRoutePlan?
            let elapsed = clock.measure { plan = try? DayRoutePlanner.plan(request) }
            worst = max(worst, milliseconds(elapsed))
            late += plan?.lateStops.count ?? 0
            exact += plan?.route.optimal == true ? 1 : 0
        }
        print(
            "\(count) places, \(timedCount) timed, 10 days: max \(fixed(worst, 1)) ms, exact \(exact)/10, "
                + "late stops \(late)")
    }
}
