import Foundation
import PlacesTestSupport
import Testing

/// The trip's Plan tab (issue 31) in a real browser: the questions asked, the suggestion shown
/// day by day and on the map before anything is written, then applied to the trip.
extension BrowserAppTests {
    @Suite("Plan") struct Plan {
        @Test("the Plan tab suggests the same plan as the API, shows it on the map, and applies it")
        func suggestAndApply() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            for (name, lat, lon, category, hours) in [
                ("Castelo de São Jorge", 38.7139, -9.1335, "view", "Mo-Su 09:00-21:00"),
                ("MUDE", 38.7093, -9.1370, "museum", "Tu-Su 10:00-18:00; Mo off"),
                ("Taberna da Rua das Flores", 38.7106, -9.1432, "food", "Mo-Sa 12:00-15:00,18:00-23:00"),
                ("Sé de Lisboa", 38.7100, -9.1335, "church", "Mo-Sa 09:30-19:00"),
            ] {
                _ = try app.api(
                    "POST", "/v1/places",
                    #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon),"categories":["\#(category)"],"openingHours":"\#(hours)","visitMinutes":60}"#
                )
            }
            let trip = try app.api(
                "POST", "/v1/itineraries", #"{"name":"Lisbon","startDate":"2027-05-04","endDate":"2027-05-05"}"#)
            let id = try #require(trip["id"] as? String)
            try app.open("#/itineraries/\(id)/plan")
            try b.waitFor("[data-testid=plan-form]")
            try b.setValue("[data-testid=plan-near]", "38.7118,-9.1380")
            try b.setValue("[data-testid=plan-interests]", "food")
            try b.click("[data-testid=plan-suggest]")
            try b.wait("the suggestion lists its stops", timeout: 20) {
                !b.all("[data-testid=plan-stop]").isEmpty
            }
            let expected = try app.api(
                "POST", "/v1/plans",
                #"{"itinerary":"\#(id)","near":"38.7118,-9.1380","dayStart":"09:30","dayEnd":"19:00","pace":"normal","interests":["food"]}"#
            )
            let names = (expected["days"] as? [[String: Any]] ?? []).flatMap {
                ($0["stops"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            }
            let shown = try b.texts("[data-testid=plan-stop]")
            #expect(shown.count == names.count, "\(shown) vs \(names)")
            #expect(zip(shown, names).allSatisfy { $0.contains($1) }, "the app shows the API's plan: \(shown)")
            try b.wait("the map draws the first day", timeout: 15) {
                !b.all("[data-testid=plan-map] .map-route-stop").isEmpty
            }
            #expect(
                (try app.api("GET", "/v1/itineraries/\(id)/items")["items"] as? [Any])?.isEmpty == true,
                "nothing is written before Apply")
            try b.click("[data-testid=plan-apply]")
            try b.wait("the plan is in the trip", timeout: 15) {
                let items = try app.api("GET", "/v1/itineraries/\(id)/items")["items"] as? [[String: Any]] ?? []
                return Set(items.compactMap { $0["title"] as? String }) == Set(names)
            }
            try app.assertNoConsoleErrors()
        }
    }
}
