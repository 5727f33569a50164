// plan-bench: the orienteering solver on the standard OPTW/TOPTW instances in
// ../shared/bench/optw (or PLACES_OPTW_DIR): Solomon c1/r1/rc1 and Cordeau pr01–pr10,
// m = 1…4 routes, travel times truncated as the literature does. Prints per instance the
// score, the best-known score, the gap and the time to the best answer, then a summary
// per set and m. PLAN_BENCH_SECONDS sets the budget per instance (default 1),
// PLAN_BENCH_FILTER keeps the instances whose name contains it, PLAN_BENCH_ROUTES
// (e.g. "1,2") the numbers of routes, PLAN_BENCH_SEED the seed (default 1) and
// PLAN_BENCH_ITERATIONS a number of search steps (deterministic runs, capped by the budget).
import Foundation
import PlacesPlanner

let environment = ProcessInfo.processInfo.environment
let seconds = environment["PLAN_BENCH_SECONDS"].flatMap(Double.init) ?? 1
let filter = environment["PLAN_BENCH_FILTER"] ?? ""
let seed = environment["PLAN_BENCH_SEED"].flatMap(UInt64.init) ?? 1
let maxIterations = environment["PLAN_BENCH_ITERATIONS"].flatMap(Int.init)
let routeCounts = (environment["PLAN_BENCH_ROUTES"] ?? "1,2,3,4").split(separator: ",").compactMap { Int($0) }
let directory = URL(fileURLWithPath: environment["PLACES_OPTW_DIR"] ?? "../shared/bench/optw")

/// One instance file in the KU Leuven TOPTW format (TOPTW_format.txt).
struct Instance {
    var name: String
    var set: String
    var decimals: Double
    var x: [Double] = []
    var y: [Double] = []
    var service: [Double] = []
    var score: [Double] = []
    var open: [Double] = []
    var close: [Double] = []

    init?(url: URL, set: String, decimals: Double) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        name = url.deletingPathExtension().lastPathComponent
        self.set = set
        self.decimals = decimals
        for line in text.split(separator: "\n").dropFirst(2) {
            let f = line.split(separator: " ").compactMap { Double($0) }
            guard f.count >= 9 else { continue }
            x.append(f[1])
            y.append(f[2])
            service.append(f[3])
            score.append(f[4])
            open.append(f[f.count - 2])
            close.append(f[f.count - 1])
        }
    }

    func problem(routes m: Int) throws -> OrienteeringProblem {
        let n = x.count
        var travel = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n where i != j {
                let d = ((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j])).squareRoot()
                travel[i * n + j] = (d * decimals).rounded(.down) / decimals
            }
        }
        let nodes = (1..<n).map { i in
            OrienteeringProblem.Node(
                service: service[i], score: score[i], windows: [TimeWindow(open: open[i], close: close[i])])
        }
        let routes = Array(repeating: OrienteeringProblem.Route(open: open[0], close: close[0]), count: m)
        return try OrienteeringProblem(routes: routes, nodes: nodes, travel: travel)
    }
}

func loadBKS() -> [String: [Int: Double]] {
    guard let data = try? Data(contentsOf: directory.appendingPathComponent("bks.json")),
        let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let table = root["bks"] as? [String: [String: [String: Any]]]
    else { return [:] }
    return table.mapValues { byM in
        var out: [Int: Double] = [:]
        for (m, entry) in byM { if let k = Int(m), let s = entry["score"] as? Double { out[k] = s } }
        return out
    }
}

/// `PLAN_BENCH_RANDOM=N`: instead of the instances, time one random N-node problem of
/// the API's shape (4 routes of 500, windows of 100, Euclidean travel) at the budget.
if let count = environment["PLAN_BENCH_RANDOM"].flatMap(Int.init), count > 0 {
    var random = SystemRandomNumberGenerator()
    let clock = ContinuousClock()
    let started = clock.now
    let x = (0...count).map { _ in Double.random(in: -100...100, using: &random) }
    let y = (0...count).map { _ in Double.random(in: -100...100, using: &random) }
    var travel = [Double](repeating: 0, count: (count + 1) * (count + 1))
    for i in 0...count {
        for j in 0...count {
            travel[i * (count + 1) + j] = ((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j])).squareRoot()
        }
    }
    let nodes = (0..<count).map { _ in
        let open = Double.random(in: 0...400, using: &random)
        return OrienteeringProblem.Node(
            service: 5, score: Double(Int.random(in: 1...10, using: &random)),
            windows: [TimeWindow(open: open, close: open + 100)])
    }
    let routes = Array(repeating: OrienteeringProblem.Route(open: 0, close: 500), count: 4)
    guard let problem = try? OrienteeringProblem(routes: routes, nodes: nodes, travel: travel) else { exit(1) }
    let built = clock.now
    let solution = OrienteeringSolver.solve(problem, options: .init(timeBudget: .milliseconds(Int(seconds * 1000))))
    let solved = clock.now
    print(
        "random \(count) nodes: matrix and checks \(built - started), solve \(solved - built), "
            + "score \(solution.score), iterations \(solution.iterations), best at \(solution.timeToBest), "
            + (problem.check(solution.routes) ?? "feasible"))
    exit(0)
}

var instances: [Instance] = []
for (folder, decimals) in [("solomon", 10.0), ("cordeau", 100.0)] {
    let url = directory.appendingPathComponent(folder)
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    for file in files where file.hasSuffix(".txt") && (filter.isEmpty || file.contains(filter)) {
        let set = folder == "cordeau" ? "pr" : String(file.prefix { $0.isLetter }) + "1"
        if let instance = Instance(url: url.appendingPathComponent(file), set: set, decimals: decimals) {
            instances.append(instance)
        }
    }
}
guard !instances.isEmpty else {
    print("plan-bench: no instances under \(directory.path) (set PLACES_OPTW_DIR)")
    exit(1)
}
let bks = loadBKS()

/// Checks the reference solutions in solutions/ with the same checker: they must pass.
@MainActor func checkReferences() {
    let url = directory.appendingPathComponent("solutions")
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    var passed = 0
    for file in files where file.hasSuffix(".json") {
        guard let data = try? Data(contentsOf: url.appendingPathComponent(file)),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = root["instance"] as? String, let m = root["m"] as? Int,
            let routes = root["routes"] as? [[Int]],
            let instance = instances.first(where: { $0.name == name }),
            let problem = try? instance.problem(routes: m)
        else { continue }
        // The files number customers from 1 (0 is the depot); the problem's nodes from 0.
        if let reason = problem.check(routes.map { $0.map { $0 - 1 } }) {
            print("reference \(file): INFEASIBLE under our conventions: \(reason)")
        } else {
            passed += 1
        }
    }
    print("reference solutions feasible under the checker: \(passed)")
}
checkReferences()
print("plan-bench: \(instances.count) instances, m = \(routeCounts), \(seconds) s each")
print("instance  m  score    bks  gap%  best@s  iterations")

struct Row {
    var set: String
    var m: Int
    var feasible: Bool
    var gap: Double?
    var timeToBest: Double
}
var rows: [Row] = []
for instance in instances {
    for m in routeCounts {
        guard let problem = try? instance.problem(routes: m) else {
            print("\(instance.name): invalid instance")
            continue
        }
        let options = OrienteeringOptions(
            seed: seed, timeBudget: .milliseconds(Int(seconds * 1000)), maxIterations: maxIterations)
        let solution = OrienteeringSolver.solve(problem, options: options)
        let problemText = problem.check(solution.routes)
        let score = solution.routes.joined().reduce(0.0) { $0 + problem.nodes[$1].score }
        let known = bks[instance.name]?[m]
        let gap = known.map { $0 > 0 ? 100 * ($0 - score) / $0 : 0 }
        let best = solution.timeToBest / .seconds(1)
        rows.append(Row(set: instance.set, m: m, feasible: problemText == nil, gap: gap, timeToBest: best))
        let knownText: String = known.map { String(format: "%5.0f", $0) } ?? "    -"
        let gapText: String = gap.map { String(format: "%5.2f", $0) } ?? "    -"
        let verdict: String = problemText.map { "INFEASIBLE: " + $0 } ?? ""
        var line: [String] = [instance.name.padding(toLength: 8, withPad: " ", startingAt: 0), String(m)]
        line += [String(format: "%6.0f", score), knownText, gapText, String(format: "%6.3f", best)]
        line += [String(solution.iterations), verdict]
        print(line.joined(separator: "  "))
    }
}

print("\nset  m  instances  feasible  with-bks  mean-gap%  max-gap%  mean-best@s")
func summary(_ label: String, _ m: String, _ part: [Row]) {
    let gaps = part.compactMap(\.gap)
    let mean = gaps.isEmpty ? "-" : String(format: "%.2f", gaps.reduce(0, +) / Double(gaps.count))
    let worst = gaps.max().map { String(format: "%.2f", $0) } ?? "-"
    let time = String(format: "%.3f", part.map(\.timeToBest).reduce(0, +) / Double(max(1, part.count)))
    let feasible = part.filter(\.feasible).count
    print(
        "\(label.padding(toLength: 4, withPad: " ", startingAt: 0)) \(m)  \(part.count)  \(feasible)  \(gaps.count)  \(mean)  \(worst)  \(time)"
    )
}
for set in ["c1", "r1", "rc1", "pr"] {
    for m in routeCounts {
        let part = rows.filter { $0.set == set && $0.m == m }
        if !part.isEmpty { summary(set, String(m), part) }
    }
}
for m in routeCounts { summary("all", String(m), rows.filter { $0.m == m }) }
summary("all", "*", rows)
if rows.contains(where: { !$0.feasible }) { exit(2) }
