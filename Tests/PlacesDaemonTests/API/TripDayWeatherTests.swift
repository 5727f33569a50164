import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The forecast on a trip's days: fetched for a trip under way or starting within 7 days
/// without the dashboard being shown, never for one further off, and shown on the days the
/// forecast covers (null on the others), from the cache, in `…/days` and `…/days/{day}`.
@Suite("Trip day weather", .serialized)
struct TripDayWeatherTests {
    typealias Object = DestinationsAPITests.Object
    typealias Clock = DestinationsAPITests.Clock

    /// The days of a trip, by date, once `done` holds (the weather loop runs beside).
    func days(_ t: LoggedInDaemon, _ trip: String, until done: ([String: Object]) -> Bool) async throws
        -> [String: Object]
    {
        let deadline = ContinuousClock.now + .seconds(30)
        var last = [String: Object]()
        while ContinuousClock.now < deadline {
            let body = try DestinationsAPITests.json(try await t.d.send("GET", "/v1/itineraries/\(trip)/days"))
            last = [:]
            for case .object(let day) in body["days"]?.arrayValue ?? [] {
                if let date = day["date"]?.stringValue { last[date] = day }
            }
            if done(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("the days never got there: \(last)")
    }

    @Test("a trip within 7 days gets its days' forecast without the dashboard; one a month off is not asked for")
    func tripDays() async throws {
        let server = try FakeWeatherServer.start()
        defer { server.stop() }
        let clock = Clock()
        clock.set("2026-07-10T10:00:00Z")
        let t = try await DestinationsAPITests.start(clock)
        // A slow machine must not turn the good answer into a failure (retried only an hour later).
        await t.d.inProcessDaemon?.setWeatherTimeout(milliseconds: 5_000)
        let lisbon = try await t.addPlace("Miradouro", 38.7139, -9.1334)
        let madrid = try await t.addPlace("Retiro", 40.4153, -3.6845)
        // Within 7 days, partly beyond the 7-day forecast (10 to 16 July).
        let soon = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Lisbon","startDate":"2026-07-15","endDate":"2026-07-18","places":["\#(lisbon.id)"]}"#)
        let later = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Madrid","startDate":"2026-08-10","endDate":"2026-08-12","places":["\#(madrid.id)"]}"#)

        // No source: every day's weather is null, and nothing is asked.
        var days = try await self.days(t, soon.id) { $0.count == 4 }
        #expect(days.values.allSatisfy { $0["weather"] == .null })

        _ = try await t.d.call(
            Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(server.url("/good"))"}"#)
        days = try await self.days(t, soon.id) { $0["2026-07-15"]?["weather"] != .null }
        let first = try #require(days["2026-07-15"]?["weather"]?.objectValue)
        #expect(first["minC"] == .number(15.2) && first["maxC"] == .number(26.1))
        #expect(first["condition"] == .string("overcast") && first["precipitationMm"] == .number(0.4))
        #expect(first["source"] == .string(server.url("/good")))
        #expect(first["fetchedAt"] == .string("2026-07-10T10:00:00.000Z"))
        #expect(first["destination"]?.objectValue?["name"] == .string("Lisbon"))
        #expect(days["2026-07-16"]?["weather"] != .null)
        #expect(
            days["2026-07-17"]?["weather"] == .null && days["2026-07-18"]?["weather"] == .null, "beyond the forecast")

        // One day, and the CLI's type reads it.
        let one = try await t.d.call(TripDay.self, "GET", "/v1/itineraries/\(soon.id)/days/2026-07-16")
        #expect(one.weather?.maxC == 26.1 && one.weather?.destination.name == "Lisbon")
        let list = try await t.d.call(DayList.self, "GET", "/v1/itineraries/\(soon.id)/days")
        #expect(list.days.map { $0.weather != nil } == [true, true, false, false])

        // Madrid (a month off) was never asked for, nor shown; Lisbon once.
        #expect(server.requests.count == 1)
        #expect(server.requests.allSatisfy { $0.contains("latitude=38.") })
        let madridDays = try await self.days(t, later.id) { $0.count == 3 }
        #expect(madridDays.values.allSatisfy { $0["weather"] == .null })
    }

    @Test("a trip under way is fetched for too")
    func underWay() async throws {
        let server = try FakeWeatherServer.start()
        defer { server.stop() }
        let clock = Clock()
        clock.set("2026-07-12T10:00:00Z")
        let t = try await DestinationsAPITests.start(clock)
        // A slow machine must not turn the good answer into a failure (retried only an hour later).
        await t.d.inProcessDaemon?.setWeatherTimeout(milliseconds: 5_000)
        let porto = try await t.addPlace("Ribeira", 41.1406, -8.6110)
        let trip = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Porto","startDate":"2026-07-09","endDate":"2026-07-13","places":["\#(porto.id)"]}"#)
        _ = try await t.d.call(
            Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(server.url("/good"))"}"#)
        let days = try await self.days(t, trip.id) { $0["2026-07-12"]?["weather"] != .null }
        #expect(days["2026-07-12"]?["weather"]?.objectValue?["destination"]?.objectValue?["name"] == .string("Porto"))
        #expect(days["2026-07-09"]?["weather"] == .null, "before the forecast's first day")
        #expect(server.requests.first?.contains("latitude=41.") == true)
    }
}
