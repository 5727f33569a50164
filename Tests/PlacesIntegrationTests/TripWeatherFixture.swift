import Foundation
import PlacesTestSupport

/// A trip about now for the trip-day weather tests against real daemons (whose clock is the
/// real one): three days in Lisbon from today (UTC), with one place to go there.
enum TripWeatherFixture {
    /// What the fake source's `/today` forecast reads as on each day (Open-Meteo code 3).
    static let appText = "15–26 °C · overcast · 0.4 mm"
    static let cliText = "15–26 °C, overcast, 0.4 mm (Lisbon)"

    /// Makes the trip; answers its id.
    static func trip(_ d: DaemonProcess) throws -> String {
        let start = FakeWeatherServer.utcDate(Date())
        let end = FakeWeatherServer.utcDate(Date().addingTimeInterval(2 * 86_400))
        let place = try json(d, "POST", "/v1/places", #"{"name":"Miradouro","latitude":38.7139,"longitude":-9.1334}"#)
        let placeID = try string(place["id"], "the new place's id")
        let trip = try json(
            d, "POST", "/v1/itineraries",
            #"{"name":"Lisbon now","startDate":"\#(start)","endDate":"\#(end)","places":["\#(placeID)"]}"#)
        return try string(trip["id"], "the new itinerary's id")
    }

    /// Names `source` as the weather source and waits until every day of `trip` has a kept
    /// forecast (the daemon's weather loop fetches for a trip under way without a dashboard).
    static func waitForForecast(_ d: DaemonProcess, trip: String, source: String) throws {
        _ = try json(d, "PUT", "/v1/preferences", #"{"weatherSource":"\#(source)"}"#)
        let deadline = Date().addingTimeInterval(45)
        var days: [[String: Any]] = []
        while Date() < deadline {
            days = try json(d, "GET", "/v1/itineraries/\(trip)/days", nil)["days"] as? [[String: Any]] ?? []
            if days.count == 3 && days.allSatisfy({ $0["weather"] is [String: Any] }) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw HarnessError("the trip's days never got their forecast: \(days)")
    }

    private static func json(_ d: DaemonProcess, _ method: String, _ path: String, _ body: String?) throws
        -> [String: Any]
    {
        let r = try d.send(method, path, json: body)
        guard (200..<300).contains(r.status) else { throw HarnessError("\(method) \(path) → \(r.status): \(r.text)") }
        return JSONCanon.parse(r.body) as? [String: Any] ?? [:]
    }

    private static func string(_ value: Any?, _ what: String) throws -> String {
        guard let text = value as? String, !text.isEmpty else { throw HarnessError("no \(what)") }
        return text
    }
}
