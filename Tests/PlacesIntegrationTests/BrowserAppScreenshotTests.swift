import Foundation
import PlacesTestSupport
import Testing

/// Every main view with realistic data (a Lisbon weekend, a friend's Porto trip, posts
/// with a photo): each must render its content without a console error. With
/// `PLACES_SCREENSHOTS=<dir>` each view is also saved as `<dir>/<name>.png` at 1280×900
/// (`PLACES_SCREENSHOTS=docs/screenshots swift test --filter BrowserAppTests/Screens`).
extension BrowserAppTests {
    @Suite("Every main view") struct Screens {
        /// Bruno's Porto trip, published to his friends.
        static func porto(_ bruno: PeerNode) throws -> String {
            let id = try bruno.createItinerary(
                #"{"name":"Porto in three days","startDate":"2027-05-14","endDate":"2027-05-16","timeZone":"Europe/Lisbon"}"#
            )
            let stops: [(String, String, String, Double, Double)] = [
                ("activity", "Livraria Lello", "2027-05-14T10:00", 41.1469, -8.6149),
                ("activity", "Torre dos Clérigos", "2027-05-14T11:30", 41.1458, -8.6139),
                ("food", "Francesinha at Café Santiago", "2027-05-14T13:00", 41.1463, -8.6067),
                ("activity", "Ribeira and Ponte Dom Luís I", "2027-05-15T10:00", 41.1399, -8.6094),
                ("activity", "Port tasting in Vila Nova de Gaia", "2027-05-15T15:00", 41.1370, -8.6130),
                ("activity", "Serralves", "2027-05-16T10:00", 41.1597, -8.6599),
            ]
            for (type, title, start, latitude, longitude) in stops {
                try bruno.json(
                    "POST", "/v1/itineraries/\(id)/items",
                    jsonText([
                        "type": type, "title": title, "start": start,
                        "location": ["name": title, "latitude": latitude, "longitude": longitude],
                    ]))
            }
            return try bruno.json("POST", "/v1/itineraries/\(id)/publish", #"{"audience":"friends"}"#)["id"] as? String
                ?? ""
        }

        /// Ana's data: the Lisbon trip (published to friends), two more trips, favorites and
        /// places, a post with a photo; Bruno a friend with his Porto trip, a post and comments.
        static func seed(_ app: BrowserApp, _ bruno: PeerNode, photo: String) throws -> String {
            let ana = app.node
            let trip = try LisbonDemo.trip(ana)
            _ = try ana.createItinerary(
                #"{"name":"Sintra day trip","startDate":"2027-04-12","endDate":"2027-04-12","timeZone":"Europe/Lisbon"}"#
            )
            _ = try ana.createItinerary(
                #"{"name":"Algarve in June","startDate":"2027-06-05","endDate":"2027-06-12","timeZone":"Europe/Lisbon"}"#
            )
            try LisbonDemo.places(
                ana,
                [
                    LisbonDemo.castle, LisbonDemo.belemTower, LisbonDemo.pasteis, LisbonDemo.santaLuzia,
                    LisbonDemo.lxFactory,
                ],
                favorite: true)
            try LisbonDemo.places(
                ana, [LisbonDemo.timeOut, LisbonDemo.comercio, ("Museu Nacional do Azulejo", 38.7247, -9.1135)])
            try ana.befriend(bruno)
            let portoTrip = try porto(bruno)
            let published = try ana.json("POST", "/v1/itineraries/\(trip)/publish", #"{"audience":"friends"}"#)
            // Bruno, an editor of the Lisbon trip, plans the city itself: one person Ana knows
            // saved it (Discover's popularity); he likes her published trip.
            try ana.share(itinerary: trip, with: bruno)
            let lisbon = try bruno.json("POST", "/v1/places", #"{"gazetteerId":"city:2267057"}"#)
            try bruno.json(
                "POST", "/v1/itineraries/\(trip)/places", jsonText(["placeId": lisbon["id"] as? String ?? ""]))
            try waitUntil("Bruno sees Ana's published trip", timeout: 30) {
                try bruno.send("GET", "/v1/explore/\(published["id"] as? String ?? "")").ok
            }
            try bruno.json("PUT", "/v1/explore/\(published["id"] as? String ?? "")/like")
            let photoID = try ana.daemon.client.send(
                "POST", "/v1/photos", body: Array(try Data(contentsOf: URL(fileURLWithPath: photo))),
                headers: ["Content-Type": "image/jpeg"])
            let photoObject = JSONCanon.parse(photoID.body) as? [String: Any]
            let post = try ana.json(
                "POST", "/v1/posts",
                jsonText([
                    "text": "Golden hour over Alfama from Miradouro de Santa Luzia. Worth the climb!",
                    "audience": "friends", "photos": [photoObject?["id"] as? String ?? ""],
                    "latitude": LisbonDemo.santaLuzia.latitude, "longitude": LisbonDemo.santaLuzia.longitude,
                ]))
            let postID = post["id"] as? String ?? ""
            try waitUntil("Bruno sees Ana's post", timeout: 30) { try bruno.send("GET", "/v1/posts/\(postID)").ok }
            try bruno.json("PUT", "/v1/posts/\(postID)/like")
            try bruno.json(
                "POST", "/v1/posts/\(postID)/comments", #"{"text":"Stunning! Save me a pastel de nata 🥐"}"#)
            try bruno.json(
                "POST", "/v1/posts", #"{"text":"Booked the train to Porto for May. Who is in?","audience":"friends"}"#)
            try waitUntil("Ana holds Bruno's post, comment and Porto trip", timeout: 30) {
                let feed = try ana.json("GET", "/v1/feed")["posts"] as? [[String: Any]] ?? []
                let explore = try ana.json("GET", "/v1/explore")["trips"] as? [[String: Any]] ?? []
                let lisbon = try ana.json("GET", "/v1/discover?q=Lisbon&kind=city")["results"] as? [[String: Any]]
                return feed.count == 2 && feed.contains { ($0["comments"] as? Int) == 1 }
                    && explore.contains { $0["id"] as? String == portoTrip }
                    && explore.contains { $0["mine"] as? Bool == true && $0["likes"] as? Int == 1 }
                    && lisbon?.first?["popularity"] as? Int == 1
            }
            return trip
        }

        @Test("itineraries, a trip's days, a day's route, discover, favorites, feed, explore and the map render")
        func everyView() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let bruno = try PeerNode("Bruno")
            try app.open()
            let photo = app.node.dir.path + "-alfama.jpg"
            defer { try? FileManager.default.removeItem(atPath: photo) }
            try LisbonDemo.photo(b, to: photo)
            let trip = try Self.seed(app, bruno, photo: photo)
            let dir = ProcessInfo.processInfo.environment["PLACES_SCREENSHOTS"]
            try b.setViewport(width: 1280, height: 900)

            let photoSelector =
                "[data-testid=post-item] img[data-testid=post-photo], [data-testid=post-item] [data-testid=post-photo] img"
            func shot(
                _ name: String, _ hash: String, ready: String, count: Int = 1, map: Bool = false, scroll: String? = nil
            ) throws {
                try b.go(hash, timeout: 15)
                try b.wait("\(name): \(ready) shows \(count)", timeout: 15) { b.all(ready).count >= count }
                try b.wait("\(name): every image has loaded", timeout: 15) {
                    try b.execute("return [...document.images].every(i => i.complete)") as? Bool == true
                }
                if map {
                    try b.wait("\(name): the map has drawn its basemap", timeout: 15) {
                        try b.execute(
                            "return !!document.querySelector('.leaflet-container canvas') && !document.querySelector('.leaflet-zoom-anim')"
                        ) as? Bool == true
                    }
                }
                // Two frames, so that what was just laid out is painted; no focus ring, no toast.
                try b.executeAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    if (document.activeElement) document.activeElement.blur();
                    const flash = document.getElementById('flash'); if (flash) flash.hidden = true;
                    const to = arguments[0] && document.querySelector(arguments[0]);
                    window.scrollTo(0, to ? to.getBoundingClientRect().top + window.scrollY - 64 : 0);
                    requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
                    """, [scroll ?? NSNull()])
                try app.assertNoConsoleErrors()
                guard let dir else { return }
                let path = try b.saveScreenshot(name, in: dir)
                if let optipng = executableOnPath("optipng") { _ = try runCommand(optipng, ["-quiet", "-o2", path]) }
            }

            try shot("itineraries", "#/itineraries", ready: "[data-testid=itinerary-item]", count: 3)
            try shot("trip-days", "#/itineraries/\(trip)/days", ready: "[data-testid=trip-day]", count: 4)
            try shot(
                "trip-route", "#/itineraries/\(trip)/route/2", ready: "[data-testid=route-map] .map-route-stop",
                count: 6,
                map: true, scroll: "[data-testid=route-totals]")
            try shot(
                "trip-map", "#/itineraries/\(trip)/map", ready: "[data-testid=trip-map] .map-pin", count: 8, map: true)
            try shot("discover", "#/discover?q=Lisboa", ready: "[data-testid=discover-result]", count: 3)
            try shot("favorites", "#/favorites", ready: "[data-testid=favorite-item]", count: 5)
            try shot("feed", "#/feed", ready: photoSelector, count: 1, scroll: "[data-testid=feed-list]")
            try shot("explore", "#/explore", ready: "[data-testid=explore-trip]", count: 2)
            try shot("map", "#/map", ready: "main .leaflet-container .map-pin", count: 8, map: true)
            // The photo loaded, the comment and likes show on the post.
            try b.go("#/feed")
            let size = try b.execute("return document.querySelector(arguments[0]).naturalWidth", [photoSelector])
            #expect((size as? Int) == 960)
        }
    }
}
