import Foundation
import PlacesControlClient

/// Suggested trips' figure (issue 31), through the socket of a real daemon: a 3-day plan over
/// 500 candidate places (Lisbon-like: categories, opening hours, visit lengths, prices, 50
/// hearted) with a budget and interests. Target: ≤ 500 ms.
enum PlanBench {
    static let hours = [
        "Mo-Su 10:00-18:00", "Tu-Su 10:00-18:00; Mo off", "Mo-Fr 09:00-13:00,14:30-19:00", "24/7",
        "We-Mo 12:00-15:00,19:00-23:00", "Sa,Su 11:00-17:00", "Mo-Sa 09:30-19:00",
    ]
    static let categories = ["museum", "food", "view", "park", "bar", "church", "market", "cafe"]

    static func run() throws {
        let ana = try BenchDaemon(name: "Ana")
        defer { ana.stop() }
        // 500 places within ~4 km of Baixa, in one GeoJSON import.
        var seed: UInt64 = 31
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        var features = [String]()
        for i in 0..<500 {
            let lat = 38.7118 + (Double(next() % 7_000) - 3_500) / 100_000
            let lon = -9.1380 + (Double(next() % 9_000) - 4_500) / 100_000
            let category = categories[i % categories.count]
            features.append(
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"Place \#(i)","categories":["\#(category)"],"opening_hours":"\#(hours[Int(next() % 7)])"}}"#
            )
        }
        let file = #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
        let imported = try ana.client.send(
            "POST", "/v1/places/import", body: Array(file.utf8), headers: ["Content-Type": "application/geo+json"])
        guard imported.status == 200 else { throw BenchError("the import was refused: \(imported.text)") }
        let places = try ana.json("GET", "/v1/places", nil)["places"] as? [[String: Any]] ?? []
        guard places.count == 500 else { throw BenchError("500 places expected, got \(places.count)") }
        for (i, place) in places.enumerated() {
            guard let id = place["id"] as? String else { continue }
            var body = #"{"visitMinutes":\#(30 + (i % 6) * 15)"#
            if i % 3 == 0 { body += #","entryPrice":{"amountMinor":\#(300 + (i % 7) * 250),"currency":"EUR"}"# }
            if i % 3 == 1 { body += #","priceLevel":\#(1 + i % 4)"# }
            _ = try ana.json("PATCH", "/v1/places/\(id)", body + "}")
            if i % 10 == 0 { _ = try ana.json("POST", "/v1/favorites", #"{"placeId":"\#(id)"}"#) }
        }
        let request = Array(
            #"{"near":"38.7118,-9.1380","startDate":"2027-05-01","endDate":"2027-05-03","dayStart":"09:30","dayEnd":"19:00","stay":{"latitude":38.7107,"longitude":-9.1365},"mode":"walking","budget":{"amountMinor":15000,"currency":"EUR"},"interests":["food","museum"]}"#
                .utf8)
        let clock = ContinuousClock()
        var times = [Double]()
        var stops = 0
        var candidates = 0
        for _ in 0..<20 {
            let start = clock.now
            let r = try ana.client.send("POST", "/v1/plans", body: request)
            times.append(PlacesBench.seconds(clock.now - start) * 1_000)
            guard r.status == 200 else { throw BenchError("the plan was refused: \(r.text)") }
            let plan = (try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
            candidates = plan["candidates"] as? Int ?? 0
            stops = (plan["days"] as? [[String: Any]] ?? []).reduce(0) { $0 + (($1["stops"] as? [Any])?.count ?? 0) }
        }
        times.sort()
        print(
            String(
                format:
                    "plans: a 3-day plan over %d candidate places through the socket: p50 %.0f ms, max %.0f ms of 20 (%d stops; target <= 500 ms)",
                candidates, times[times.count / 2], times.last ?? 0, stops))
    }
}
