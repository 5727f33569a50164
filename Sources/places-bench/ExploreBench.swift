import Foundation
import PlacesControlClient

/// Explore's figures (issue 17), through the sockets of real daemons over loopback: search and
/// both sorts over 5,000 published trips, and how soon a 200-item network trip is explorable
/// on another daemon after it is published.
enum ExploreBench {
    static let cities: [(name: String, latitude: Double, longitude: Double)] = [
        ("Lisbon", 38.7167, -9.1333), ("Porto", 41.1496, -8.6110), ("Madrid", 40.4168, -3.7038),
        ("Paris", 48.8566, 2.3522), ("Rome", 41.9028, 12.4964), ("Berlin", 52.52, 13.405),
        ("Kyoto", 35.0116, 135.7681), ("Lima", -12.0464, -77.0428),
    ]

    static func run() throws {
        let ana = try BenchDaemon(name: "Ana")
        let bruno = try BenchDaemon(name: "Bruno")
        try FeedBench.befriend(ana, bruno)
        let clock = ContinuousClock()

        // A network trip of 200 items: from Ana's publish to Bruno's explore listing it.
        let big = try ana.json(
            "POST", "/v1/itineraries", #"{"name":"Grand tour","startDate":"2027-06-01","endDate":"2027-06-30"}"#)
        guard let bigID = big["id"] as? String else { throw BenchError("the grand tour was refused") }
        for n in 0..<200 {
            let city = cities[n % cities.count]
            _ = try ana.json(
                "POST", "/v1/itineraries/\(bigID)/items",
                #"{"type":"activity","title":"Stop \#(n)","start":"2027-06-\#(String(format: "%02d", n % 30 + 1))T\#(String(format: "%02d", 8 + n % 12)):00","location":{"latitude":\#(city.latitude),"longitude":\#(city.longitude)},"description":"Something worth doing at stop \#(n)"}"#
            )
        }
        let sent = clock.now
        let published = try ana.json("POST", "/v1/itineraries/\(bigID)/publish", #"{"audience":"network"}"#)
        guard let trip = published["id"] as? String else { throw BenchError("the grand tour was not published") }
        try FeedBench.wait("Bruno explores the grand tour", timeout: 60) {
            try bruno.client.send("GET", "/v1/explore/\(trip)").status == 200
        }
        let arrived = PlacesBench.seconds(clock.now - sent)
        let detail = try bruno.json("GET", "/v1/explore/\(trip)", nil)
        print(
            String(
                format:
                    "a 200-item network trip, from publishing to explorable at another daemon: %.3f s (%d items there; target <= 1 s)",
                arrived, (detail["items"] as? [Any])?.count ?? 0))
        // Bruno would keep only 1,000 trips of one author (Protocol/sync.md §7.5): the rest is
        // measured at Ana's own daemon.
        bruno.stop()

        // 5,000 trips Ana published (to the network), each of three items in one city, with
        // likes from Ana on every seventh: her own trips, all known to her.
        let start = clock.now
        _ = try publishTrips(ana, count: 5_000)
        print(String(format: "publishing 5,000 trips of 3 items: %.1f s", PlacesBench.seconds(clock.now - start)))
        _ = try ana.client.send("GET", "/v1/explore?limit=1")
        let queries = [
            ("search ?q=lisbon", "/v1/explore?q=lisbon&limit=20"),
            ("?sort=likes", "/v1/explore?sort=likes&limit=20"),
            ("?sort=newest", "/v1/explore?sort=newest&limit=20"),
            ("?country=PT&sort=likes", "/v1/explore?country=PT&sort=likes&limit=20"),
        ]
        for (name, path) in queries {
            let figures = try TripBench.latencies(1_000, measuring: { _ in _ = try ana.client.send("GET", path) })
            print(
                String(
                    format: "GET /v1/explore %@ (5,000 trips): p50 %.2f ms, p99 %.2f ms (target p99 <= 10 ms)", name,
                    figures.p50, figures.p99))
        }

    }

    /// `count` trips `daemon` publishes to the network, each of three items in one city, with
    /// its own likes on every seventh; their explore ids.
    static func publishTrips(_ daemon: BenchDaemon, count: Int) throws -> [String] {
        let ana = daemon
        var ids = [String]()
        for i in 0..<count {
            let city = cities[i % cities.count]
            let it = try ana.json(
                "POST", "/v1/itineraries",
                #"{"name":"\#(city.name) trip \#(i)","startDate":"2027-05-01","endDate":"2027-05-03"}"#)
            guard let id = it["id"] as? String else { throw BenchError("itinerary \(i) refused") }
            for (n, title) in ["Hotel", "Dinner", "Museum"].enumerated() {
                let type = ["lodging", "food", "activity"][n]
                _ = try ana.json(
                    "POST", "/v1/itineraries/\(id)/items",
                    #"{"type":"\#(type)","title":"\#(title) \#(i)","start":"2027-05-0\#(n + 1)T10:00","location":{"latitude":\#(city.latitude),"longitude":\#(city.longitude)}}"#
                )
            }
            let published = try ana.json("POST", "/v1/itineraries/\(id)/publish", #"{"audience":"network"}"#)
            guard let trip = published["id"] as? String else { throw BenchError("publish \(i) refused") }
            ids.append(trip)
            if i % 7 == 0 { _ = try ana.json("PUT", "/v1/explore/\(trip)/like", nil) }
        }
        return ids
    }
}
