import Foundation
import PlacesControlClient

/// Discover's figures (issue 15), through the socket of a real daemon: idle RSS before the
/// first search, the first search (gazetteer load + index build + search), RSS after it, and
/// search latency over the whole gazetteer for 1–3-letter prefixes and for fuzzy queries,
/// with 1,000 library places (half of them favorites) searched beside it.
enum DiscoverBench {
    static let prefixes = [
        "p", "s", "m", "a", "b", "c", "l", "n", "pa", "sa", "ma", "be", "ca", "lo", "ne", "sp", "par", "san", "mun",
        "ber", "lis", "new", "spr", "cor",
    ]
    static let fuzzy = [
        "amsterdm", "lisbn", "sprngfield", "barcelna", "muenchen", "zuerich", "pariss", "londn", "berln", "madird",
        "cordoba", "sao paolo", "new yrok", "kyotp", "bavarai", "californa",
    ]

    static func run() throws {
        let daemon = try BenchDaemon(name: "Discover")
        let client = daemon.client
        guard let pid = daemon.process?.processIdentifier else { throw BenchError("no daemon") }
        Thread.sleep(forTimeInterval: 2)
        let fresh = PlacesBench.rssMB(pid)
        try addLibrary(client)
        // Settle, then the idle figure: nothing of the gazetteer is loaded yet.
        Thread.sleep(forTimeInterval: 2)
        let idle = PlacesBench.rssMB(pid)
        let clock = ContinuousClock()
        let t0 = clock.now
        let first = try client.send("GET", "/v1/discover?q=lisbon")
        let firstMs = PlacesBench.seconds(clock.now - t0) * 1_000
        guard first.status == 200 else {
            throw BenchError("discover answered \(first.status): \(String(decoding: first.body, as: UTF8.self))")
        }
        Thread.sleep(forTimeInterval: 1)
        let after = PlacesBench.rssMB(pid)
        print(
            String(
                format:
                    "discover: idle RSS of a new daemon %.1f MB (target <= 25 MB), with 1,000 places and 500 favorites %.1f MB, before the first search; first search %.0f ms (target <= 300 ms); RSS after it %.1f MB (+%.1f MB)",
                fresh, idle, firstMs, after, after - idle))
        for (label, queries, figures) in try measureSearches(client) {
            print(
                String(
                    format:
                        "GET /v1/discover, %@ (%d queries, whole gazetteer + 1,000 places): p50 %.2f ms, p99 %.2f ms (target p99 <= 5 ms)",
                    label, queries, figures.p50, figures.p99))
        }
        let sorted = try TripBench.latencies(
            1_000,
            measuring: { i in
                _ = try client.send("GET", "/v1/discover?q=\(prefixes[i % prefixes.count])&sort=descending&limit=100")
            })
        print(
            String(
                format: "GET /v1/discover, prefixes sorted by popularity, limit 100: p50 %.2f ms, p99 %.2f ms",
                sorted.p50, sorted.p99))
    }

    /// 1,000 library places around Porto, half of them favorites: what discover searches
    /// beside the gazetteer.
    static func addLibrary(_ client: ControlClient) throws {
        for i in 0..<1_000 {
            let lat = 38.0 + Double(i % 100) / 50, lon = -9.0 + Double(i / 100) / 5
            let r = try client.send(
                "POST", "/v1/places",
                body: Array(#"{"name":"Place \#(i) Porto","latitude":\#(lat),"longitude":\#(lon)}"#.utf8))
            guard r.status == 201 else { throw BenchError("place \(i) refused (\(r.status))") }
            if i % 2 == 0, let id = try ExpenseBench.object(r)["id"] as? String {
                _ = try client.send("POST", "/v1/favorites", body: Array(#"{"placeId":"\#(id)"}"#.utf8))
            }
        }
    }

    /// Latency of 2,000 searches each of the 1–3-letter prefixes and the fuzzy queries, in ms.
    static func measureSearches(_ client: ControlClient) throws -> [(
        label: String, queries: Int, figures: (p50: Double, p99: Double)
    )] {
        var out = [(label: String, queries: Int, figures: (p50: Double, p99: Double))]()
        for (label, queries) in [("1-3-letter prefixes", prefixes), ("fuzzy queries", fuzzy)] {
            let encoded = queries.map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
            let figures = try TripBench.latencies(
                2_000,
                measuring: { i in
                    let r = try client.send("GET", "/v1/discover?q=\(encoded[i % encoded.count])")
                    guard r.status == 200 else { throw BenchError("discover answered \(r.status)") }
                })
            out.append((label, queries.count, figures))
        }
        return out
    }
}
