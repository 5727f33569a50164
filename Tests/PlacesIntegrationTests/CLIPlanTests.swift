import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `places plan` with two real daemons: Ana plans a day in Lisbon from her library and the
/// places her contact Bruno shares; the reasons say who saved what; the plan is written as a
/// trip with `--create`.
@Suite("places CLI: suggested trips and nearby", .serialized)
struct CLIPlanTests {
    @Test("a friend's shared places join the plan as 'saved by Bruno'; --create writes the trip shown")
    func friendsPlaces() async throws {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno")
        try ana.addPeer(bruno)
        try bruno.addPeer(ana)
        try ana.trust(bruno)
        try bruno.trust(ana)
        for (name, lat, lon, category) in [
            ("Castelo de São Jorge", 38.7139, -9.1335, "view"), ("MUDE", 38.7093, -9.1370, "museum"),
        ] {
            let added = try ana.d.cli([
                "place", "add", name, "--lat", String(lat), "--lon", String(lon), "--category", category, "--hours",
                "Mo-Su 10:00-18:00", "--visit", "60",
            ])
            #expect(added.status == 0, "\(added.stderr)")
        }
        // Bruno shares two favorites: the castle Ana saved too, and a tasca she does not know.
        for (name, lat, lon, category) in [
            ("Castelo de São Jorge", 38.71395, -9.13352, "view"), ("Tasca do Chico", 38.7112, -9.1445, "food"),
        ] {
            let place = try bruno.d.call(
                Place.self, "POST", "/v1/places",
                json: #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon),"categories":["\#(category)"]}"#)
            _ = try bruno.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(place.id)"}"#)
        }
        _ = try bruno.d.call(FavoriteSharingSetting.self, "PUT", "/v1/favorites/sharing", json: #"{"sharing":"all"}"#)
        try await eventually("Ana holds Bruno's card with his two places", timeout: .seconds(30)) {
            try ana.d.call(ContactProfile.self, "GET", "/v1/contacts/\(bruno.id)").favorites.count == 2
        }

        let args = [
            "plan", "--in", "38.7118,-9.1380", "--from", "2027-05-04", "--day", "10:00-18:00", "--like", "food",
            "--stay", "38.7107,-9.1365",
        ]
        let shown = try ana.d.cli(args)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Tasca do Chico"), "\(shown.stdout)")
        #expect(shown.stdout.contains("saved by Bruno"), "\(shown.stdout)")
        #expect(shown.stdout.contains("lunch"), "a place to eat is a lunch stop: \(shown.stdout)")

        let json = try ana.d.cli(args + ["--json"])
        let plan = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8)).objectValue ?? [:]
        let stops = (plan["days"]?.arrayValue ?? []).flatMap {
            $0.objectValue?["stops"]?.arrayValue?.compactMap(\.objectValue) ?? []
        }
        let castle = stops.first { $0["name"]?.stringValue == "Castelo de São Jorge" }
        let reasons = castle?["reasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(
            reasons.contains("saved by Bruno") && reasons.contains("saved by you"), "one place, both saves: \(reasons)")
        #expect(stops.filter { $0["name"]?.stringValue == "Castelo de São Jorge" }.count == 1)

        let created = try ana.d.cli(args + ["--create", "Lisbon day", "--json"])
        #expect(created.status == 0, "\(created.stderr)")
        let written = try JSONDecoder().decode(JSONValue.self, from: Data(created.stdout.utf8)).objectValue ?? [:]
        let id = try #require(written["itinerary"]?.stringValue)
        let items = try ana.d.call(JSONValue.self, "GET", "/v1/itineraries/\(id)/items").objectValue ?? [:]
        let titles = (items["items"]?.arrayValue ?? []).compactMap { $0.objectValue?["title"]?.stringValue }
        #expect(Set(titles) == Set(stops.compactMap { $0["name"]?.stringValue }), "the trip holds the stops shown")

        // Nearby (issue 32), from the same saves: nearest first, who saved each, one castle.
        let near = try ana.d.cli(["nearby", "--near", "38.7139,-9.1335", "--radius", "1500"])
        #expect(near.status == 0, "\(near.stderr)")
        let lines = near.stdout.split(separator: "\n").filter { !$0.hasPrefix("    ") }
        #expect(lines.count == 3, "the castle, MUDE and the tasca: \(near.stdout)")
        #expect(lines.first?.contains("Castelo de São Jorge") == true)
        #expect(lines.first?.contains("saved by you and Bruno") == true, "\(near.stdout)")
        #expect(near.stdout.contains("Tasca do Chico") && near.stdout.contains("saved by Bruno"))
        let mine = try ana.d.cli(["nearby", "--near", "Castelo de São Jorge", "--who", "me", "--json"])
        let listed = try JSONDecoder().decode(JSONValue.self, from: Data(mine.stdout.utf8)).objectValue?["places"]
        #expect(listed?.arrayValue?.count == 2, "Ana's own two places: \(mine.stdout)")
        let food = try ana.d.cli([
            "nearby", "--near", "38.7139,-9.1335", "--radius", "1500", "--who", "Bruno", "--category", "FOOD",
        ])
        #expect(food.stdout.contains("Tasca do Chico") && !food.stdout.contains("MUDE"), "\(food.stdout)")

        // The index is updated in place, not read again (issue 32): each edit shows in the next
        // answer. Ana renames her castle: Bruno's castle stands alone again.
        func nearby() throws -> [String: [String]] {
            let answer = try ana.d.call(JSONValue.self, "GET", "/v1/nearby?near=38.7139,-9.1335&radius=1500")
            var out = [String: [String]]()
            for place in answer.objectValue?["places"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                let names = place["savedBy"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } ?? []
                out[place["name"]?.stringValue ?? "", default: []] += names
            }
            return out
        }
        let ids = try ana.d.call(PlaceList.self, "GET", "/v1/places").places
        let castleID = try #require(ids.first { $0.name == "Castelo de São Jorge" }?.id)
        let mudeID = try #require(ids.first { $0.name == "MUDE" }?.id)
        _ = try ana.d.call(Place.self, "PATCH", "/v1/places/\(castleID)", json: #"{"name":"Castle"}"#)
        var seen = try nearby()
        #expect(seen["Castle"]?.count == 1 && seen["Castelo de São Jorge"]?.count == 1, "\(seen)")
        #expect(seen["Castelo de São Jorge"] != seen["Castle"], "one is Ana's, the other Bruno's: \(seen)")
        // Named back: one castle saved by both again; MUDE moved out of the radius; a place added.
        _ = try ana.d.call(Place.self, "PATCH", "/v1/places/\(castleID)", json: #"{"name":"castelo de sao jorge"}"#)
        _ = try ana.d.call(
            Place.self, "PATCH", "/v1/places/\(mudeID)", json: #"{"latitude":38.80,"longitude":-9.1370}"#)
        _ = try ana.d.call(
            Place.self, "POST", "/v1/places",
            json: #"{"name":"Miradouro da Graça","latitude":38.7163,"longitude":-9.1315}"#)
        seen = try nearby()
        #expect(seen["castelo de sao jorge"]?.count == 2, "merged again with Bruno's: \(seen)")
        #expect(seen["Castelo de São Jorge"] == nil && seen["MUDE"] == nil, "\(seen)")
        #expect(seen["Miradouro da Graça"]?.count == 1, "\(seen)")
        _ = try ana.d.send("DELETE", "/v1/places/\(castleID)")
        seen = try nearby()
        #expect(
            seen["Castelo de São Jorge"]?.count == 1 && seen["castelo de sao jorge"] == nil, "Bruno's alone: \(seen)")
        // Bruno's card changes: the tasca is no longer shared, a pastry shop is.
        let pastry = try bruno.d.call(
            Place.self, "POST", "/v1/places", json: #"{"name":"Pastelaria","latitude":38.7150,"longitude":-9.1340}"#)
        _ = try bruno.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(pastry.id)"}"#)
        let tasca = try #require(
            try bruno.d.call(PlaceList.self, "GET", "/v1/places").places.first { $0.name == "Tasca do Chico" })
        _ = try bruno.d.send("DELETE", "/v1/favorites/\(tasca.id)")
        try await eventually("Ana's nearby follows Bruno's card", timeout: .seconds(30)) {
            let now = try nearby()
            return now["Pastelaria"] != nil && now["Tasca do Chico"] == nil
        }

        let bad = try ana.d.cli(["plan", "--in", "38.71,-9.13", "--must", "Eiffel Tower"])
        #expect(bad.status != 0 && bad.stderr.contains("Eiffel Tower"), "\(bad.stderr)")
    }
}
