import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `places destination|here|dashboard|config weather` against a real `placesd`, with a fake
/// Open-Meteo-compatible source on loopback.
@Suite("places CLI: destinations and the dashboard", .serialized)
struct CLIDestinationTests {
    @Test("add Lisbon, set here, the dashboard without and with a weather source, remove")
    func dashboard() async throws {
        let server = try FakeWeatherServer.start()
        defer { server.stop() }
        let ana = try SyncNode("Ana")
        let added = try ana.d.cli(["destination", "add", "Lisbon"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added Lisbon (city:2267057, Europe/Lisbon)"), "\(added.stdout)")
        let place = try ana.d.cli(["place", "add", "Castelo de São Jorge", "--lat", "38.7139", "--lon", "-9.1335"])
        #expect(place.status == 0, "\(place.stderr)")
        let here = try ana.d.cli(["here", "52.52,13.405"])
        #expect(here.stdout.contains("Berlin") && here.stdout.contains("Europe/Berlin"), "\(here.stdout)\(here.stderr)")

        let card = try ana.d.cli(["dashboard", "Lisbon"])
        #expect(card.status == 0, "\(card.stderr)")
        for expected in [
            "Lisbon — city, Portugal", "Europe/Lisbon", "1 h behind you", "sunrise", "daylight", "no weather source",
            "spot of the day: Castelo de São Jorge — you saved it", "places: Castelo de São Jorge (you)",
        ] {
            #expect(card.stdout.contains(expected), "\(expected): \(card.stdout)")
        }
        let all = try ana.d.cli(["dashboard"])
        #expect(all.stdout.hasPrefix("Here: Berlin"), "\(all.stdout)")
        #expect(try ana.d.cli(["destination", "list"]).stdout.contains("city:2267057  Lisbon, Portugal"))

        let bad = try ana.d.cli(["config", "weather", "ftp://127.0.0.1/forecast"])
        #expect(bad.status != 0 && bad.stderr.contains("weatherSource"), "\(bad.stderr)")
        let set = try ana.d.cli(["config", "weather", server.url("/good")])
        #expect(set.stdout.contains("weather source: \(server.url("/good"))"), "\(set.stdout)\(set.stderr)")
        try await eventually("the dashboard shows the source's forecast", timeout: .seconds(20)) {
            try ana.d.cli(["dashboard", "Lisbon"]).stdout.contains("weather: 21.5 °C mainly clear")
        }
        #expect(server.requests.contains { $0.contains("latitude=38.73&longitude=-9.15") })
        #expect(try ana.d.cli(["config", "weather", "off"]).stdout.contains("no weather source"))

        let removed = try ana.d.cli(["destination", "remove", "Lisbon"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!(try ana.d.cli(["destination", "list"]).stdout.contains("city:2267057")))
        let unknown = try ana.d.cli(["destination", "add", "Qxzqxzqxz"])
        #expect(unknown.status != 0 && unknown.stderr.contains("Qxzqxzqxz"), "\(unknown.stderr)")
    }

    @Test("a trip's days: each day's header carries its forecast once a source is set")
    func tripDaysWeather() throws {
        let server = try FakeWeatherServer.start()
        defer { server.stop() }
        let ana = try SyncNode("Ana")
        let trip = try TripWeatherFixture.trip(ana.d)
        func headers() throws -> [String] {
            let days = try ana.d.cli(["itinerary", "days", trip])
            #expect(days.status == 0, "\(days.stderr)")
            return days.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Day ") }
        }
        let before = try headers()
        #expect(before.count == 3 && before.allSatisfy { !$0.contains("°C") }, "\(before)")
        try TripWeatherFixture.waitForForecast(ana.d, trip: trip, source: server.url("/today"))
        let after = try headers()
        #expect(after.count == 3 && after.allSatisfy { $0.hasSuffix(" · " + TripWeatherFixture.cliText) }, "\(after)")
    }
}
