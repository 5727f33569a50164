import Foundation
import PlacesTestSupport
import Testing

/// Favorites and Discover in the browser: reordering by dragging, and the popularity
/// toggle's three states over places a co-member saved.
extension BrowserAppTests {
    @Suite("Favorites and Discover") struct Library {
        static func favoriteNames(_ app: BrowserApp) throws -> [String] {
            let list = try app.api("GET", "/v1/favorites")["favorites"] as? [[String: Any]] ?? []
            return list.map { $0["name"] as? String ?? "" }
        }

        @Test("dragging a favorite's handle reorders the list, on the page and on the daemon")
        func reorderFavoritesByDrag() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let spots = [LisbonDemo.belemTower, LisbonDemo.jeronimos, LisbonDemo.lxFactory, LisbonDemo.timeOut]
            try LisbonDemo.places(app.node, spots, favorite: true)
            let names = spots.map(\.name)
            try app.open("#/favorites")
            try b.wait("the favorites show in the stored order") { try b.texts("[data-testid=favorite-name]") == names }
            #expect(try b.text(try b.find("[data-testid=favorites-count]")).contains("4 favorites"))

            // Time Out Market (4th) dragged above Torre de Belém (1st).
            try b.drag("[data-testid=favorite-handle]", from: 3, to: 0, dy: -10)
            let moved = [names[3], names[0], names[1], names[2]]
            try b.wait("the page shows Time Out Market first") { try b.texts("[data-testid=favorite-name]") == moved }
            try b.wait("the daemon stored the new order") { try Self.favoriteNames(app) == moved }
            try b.waitForText(
                "[data-testid=favorites-announce]", containing: "Time Out Market moved to position 1 of 4")
            try b.wait("the positions are numbered again") {
                try b.texts("[data-testid=favorite-item] .position") == ["1", "2", "3", "4"]
            }

            // Jerónimos (3rd now) dragged down below LX Factory (last).
            try b.drag("[data-testid=favorite-handle]", from: 2, to: 3, dy: 10)
            let last = [names[3], names[0], names[2], names[1]]
            try b.wait("the page shows Jerónimos last") { try b.texts("[data-testid=favorite-name]") == last }
            try b.wait("the daemon stored it") { try Self.favoriteNames(app) == last }
            // A reload shows the stored order.
            try b.navigate(app.gui.origin + "/#/favorites")
            try b.waitFor("main[data-ready=true]", visible: false)
            try b.wait("the reloaded page shows the same order") { try b.texts("[data-testid=favorite-name]") == last }
            try app.assertNoConsoleErrors()
        }

        @Test("the popularity toggle cycles off, most saved first, least saved first, and orders the results")
        func popularityToggle() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            // Bruno, a co-member of Ana's trip, plans Porto Alegre: one person saved it.
            let bruno = try PeerNode("Bruno")
            try app.node.addPeer(bruno)
            let trip = try app.node.createItinerary(#"{"name":"Brazil and Portugal"}"#)
            try app.node.share(itinerary: trip, with: bruno)
            let found = try bruno.json("GET", "/v1/discover?q=Porto%20Alegre&kind=city")["results"] as? [[String: Any]]
            let portoAlegre = try #require(found?.first?["id"] as? String)
            let place = try bruno.json("POST", "/v1/places", jsonText(["gazetteerId": portoAlegre]))
            try bruno.json(
                "POST", "/v1/itineraries/\(trip)/places", jsonText(["placeId": place["id"] as? String ?? ""]))
            try waitUntil("Ana's daemon counts Bruno's save", timeout: 30) {
                let results =
                    try app.api("GET", "/v1/discover?q=Porto%20Alegre&kind=city")["results"] as? [[String: Any]]
                return (results?.first?["popularity"] as? Int) == 1
            }

            try app.open("#/discover")
            let toggle = "[data-testid=discover-sort]"
            #expect(try b.attribute(try b.waitFor(toggle), "data-state") == "off")
            try b.fill("[data-testid=discover-query]", "Porto\u{E007}")
            func results() throws -> [(id: String, popularity: Int)] {
                let value = try b.execute(
                    "return [...document.querySelectorAll('[data-testid=discover-result]')].map(e => [e.dataset.id, +e.dataset.popularity])"
                )
                return (value as? [[Any]] ?? []).map { ($0[0] as? String ?? "", ($0[1] as? NSNumber)?.intValue ?? -1) }
            }
            try b.wait("results for Porto, the city of Porto first") {
                let list = try results()
                return list.count > 3 && list.first?.id == "city:2735943"
            }
            let offOrder = try results().map(\.id)
            #expect(offOrder.contains(portoAlegre) && offOrder.first != portoAlegre)
            #expect(try results().first { $0.id == portoAlegre }?.popularity == 1)

            // Off → descending: Porto Alegre (saved by one) first, counts never rising.
            try b.click(toggle)
            try b.wait("the toggle says descending and Porto Alegre leads") {
                try b.attribute(try b.find(toggle), "data-state") == "descending" && results().first?.id == portoAlegre
            }
            var list = try results()
            #expect(zip(list, list.dropFirst()).allSatisfy { $0.popularity >= $1.popularity })
            #expect(try b.attribute(try b.find(toggle), "aria-pressed") == "true")
            try waitUntil("the daemon keeps descending") {
                try app.api("GET", "/v1/preferences")["discoverSort"] as? String == "descending"
            }

            // Descending → ascending: the unsaved first, Porto Alegre after them all.
            try b.click(toggle)
            try b.wait("the toggle says ascending and Porto Alegre is not first") {
                try b.attribute(try b.find(toggle), "data-state") == "ascending" && results().first?.popularity == 0
            }
            list = try results()
            #expect(zip(list, list.dropFirst()).allSatisfy { $0.popularity <= $1.popularity })
            #expect(list.firstIndex { $0.id == portoAlegre } ?? 0 > 0 || list.allSatisfy { $0.id != portoAlegre })
            try waitUntil("the daemon keeps ascending") {
                try app.api("GET", "/v1/preferences")["discoverSort"] as? String == "ascending"
            }

            // Ascending → off: the order by match and prominence again.
            try b.click(toggle)
            try b.wait("the toggle says off and the first order is back") {
                try b.attribute(try b.find(toggle), "data-state") == "off" && results().map(\.id) == offOrder
            }
            #expect(try b.attribute(try b.find(toggle), "aria-pressed") == "false")
            try waitUntil("the daemon keeps off") {
                try app.api("GET", "/v1/preferences")["discoverSort"] as? String == "off"
            }
            // The state is kept: a reload shows it as it was left, and a CLI change shows up.
            _ = try app.api("PUT", "/v1/preferences", #"{"discoverSort":"descending"}"#)
            try b.wait("the page picks up the sort set elsewhere", timeout: 5) {
                try b.attribute(try b.find(toggle), "data-state") == "descending"
            }
            try app.assertNoConsoleErrors()
        }
    }
}
