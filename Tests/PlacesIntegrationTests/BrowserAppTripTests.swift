import Foundation
import PlacesTestSupport
import Testing

extension WebDriver {
    /// Sets an input's or a select's value as a person choosing it would (the `input` and
    /// `change` events fire): date inputs and selects, whose typing differs by locale.
    func setValue(_ css: String, _ value: String, timeout: TimeInterval = 10) throws {
        let element = try waitFor(css, timeout: timeout)
        try execute(
            """
            const el = arguments[0];
            el.value = arguments[1];
            el.dispatchEvent(new Event('input', { bubbles: true }));
            el.dispatchEvent(new Event('change', { bubbles: true }));
            """, [element.json, value])
    }

    /// Leaves a mark on the page's window: it is gone if the page reloads.
    func markPage() throws { try execute("window.__placesTestMark = 'kept'") }

    /// Whether the page still has the mark (no reload since `markPage`).
    var pageKeptMark: Bool { ((try? execute("return window.__placesTestMark")) as? String) == "kept" }
}

/// Trips in the browser: creating one and filling it from Discover, edits from the CLI
/// and from a friend's daemon appearing live, and a day's route on its map.
extension BrowserAppTests {
    @Suite("Trips") struct Trips {
        @Test("create an itinerary, add places to it from Discover, and find them in the trip")
        func createAndAddFromDiscover() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            try app.open("#/itineraries")
            try b.waitFor("[data-testid=itinerary-empty]")
            try b.fill("[data-testid=itinerary-name]", "Lisbon in spring")
            try b.setValue("[data-testid=itinerary-start]", "2027-04-10")
            try b.setValue("[data-testid=itinerary-end]", "2027-04-13")
            try b.fill("[data-testid=itinerary-timezone]", "Europe/Lisbon")
            try b.click("[data-testid=itinerary-create-submit]")
            try b.waitForText("[data-testid=itinerary-item]", containing: "Lisbon in spring")
            let itineraries = try app.api("GET", "/v1/itineraries")["itineraries"] as? [[String: Any]] ?? []
            #expect(itineraries.count == 1 && itineraries.first?["name"] as? String == "Lisbon in spring")
            #expect(itineraries.first?["startDate"] as? String == "2027-04-10")
            let id = try #require(itineraries.first?["id"] as? String)

            try b.go("#/discover")
            for (query, resultName) in [("Lisbon", "Lisbon"), ("Sintra", "Sintra")] {
                try b.fill("[data-testid=discover-query]", query + "\u{E007}")
                let city = "[data-testid=discover-result][data-id^=\"city:\"][data-name=\"\(resultName)\"]"
                try b.waitFor(city)
                let select = try b.find("[data-testid=discover-add-itinerary]")
                #expect(try b.property(select, "value") as? String == id)
                try b.click("\(city) [data-testid=discover-add]")
                try b.waitForText("\(city) [data-testid=discover-added]", containing: "Added to “Lisbon in spring”")
            }
            // The "Added to" link opens the trip; its Places tab lists both, in order.
            try b.click(
                "[data-testid=discover-result][data-id^=\"city:\"][data-name=\"Sintra\"] [data-testid=discover-added]",
                until: "[data-testid=trip-view][data-id=\"\(id)\"]")
            try b.click("[data-testid=trip-tab-places]")
            try b.wait("the trip's places to go are Lisbon then Sintra") {
                let names = try b.texts("[data-testid=place-to-go]")
                return names.count == 2 && names[0].contains("Lisbon") && names[1].contains("Sintra")
            }
            let stored = try app.api("GET", "/v1/itineraries/\(id)")["places"] as? [[String: Any]] ?? []
            #expect(stored.map { $0["name"] as? String ?? "" } == ["Lisbon", "Sintra"])
            try app.assertNoConsoleErrors()
        }

        @Test("an edit made with the CLI appears in the open app without a reload")
        func cliEditAppearsLive() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let trip = try LisbonDemo.trip(app.node)
            try app.open("#/itineraries")
            try b.waitForText("[data-testid=itinerary-item]", containing: "Lisbon long weekend")
            try b.markPage()
            let created = try app.daemon.cli(["itinerary", "create", "Porto by train"])
            #expect(created.status == 0, "\(created.stderr)")
            try b.waitForText("[data-testid=itinerary-item]", containing: "Porto by train", timeout: 5)

            // Inside a trip: an item added and the trip renamed with the CLI.
            try b.go("#/itineraries/\(trip)/days")
            try b.waitFor("[data-testid=trip-days] [data-testid=trip-item]")
            let added = try app.daemon.cli([
                "item", "add", trip, "food", "Lunch at Taberna da Rua das Flores", "--start", "2027-04-11T13:30",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            try b.waitForText(
                "[data-testid=trip-day][data-date=\"2027-04-11\"] [data-testid=trip-item]",
                containing: "Lunch at Taberna da Rua das Flores", timeout: 5)
            let renamed = try app.daemon.cli(["itinerary", "edit", trip, "--name", "Lisbon, long weekend in April"])
            #expect(renamed.status == 0, "\(renamed.stderr)")
            try b.waitForText("[data-testid=trip-title]", containing: "Lisbon, long weekend in April", timeout: 5)
            #expect(b.pageKeptMark, "the page reloaded")
            try app.assertNoConsoleErrors()
        }

        @Test("an edit made on a friend's daemon appears in the open trip")
        func secondDaemonEditAppears() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let bruno = try PeerNode("Bruno")
            try app.node.addPeer(bruno)
            let trip = try LisbonDemo.trip(app.node)
            try app.node.share(itinerary: trip, with: bruno)
            let b = app.browser
            try app.open("#/itineraries/\(trip)/days")
            try b.waitFor("[data-testid=trip-day][data-date=\"2027-04-12\"]")
            try b.markPage()
            try LisbonDemo.item(
                bruno, trip, "food", "Travesseiros at Piriquita", day: 3, at: "14:00",
                spot: ("Piriquita", 38.7977, -9.3903))
            try b.waitForText(
                "[data-testid=trip-day][data-date=\"2027-04-12\"] [data-testid=trip-item]",
                containing: "Travesseiros at Piriquita", timeout: 15)
            try bruno.json("PATCH", "/v1/itineraries/\(trip)", #"{"name":"Lisbon with Bruno"}"#)
            try b.waitForText("[data-testid=trip-title]", containing: "Lisbon with Bruno", timeout: 15)
            #expect(b.pageKeptMark, "the page reloaded")
            try app.assertNoConsoleErrors()
        }

        @Test("a day's route lists its stops in order, with its legs, and draws them on the map")
        func dayRouteAndMap() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let trip = try LisbonDemo.trip(app.node)
            try app.open("#/itineraries/\(trip)/days")
            // From the days, day 2's page, then the Route tab for that day.
            try b.click("[data-testid=trip-day][data-date=\"2027-04-11\"] h3 a")
            try b.waitFor("[data-testid=trip-day-nav]")
            try b.click("[data-testid=trip-tab-route]")
            try b.waitFor("[data-testid=route-tab]")
            try b.setValue("[data-testid=route-day]", "2")
            // What the daemon plans for day 2: from the hotel through the day's five stops
            // (the sights by their items' titles) and back.
            let plan = try app.api("GET", "/v1/itineraries/\(trip)/route?day=2")
            let planned = (plan["stops"] as? [[String: Any]] ?? []).map {
                ($0["place"] as? [String: Any])?["name"] as? String ?? ""
            }
            let day2 = [
                "Mosteiro dos Jerónimos", "Pastéis de Belém", "Torre de Belém", "LX Factory",
                "Dinner at Time Out Market",
            ]
            #expect(planned.first == "Memmo Alfama" && Set(planned.dropFirst()) == Set(day2), "\(planned)")
            let legs = (plan["legs"] as? [Any])?.count ?? 0
            try b.wait("the route lists the hotel and day 2's five stops, in the planned order", timeout: 15) {
                let shown = try b.texts("[data-testid=route-legs] > li strong")
                return shown.count == legs + 1 && Array(shown.prefix(planned.count)) == planned
            }
            let listed = try b.texts("[data-testid=route-legs] > li").joined(separator: "\n")
            #expect(!listed.contains("Palácio da Pena"), "a stop of day 3 is on day 2's route")
            let totals = try b.text(try b.waitFor("[data-testid=route-totals]"))
            #expect(totals.contains("km"), "the totals show no distance: \(totals)")
            // The map: one numbered marker per stop, in the route's order, and the line.
            try b.wait("the route's map shows six numbered stops and a line", timeout: 15) {
                try b.all("[data-testid=route-map] .map-route-stop").count == planned.count
                    && !b.all("[data-testid=route-map] path").isEmpty
            }
            let labels =
                try b.execute(
                    "return [...document.querySelectorAll('[data-testid=route-map] .map-route-stop')].map(e => e.getAttribute('aria-label'))"
                ) as? [String] ?? []
            #expect(labels == planned.enumerated().map { "\($0.offset + 1). \($0.element)" }, "\(labels)")
            // The trip's own Map tab, for day 2, lists the same five points.
            try b.go("#/itineraries/\(trip)/map")
            try b.setValue("[data-testid=trip-map-day]", LisbonDemo.date(2))
            try b.wait("the trip map lists day 2's stops", timeout: 10) {
                let entries = try b.texts("[data-testid=trip-map-entry]").joined(separator: "\n")
                return day2.allSatisfy { entries.contains($0) } && !entries.contains("Palácio da Pena")
            }
            #expect(try b.all("[data-testid=trip-map] .map-pin").count >= day2.count)
            try app.assertNoConsoleErrors()
        }
    }
}
