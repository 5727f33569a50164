import Foundation

/// The search's own benchmark, for places-bench: loading the gazetteer, building the index,
/// and searching a fixed list of short prefixes and typos, in-process.
public enum GazetteerBench {
    /// Short prefixes (the most matches) and typos (the fuzzy scan), searched in turn.
    public static let queries = [
        "p", "pa", "par", "s", "sa", "sao", "l", "li", "lis", "n", "ne", "new", "a", "b", "c", "m", "mu", "ber",
        "amsterdm", "sprngfield", "lisbn", "zurich", "muenchen", "barcelna", "kyotto", "new yrok", "cordoba",
        "san francsico",
    ]

    /// What one run measured.
    public struct Report: Sendable, CustomStringConvertible {
        /// Reading and parsing the gazetteer file.
        public var loadMilliseconds: Double
        /// Building the index.
        public var buildMilliseconds: Double
        /// The first search after the build.
        public var firstSearchMilliseconds: Double
        /// Entries, keys and the index's approximate size.
        public var entries: Int
        public var keys: Int
        public var indexBytes: Int
        /// Per-search times over every query, each repeated.
        public var p50Milliseconds: Double
        public var p99Milliseconds: Double
        public var maxMilliseconds: Double
        /// The same in CPU time of the searching thread: what a search costs without the
        /// time the scheduler gave to other processes (the bench machine is shared).
        public var cpuP50Milliseconds: Double
        public var cpuP99Milliseconds: Double
        /// The slowest query's p99, and which.
        public var worstQuery: String
        public var worstQueryP99Milliseconds: Double

        public var description: String {
            func f(_ x: Double) -> String { String(format: "%.3f", x) }
            return "gazetteer: load \(f(loadMilliseconds)) ms, index build \(f(buildMilliseconds)) ms, "
                + "first search \(f(firstSearchMilliseconds)) ms; \(entries) entries, \(keys) keys, "
                + "index ~\(f(Double(indexBytes) / 1_048_576)) MB; search p50 \(f(p50Milliseconds)) ms, "
                + "p99 \(f(p99Milliseconds)) ms, max \(f(maxMilliseconds)) ms; CPU p50 \(f(cpuP50Milliseconds)) ms, "
                + "p99 \(f(cpuP99Milliseconds)) ms "
                + "(worst p99: \"\(worstQuery)\" \(f(worstQueryP99Milliseconds)) ms)"
        }
    }

    /// Loads the gazetteer at `url` (nil: the bundled one), builds the index and searches
    /// each of ``queries`` `rounds` times with the default limit of 20.
    public static func run(url: URL? = nil, rounds: Int = 50) throws -> Report {
        let clock = ContinuousClock()
        let t0 = clock.now
        let gazetteer = try url.map { try Gazetteer.load(contentsOf: $0) } ?? Gazetteer.bundled()
        let t1 = clock.now
        let index = GazetteerIndex(gazetteer)
        let t2 = clock.now
        _ = index.search(DiscoverQuery(text: "lisbon"), candidates: [], popular: [:])
        let t3 = clock.now
        var all: [Double] = []
        var cpu: [Double] = []
        var worst = ("", 0.0)
        for query in queries {
            var times: [Double] = []
            for _ in 0..<max(1, rounds) {
                let cpuStart = threadCPUMilliseconds()
                let start = clock.now
                _ = index.search(DiscoverQuery(text: query), candidates: [], popular: [:])
                times.append(milliseconds(clock.now - start))
                cpu.append(threadCPUMilliseconds() - cpuStart)
            }
            times.sort()
            let p99 = percentile(times, 0.99)
            if p99 > worst.1 { worst = (query, p99) }
            all += times
        }
        all.sort()
        cpu.sort()
        return Report(
            loadMilliseconds: milliseconds(t1 - t0), buildMilliseconds: milliseconds(t2 - t1),
            firstSearchMilliseconds: milliseconds(t3 - t2), entries: gazetteer.count, keys: index.keyCount,
            indexBytes: index.approximateBytes, p50Milliseconds: percentile(all, 0.5),
            p99Milliseconds: percentile(all, 0.99), maxMilliseconds: all.last ?? 0,
            cpuP50Milliseconds: percentile(cpu, 0.5), cpuP99Milliseconds: percentile(cpu, 0.99), worstQuery: worst.0,
            worstQueryP99Milliseconds: worst.1)
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    static func threadCPUMilliseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let i = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))
        return sorted[i]
    }
}
