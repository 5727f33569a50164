import Foundation
import PlacesControlClient

/// The trip folder's figures (issue 13), through the socket of a real daemon: a 30-day trip
/// with 500 items — day view and warnings, cached (nothing changed since the last read)
/// and right after a change — and the import of a 10,000-place Google Takeout GeoJSON file.
enum TripBench {
    static func run() throws {
        let (daemon, itinerary) = try monthTrip()
        let client = daemon.client
        for figures in try measureDayViews(client, itinerary: itinerary) {
            print(
                String(
                    format:
                        "GET …/%@ (30 days, 500 items, %d KB): p50 %.2f ms, p99 %.2f ms; right after a change: p50 %.2f ms, p99 %.2f ms (target p99 <= %@)",
                    figures.route, figures.kilobytes, figures.cached.p50, figures.cached.p99, figures.fresh.p50,
                    figures.fresh.p99, figures.route == "days" ? "5 ms" : "10 ms"))
        }
        let file = takeoutFile(places: 10_000)
        let clock = ContinuousClock()
        let start = clock.now
        let imported = try client.send(
            "POST", "/v1/places/import", body: file, headers: ["Content-Type": "application/geo+json"])
        let elapsed = PlacesBench.seconds(clock.now - start)
        guard imported.status == 200 else {
            throw BenchError(
                "import answered \(imported.status): \(String(decoding: imported.body.prefix(300), as: UTF8.self))")
        }
        let answer = (try? JSONSerialization.jsonObject(with: Data(imported.body))) as? [String: Any]
        print(
            String(
                format:
                    "POST /v1/places/import (Takeout GeoJSON, 10,000 places, %.1f MB): %.2f s, %d imported (target <= 2 s)",
                Double(file.count) / 1_048_576, elapsed, answer?["imported"] as? Int ?? -1))
    }

    /// A daemon holding the bench's 30-day trip of 500 items (`tripItems`); its id.
    static func monthTrip() throws -> (BenchDaemon, String) {
        let daemon = try BenchDaemon(name: "Trips")
        let client = daemon.client
        let created = try client.send(
            "POST", "/v1/itineraries",
            body: Array(
                #"{"name":"Bench trip","startDate":"2027-05-01","endDate":"2027-05-30","timeZone":"Europe/Lisbon"}"#
                    .utf8))
        guard created.status == 201,
            let id = try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any],
            let itinerary = id["id"] as? String
        else { throw BenchError("could not create the itinerary: \(created.status)") }
        let items = "/v1/itineraries/\(itinerary)/items"
        for body in tripItems() {
            let r = try client.send("POST", items, body: Array(body.utf8))
            guard r.status == 201 else {
                throw BenchError("item refused (\(r.status)): \(String(decoding: r.body, as: UTF8.self))")
            }
        }
        return (daemon, itinerary)
    }

    /// Day view and warnings of `itinerary`: cached (nothing changed since the last read) and
    /// right after a change, in ms.
    static func measureDayViews(_ client: ControlClient, itinerary: String) throws -> [(
        route: String, kilobytes: Int, cached: (p50: Double, p99: Double), fresh: (p50: Double, p99: Double)
    )] {
        var out = [
            (route: String, kilobytes: Int, cached: (p50: Double, p99: Double), fresh: (p50: Double, p99: Double))
        ]()
        for route in ["days", "warnings"] {
            let path = "/v1/itineraries/\(itinerary)/\(route)"
            let first = try client.send("GET", path)
            guard first.status == 200 else { throw BenchError("GET \(route) answered \(first.status)") }
            let cached = try latencies(2_000, measuring: { _ in _ = try client.send("GET", path) })
            // Each read follows a change of the itinerary (its notes, as a member's edit
            // arriving from a peer would): the daemon reads that change and nothing else
            // (`TripSnapshots`); notes leave the plan as it was.
            let fresh = try latencies(
                300,
                before: { i in
                    _ = try client.send(
                        "PATCH", "/v1/itineraries/\(itinerary)", body: Array(#"{"notes":"n\#(i)"}"#.utf8))
                }, measuring: { _ in _ = try client.send("GET", path) })
            out.append((route, first.body.count / 1024, cached, fresh))
        }
        return out
    }

    /// p50 and p99 in milliseconds of `measuring`, each run after `before`.
    static func latencies(
        _ count: Int, before: (Int) throws -> Void = { _ in }, measuring: (Int) throws -> Void
    ) throws -> (p50: Double, p99: Double) {
        let clock = ContinuousClock()
        var ms = [Double]()
        for i in 0..<count {
            try before(i)
            let t0 = clock.now
            try measuring(i)
            ms.append(PlacesBench.seconds(clock.now - t0) * 1_000)
        }
        ms.sort()
        return (ms[ms.count / 2], ms[ms.count * 99 / 100])
    }

    /// A month in Portugal and Spain: 6 stays, 24 legs, 150 meals, 320 activities — about 17
    /// a day, most with a time and a place.
    static func tripItems() -> [String] {
        var out = [String]()
        func day(_ n: Int) -> String { String(format: "2027-05-%02d", n) }
        func spot(_ i: Int) -> String {
            String(
                format: #""latitude":%.5f,"longitude":%.5f"#, 38.7 + Double(i % 37) * 0.003,
                -9.15 + Double(i % 41) * 0.003)
        }
        for s in 0..<6 {
            out.append(
                #"{"type":"lodging","title":"Stay \#(s)","start":"\#(day(1 + s * 5))T15:00","end":"\#(day(min(30, 6 + s * 5)))T11:00","location":{"name":"Hotel \#(s)",\#(spot(s))},"price":{"amountMinor":48000,"currency":"EUR"}}"#
            )
        }
        for t in 0..<24 {
            let d = 1 + t * 29 / 24
            out.append(
                #"{"type":"transport","title":"Leg \#(t)","mode":"train","start":"\#(day(d))T08:\#(10 + t % 40)","end":"\#(day(d))T10:\#(10 + t % 40)","location":{"name":"A",\#(spot(t))},"to":{"name":"B",\#(spot(t + 7))},"price":{"amountMinor":2500,"currency":"EUR"}}"#
            )
        }
        for f in 0..<150 {
            let d = 1 + f % 30
            out.append(
                #"{"type":"food","title":"Meal \#(f)","start":"\#(day(d))T\#(12 + (f / 30) * 2):00","location":{"name":"R",\#(spot(f))},"rating":4,"price":{"amountMinor":3000,"currency":"EUR"}}"#
            )
        }
        for a in 0..<320 {
            let d = 1 + a % 30
            let hour = 9 + (a / 30) % 11
            let timed = a % 8 != 0
            let when =
                timed
                ? #""start":"\#(day(d))T\#(String(format: "%02d", hour)):30","end":"\#(day(d))T\#(String(format: "%02d", hour + 1)):15""#
                : #""start":"\#(day(d))""#
            out.append(
                #"{"type":"activity","title":"Visit \#(a)",\#(when),"location":{"name":"S",\#(spot(a * 3))},"booked":\#(a % 3 == 0)}"#
            )
        }
        return out
    }

    /// A Google Takeout "Saved Places" file of `places` places around Lisbon.
    static func takeoutFile(places: Int) -> [UInt8] {
        var s = #"{"type":"FeatureCollection","features":["#
        for i in 0..<places {
            if i > 0 { s += "," }
            let lat = 38.6 + Double(i % 100) * 0.002, lon = -9.3 + Double(i / 100) * 0.002
            s +=
                #"{"geometry":{"coordinates":[\#(lon),\#(lat)],"type":"Point"},"properties":{"date":"2024-03-01T10:00:00Z","google_maps_url":"http://maps.google.com/?cid=\#(1_000_000 + i)","location":{"address":"Rua \#(i), 1100-000 Lisboa, Portugal","country_code":"PT","name":"Saved place \#(i)"}},"type":"Feature"}"#
        }
        return Array((s + "]}").utf8)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
