import Foundation
import PlacesControlClient

/// The dashboard's figure (issue 33), through the socket of a real daemon: `GET /v1/dashboard`
/// with 10 destinations, 10,000 places and 5,000 published trips she knows, the weather from
/// the kept forecasts (a local Open-Meteo-compatible source: Python's http.server).
enum DashboardBench {
    static let cities: [(id: String, latitude: Double, longitude: Double)] = [
        ("city:2267057", 38.7251, -9.1498), ("city:2735943", 41.1485, -8.611), ("city:3117735", 40.4165, -3.7026),
        ("city:2988507", 48.8534, 2.3488), ("city:3169070", 41.8919, 12.5113), ("city:2950159", 52.5244, 13.4105),
        ("city:1857910", 35.0211, 135.7538), ("city:3936456", -12.0432, -77.0282), ("city:5128581", 40.7143, -74.006),
        ("city:2643743", 51.5085, -0.1257),
    ]

    static func run() throws {
        let ana = try BenchDaemon(name: "Ana")
        let clock = ContinuousClock()
        var start = clock.now
        for i in 0..<10_000 {
            let city = cities[i % cities.count]
            let lat = city.latitude + Double(i % 97) * 0.001, lon = city.longitude + Double(i % 89) * 0.001
            _ = try ana.json("POST", "/v1/places", #"{"name":"Place \#(i)","latitude":\#(lat),"longitude":\#(lon)}"#)
        }
        print(String(format: "adding 10,000 places: %.1f s", PlacesBench.seconds(clock.now - start)))
        start = clock.now
        // PLACES_BENCH_DASHBOARD_TRIPS publishes fewer (publishing 5,000 one request at a time
        // takes 10 minutes on a quiet machine, far more on a busy one).
        let trips = ProcessInfo.processInfo.environment["PLACES_BENCH_DASHBOARD_TRIPS"].flatMap { Int($0) } ?? 5_000
        for i in 0..<max(0, trips) {
            let city = cities[i % cities.count]
            let it = try ana.json(
                "POST", "/v1/itineraries", #"{"name":"Trip \#(i)","startDate":"2025-05-01","endDate":"2025-05-03"}"#)
            guard let id = it["id"] as? String else { throw BenchError("itinerary \(i) refused") }
            _ = try ana.json(
                "POST", "/v1/itineraries/\(id)/items",
                #"{"type":"activity","title":"Walk \#(i)","start":"2025-05-01T10:00","location":{"latitude":\#(city.latitude),"longitude":\#(city.longitude)}}"#
            )
            let published = try ana.json("POST", "/v1/itineraries/\(id)/publish", #"{"audience":"network"}"#)
            guard let trip = published["id"] as? String else { throw BenchError("publish \(i) refused") }
            if i % 7 == 0 { _ = try ana.json("PUT", "/v1/explore/\(trip)/like", nil) }
        }
        print(String(format: "publishing %d trips: %.1f s", trips, PlacesBench.seconds(clock.now - start)))
        for city in cities { _ = try ana.json("POST", "/v1/destinations", #"{"gazetteerId":"\#(city.id)"}"#) }

        let (server, port) = try weatherSource(dir: ana.dataDir)
        defer { server.terminate() }
        _ = try ana.json("PUT", "/v1/preferences", #"{"weatherSource":"http://127.0.0.1:\#(port)/v1/forecast"}"#)
        try FeedBench.wait("every card has its weather", timeout: 60) {
            let cards = try ana.json("GET", "/v1/dashboard", nil)["destinations"] as? [[String: Any]] ?? []
            return cards.count == 10 && cards.allSatisfy { $0["weatherStatus"] as? String == "ok" }
        }
        let figures = try TripBench.latencies(
            1_000, measuring: { _ in _ = try ana.client.send("GET", "/v1/dashboard") })
        print(
            String(
                format:
                    "GET /v1/dashboard, 10 destinations, 10,000 places, %d trips: p50 %.2f ms, p99 %.2f ms (target p99 <= 10 ms)",
                trips, figures.p50, figures.p99))
    }

    /// Python's http.server answering every GET with a 7-day forecast; its port.
    static func weatherSource(dir: String) throws -> (Process, Int) {
        let days = (0..<7).map { "\"2027-05-0\($0 + 1)\"" }.joined(separator: ",")
        let forecast =
            #"{"current":{"temperature_2m":18.5,"weather_code":1,"wind_speed_10m":9.0},"daily":{"time":[\#(days)],"weather_code":[1,1,2,3,61,1,0],"temperature_2m_max":[22,23,21,19,18,22,24],"temperature_2m_min":[12,13,12,11,10,12,14],"precipitation_sum":[0,0,0,0.5,4.1,0,0]}}"#
        let file = dir + "-forecast.json"
        try Data(forecast.utf8).write(to: URL(fileURLWithPath: file))
        let script = """
            import http.server, sys
            body = open(sys.argv[1], 'rb').read()
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200); self.send_header('Content-Type', 'application/json')
                    self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
                def log_message(self, *a): pass
            s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, file]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("the weather source did not start") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("the weather source said '\(text)'")
        }
        return (p, port)
    }
}
