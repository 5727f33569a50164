import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The dashboard's places, trips and spot of the day, and its weather from a fake
/// Open-Meteo-compatible server on loopback that answers well, slowly, hugely, with garbage,
/// absurd values and errors.
@Suite("Dashboard API", .serialized)
struct DashboardAPITests {
    typealias Object = DestinationsAPITests.Object
    typealias Clock = DestinationsAPITests.Clock

    func card(_ t: LoggedInDaemon, _ id: String) async throws -> Object {
        let r = try await t.d.send("GET", "/v1/dashboard/\(id)")
        guard r.status == 200 else { throw HarnessError("card \(id): \(r.status) \(r.text)") }
        return try DestinationsAPITests.json(r)
    }

    @Test("places there, the spot of the day (stable all day, another tomorrow, never visited), trips")
    func placesSpotTrips() async throws {
        let clock = Clock()
        clock.set("2026-05-04T08:00:00Z")
        let t = try await DestinationsAPITests.start(clock)
        var ids = [String]()
        for i in 0..<12 {
            ids.append(try await t.addPlace("Spot \(i)", 38.70 + Double(i) * 0.003, -9.14).id)
        }
        let far = try await t.addPlace("Far away", 41.1496, -8.6109)
        _ = try await t.d.call(Object.self, "POST", "/v1/destinations", json: #"{"query":"Lisbon"}"#)
        var lisbon = try await card(t, "city:2267057")
        let places = lisbon["places"]?.arrayValue?.compactMap { $0.objectValue?["placeId"]?.stringValue } ?? []
        #expect(Set(places) == Set(ids), "the twelve near Lisbon, not Porto's")
        #expect(lisbon["places"]?.arrayValue?.first?.objectValue?["savedBy"] == .array([.string("you")]))
        let morning = try #require(lisbon["spotOfTheDay"]?.objectValue?["placeId"]?.stringValue)
        #expect(ids.contains(morning) && morning != far.id)
        #expect(lisbon["spotOfTheDay"]?.objectValue?["reason"] == .string("you saved it"))
        clock.set("2026-05-04T20:00:00Z")
        #expect((try await card(t, "Lisbon"))["spotOfTheDay"]?.objectValue?["placeId"] == .string(morning), "all day")
        var spots = [morning]
        for day in 5...11 {
            clock.set("2026-05-\(day < 10 ? "0" : "")\(day)T09:00:00Z")
            spots.append(
                try #require((try await card(t, "Lisbon"))["spotOfTheDay"]?.objectValue?["placeId"]?.stringValue))
        }
        #expect(zip(spots, spots.dropFirst()).contains { $0 != $1 }, "another spot on another day: \(spots)")
        #expect(Set(spots).count >= 3)

        // Marked visited: never the spot; all visited: no spot.
        let today = try #require(spots.last)
        _ = try await t.d.call(Object.self, "POST", "/v1/visited", json: #"{"placeId":"\#(today)"}"#)
        lisbon = try await card(t, "Lisbon")
        let next = try #require(lisbon["spotOfTheDay"]?.objectValue?["placeId"]?.stringValue)
        #expect(next != today)
        for id in ids where id != today {
            _ = try await t.d.call(Object.self, "POST", "/v1/visited", json: #"{"placeId":"\#(id)"}"#)
        }
        #expect((try await card(t, "Lisbon"))["spotOfTheDay"] == .null)
        #expect(try await t.d.send("POST", "/v1/visited", json: #"{"placeId":"nope"}"#).status == 400)
        _ = try await t.d.call(Object.self, "DELETE", "/v1/visited/\(today)")
        #expect((try await card(t, "Lisbon"))["spotOfTheDay"]?.objectValue?["placeId"] == .string(today))

        // A trip starting in 5 days with a place in Lisbon and one in Porto: on Lisbon's card
        // with its countdown; Porto is listed as a trip destination without being added.
        clock.set("2026-05-11T09:00:00Z")
        let trip = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json:
                #"{"name":"Spring","startDate":"2026-05-16","endDate":"2026-05-20","places":["\#(ids[0])","\#(far.id)"]}"#
        )
        lisbon = try await card(t, "Lisbon")
        let trips = lisbon["trips"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(trips.map { $0["id"] } == [.string(trip.id)])
        #expect(trips.first?["daysUntil"] == .int(5))
        let listed =
            try DestinationsAPITests.json(try await t.d.send("GET", "/v1/destinations"))["destinations"]?
            .arrayValue?.compactMap(\.objectValue) ?? []
        let porto = listed.first { $0["id"] == .string("city:2735943") }
        #expect(porto?["source"] == .string("trip"))
        #expect(listed.first { $0["id"] == .string("city:2267057") }?["source"] == .string("added"))
        let dashboard = try DestinationsAPITests.json(try await t.d.send("GET", "/v1/dashboard"))
        #expect(dashboard["destinations"]?.arrayValue?.count == 2, "Lisbon, and Porto from the trip")
        #expect(
            try await t.d.send("DELETE", "/v1/destinations/city:2735943").status == 404, "a trip's city is not removed")
    }

    /// Polls the card until `done` holds (the weather loop runs beside the requests).
    func waitCard(_ t: LoggedInDaemon, _ id: String, _ done: (Object) -> Bool) async throws -> Object {
        let deadline = ContinuousClock.now + .seconds(8)
        var last = Object()
        while ContinuousClock.now < deadline {
            last = try await card(t, id)
            if done(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("the card never got there: \(last)")
    }

    static func temperature(_ card: Object) -> Double? {
        card["weather"]?.objectValue?["current"]?.objectValue?["temperatureC"]?.doubleValue
    }

    @Test("weather: off, a good source, at most once an hour, the cache and its age, stale after a failure")
    func weather() async throws {
        let server = try FakeWeatherServer.start()
        defer { server.stop() }
        let clock = Clock()
        clock.set("2026-07-10T10:00:00Z")
        let t = try await DestinationsAPITests.start(clock)
        _ = try await t.d.call(Object.self, "POST", "/v1/destinations", json: #"{"query":"Lisbon"}"#)
        let stay = try await t.addPlace("Pensão Amor", 38.7071, -9.1440)
        let trip = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Summer","startDate":"2026-07-11","endDate":"2026-07-12","places":["\#(stay.id)"]}"#)
        var lisbon = try await card(t, "Lisbon")
        #expect(lisbon["weatherStatus"] == .string("off") && lisbon["weather"] == .null)

        for bad in ["ftp://127.0.0.1/x", "file:///etc/passwd", "http://user:pw@127.0.0.1/", "not a url"] {
            let r = try await t.d.send(
                "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(bad)","discoverSort":"ascending"}"#)
            let problem = try DestinationsAPITests.json(r)
            #expect(r.status == 400 && problem["field"] == .string("weatherSource"), "\(bad)")
        }
        #expect(try await t.d.call(Preferences.self, "GET", "/v1/preferences") == Preferences(discoverSort: "off"))
        _ = try await t.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"discoverSort":"ascending"}"#)
        let set = try await t.d.call(
            Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(server.url("/good"))"}"#)
        #expect(
            set == Preferences(discoverSort: "ascending", weatherSource: server.url("/good")),
            "only the one named changes")

        lisbon = try await waitCard(t, "Lisbon") { $0["weatherStatus"] == .string("ok") }
        #expect(Self.temperature(lisbon) == 21.5)
        #expect(lisbon["weather"]?.objectValue?["daily"]?.arrayValue?.count == 7)
        #expect(lisbon["weather"]?.objectValue?["ageMinutes"] == .int(0))
        #expect(server.requests.count == 1)
        let summer = lisbon["trips"]?.arrayValue?.first?.objectValue
        #expect(summer?["id"] == .string(trip.id))
        #expect(
            summer?["forecast"]?.arrayValue?.compactMap { $0.objectValue?["date"]?.stringValue }
                == ["2026-07-11", "2026-07-12"], "the forecast for the trip's dates")
        let sent = try #require(server.requests.first)
        #expect(
            sent.hasPrefix("/good?latitude=38.73&longitude=-9.15&current=temperature_2m,weather_code,wind_speed_10m"))

        // Within the hour: the kept answer, no new request, and the age shown.
        server.setTemperature(5)
        clock.advance(minutes: 40)
        for _ in 0..<5 { lisbon = try await card(t, "Lisbon") }
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.requests.count == 1, "at most once an hour")
        #expect(Self.temperature(lisbon) == 21.5 && lisbon["weather"]?.objectValue?["ageMinutes"] == .int(40))

        clock.advance(minutes: 21)
        lisbon = try await waitCard(t, "Lisbon") { Self.temperature($0) == 5 }
        #expect(server.requests.count == 2 && lisbon["weatherStatus"] == .string("ok"))

        // The source fails: the kept forecast stays, stale, with the reason.
        server.setFailing(true)
        clock.advance(minutes: 61)
        lisbon = try await waitCard(t, "Lisbon") { $0["weatherStatus"] == .string("stale") }
        #expect(Self.temperature(lisbon) == 5)
        #expect(lisbon["weatherError"]?.stringValue?.contains("HTTP 500") == true)

        // Off again: nothing shown, nothing asked.
        _ = try await t.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":null}"#)
        #expect((try await card(t, "Lisbon"))["weatherStatus"] == .string("off"))
    }

    @Test("a hostile source: slow, trickling, huge, garbage, absurd, wrong lengths, NaN, errors; requests unslowed")
    func hostile() async throws {
        let server = try FakeWeatherServer.start()
        defer { server.stop() }
        let clock = Clock()
        clock.set("2026-07-10T10:00:00Z")
        let t = try await DestinationsAPITests.start(clock)
        _ = try await t.d.call(Object.self, "POST", "/v1/destinations", json: #"{"gazetteerId":"city:2267057"}"#)
        for (path, reason) in [
            ("/slow", "did not answer"), ("/trickle", "did not answer"), ("/huge", "KiB"), ("/huge-declared", "KiB"),
            ("/garbage", "not JSON"), ("/absurd", "10000"), ("/short", "has 5 values for 7 days"), ("/nan", "not JSON"),
            ("/500", "HTTP 500"), ("/missing", "HTTP 404"),
        ] {
            _ = try await t.d.call(
                Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(server.url(path))"}"#)
            let started = ContinuousClock.now
            var slowest = Duration.zero
            var card = Object()
            while ContinuousClock.now - started < .seconds(8) {
                let asked = ContinuousClock.now
                card = try await self.card(t, "Lisbon")
                slowest = max(slowest, ContinuousClock.now - asked)
                if let error = card["weatherError"]?.stringValue, error != "not fetched yet" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(card["weatherStatus"] == .string("unavailable") && card["weather"] == .null, "\(path)")
            #expect(
                card["weatherError"]?.stringValue?.contains(reason) == true, "\(path): \(card["weatherError"] ?? .null)"
            )
            #expect(slowest < .milliseconds(500), "\(path): the dashboard never waits for the source: \(slowest)")
        }
        // Nothing else changed: the destination and the preferences are as they were.
        #expect(try await t.d.call(Preferences.self, "GET", "/v1/preferences").discoverSort == "off")
        #expect((try await card(t, "Lisbon"))["name"] == .string("Lisbon"))
    }
}
