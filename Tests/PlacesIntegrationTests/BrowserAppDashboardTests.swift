import Foundation
import PlacesTestSupport
import Testing

/// The dashboard, the app's home view: here and each destination, switched by tabs.
extension BrowserAppTests {
    @Suite("Dashboard") struct Dashboard {
        @Test("home is the dashboard: here and Lisbon switch, a destination added from the page")
        func switchesBetweenCards() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            try LisbonDemo.places(app.node, [LisbonDemo.belemTower, LisbonDemo.jeronimos])
            _ = try app.api("PUT", "/v1/here", #"{"latitude":52.52,"longitude":13.405}"#)
            _ = try app.api("POST", "/v1/destinations", #"{"query":"Lisbon"}"#)
            try app.open()
            try b.wait("home shows here's card first") {
                try b.texts("[data-testid=dashboard-tabs] [role=tab]") == ["Here", "Lisbon"]
            }
            try b.waitForText("[data-testid=dashboard-card] h3", containing: "Here: Berlin")
            try b.waitForText("[data-testid=dashboard-time]", containing: "Europe/Berlin")
            try b.waitForText("[data-testid=dashboard-weather]", containing: "No weather source")

            try b.click("[data-testid=dashboard-tabs] [data-tab='city:2267057']")
            try b.waitForText("[data-testid=dashboard-card] h3", containing: "Lisbon")
            try b.waitForText("[data-testid=dashboard-time]", containing: "1 h behind you")
            try b.waitForText("[data-testid=dashboard-sun]", containing: "Sunrise")
            try b.waitForText("[data-testid=dashboard-places]", containing: "Torre de Belém")
            let spot = try b.text(try b.waitFor("[data-testid=dashboard-spot]"))
            #expect(spot.contains("Torre de Belém") || spot.contains("Mosteiro"), "\(spot)")

            try b.fill("[data-testid=dashboard-query]", "Tokyo")
            try b.click("[data-testid=dashboard-add] button[type=submit]")
            try b.waitForText("[data-testid=dashboard-card] h3", containing: "Tokyo")
            try b.waitForText("[data-testid=dashboard-time]", containing: "Asia/Tokyo")
            #expect(try b.texts("[data-testid=dashboard-tabs] [role=tab]") == ["Here", "Lisbon", "Tokyo"])
            try b.click("[data-testid=dashboard-remove]")
            try b.wait("Tokyo is removed") {
                try b.texts("[data-testid=dashboard-tabs] [role=tab]") == ["Here", "Lisbon"]
            }
            try app.assertNoConsoleErrors()
        }

        @Test("a trip's days show the forecast the daemon kept for them")
        func tripDaysShowWeather() throws {
            let server = try FakeWeatherServer.start()
            defer { server.stop() }
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let trip = try TripWeatherFixture.trip(app.daemon)
            try TripWeatherFixture.waitForForecast(app.daemon, trip: trip, source: server.url("/today"))
            try app.open("#/itineraries/\(trip)/days")
            try b.wait("each of the trip's three days shows its forecast", timeout: 15) {
                let shown = try b.texts("[data-testid=trip-day] [data-testid=trip-day-weather]")
                return shown.count == 3 && shown.allSatisfy { $0.contains(TripWeatherFixture.appText) }
            }
            try app.assertNoConsoleErrors()
        }
    }
}
