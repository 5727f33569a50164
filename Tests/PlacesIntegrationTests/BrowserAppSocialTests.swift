import Foundation
import PlacesTestSupport
import Testing

/// The feed in the browser: writing a post with a photo, and what a hostile friend writes
/// (comments, a post, their own name holding HTML) showing as text, never as markup.
extension BrowserAppTests {
    @Suite("Feed") struct Feed {
        @Test("compose a post with a photo: it uploads, posts and shows in the feed with its picture")
        func composePostWithPhoto() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            try LisbonDemo.places(app.node, [LisbonDemo.santaLuzia])
            try app.open("#/feed")
            let photo = app.node.dir.path + "-lisboa-sunset.jpg"
            defer { try? FileManager.default.removeItem(atPath: photo) }
            try LisbonDemo.photo(b, to: photo)

            let text = "Sunset over Alfama from Miradouro de Santa Luzia 🌅"
            try b.fill("[data-testid=post-text]", text)
            try b.upload(try b.waitFor("[data-testid=post-photos]", visible: false), path: photo)
            let chosen = try b.waitFor("[data-testid=post-photo-item][data-state=done]", timeout: 15)
            let chosenText = try b.text(chosen)
            #expect(chosenText.contains("960×640"), "\(chosenText)")
            try b.setValue(
                "[data-testid=post-place]",
                try #require(
                    (try app.api("GET", "/v1/places")["places"] as? [[String: Any]])?.first?["id"] as? String))
            try b.click("[data-testid=post-submit]")

            let card = try b.waitForText("[data-testid=post-item] [data-testid=post-text]", containing: text)
            #expect(try b.text(card) == text)
            try b.wait("the post's photo has loaded at its size", timeout: 15) {
                let size =
                    try b.execute(
                        """
                        const img = document.querySelector('[data-testid=post-item] img[data-testid=post-photo], [data-testid=post-item] [data-testid=post-photo] img');
                        return img && img.complete ? [img.naturalWidth, img.naturalHeight] : null
                        """) as? [NSNumber]
                return size?.map(\.intValue) == [960, 640]
            }
            #expect(try b.text(try b.find("[data-testid=post-item] [data-testid=post-place]")).contains("Santa Luzia"))
            // The compose form is empty again, and the daemon holds exactly this post.
            #expect(try b.property(try b.find("[data-testid=post-text]"), "value") as? String == "")
            #expect(b.all("[data-testid=post-photo-item]").isEmpty)
            let posts = try app.api("GET", "/v1/feed")["posts"] as? [[String: Any]] ?? []
            #expect(posts.count == 1 && posts.first?["text"] as? String == text)
            #expect((posts.first?["photos"] as? [[String: Any]])?.first?["width"] as? Int == 960)
            try app.assertNoConsoleErrors()
        }
    }

    @Suite("A hostile friend's words") struct HostileWords {
        static let scriptComment = "<script>window.__xss=1</script>"
        static let imageComment = #"<img src=x onerror="window.__xss=2">"#
        static let postText = "<img src=x onerror=window.__xss=4> Pastéis <b>de</b> Belém"
        static let tripName = "<img src=x onerror=window.__xss=5>Lisbon</b> & <i>Sintra</i>"
        static let placeName = "<img src=x onerror=window.__xss=6>Miradouro <b>da Graça</b>"

        @Test(
            "comments, a post, a name, a trip's and a shared place's names holding HTML show as text; nothing runs, no element is made"
        )
        func htmlShowsAsText() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let bruno = try PeerNode("Bruno <img src=x onerror=window.__xss=3>", username: "bruno")
            try app.node.befriend(bruno)
            let post = try app.api(
                "POST", "/v1/posts", #"{"text":"Sunset at Miradouro da Senhora do Monte","audience":"friends"}"#)
            let postID = try #require(post["id"] as? String)
            try waitUntil("Bruno sees Ana's post", timeout: 30) { try bruno.send("GET", "/v1/posts/\(postID)").ok }
            for text in [Self.scriptComment, Self.imageComment] {
                try bruno.json("POST", "/v1/posts/\(postID)/comments", jsonText(["text": text]))
            }
            try bruno.json("POST", "/v1/posts", jsonText(["text": Self.postText, "audience": "friends"]))
            try waitUntil("Ana's daemon holds both comments and Bruno's post", timeout: 30) {
                let feed = try app.api("GET", "/v1/feed")["posts"] as? [[String: Any]] ?? []
                return feed.count == 2 && feed.contains { ($0["comments"] as? Int) == 2 }
            }
            let trip = try app.node.createItinerary(jsonText(["name": Self.tripName]))
            try app.node.share(itinerary: trip, with: bruno)
            // A favorite Bruno shares with his friends, named with markup.
            let shared = try bruno.json(
                "POST", "/v1/places", jsonText(["name": Self.placeName, "latitude": 38.7163, "longitude": -9.1310]))
            try bruno.json("POST", "/v1/favorites", jsonText(["placeId": shared["id"] as? String ?? ""]))
            try bruno.json("PUT", "/v1/favorites/sharing", #"{"sharing":"all"}"#)
            try waitUntil("Ana holds Bruno's shared favorite", timeout: 30) {
                (try app.api("GET", "/v1/friends/\(bruno.id)/map")["places"] as? [Any])?.count == 1
            }

            try app.open("#/feed")
            let anas = "[data-testid=post-item][data-id=\"\(postID)\"]"
            try b.click("\(anas) [data-testid=post-comments-toggle]")
            try b.wait("both comments show", timeout: 10) { b.all("\(anas) [data-testid=comment-item]").count == 2 }
            #expect(
                try b.texts("\(anas) [data-testid=comment-text]") == [Self.scriptComment, Self.imageComment],
                "the comments do not read as typed")
            let inside =
                try b.execute(
                    "return document.querySelectorAll('[data-testid=comment-item] img, [data-testid=comment-item] script, [data-testid=post-text] img, [data-testid=post-text] b').length"
                ) as? Int
            #expect(inside == 0, "the comments or posts made \(inside ?? -1) elements")
            try b.waitForText("[data-testid=post-item] [data-testid=post-text]", containing: Self.postText)
            #expect(
                try b.texts("[data-testid=post-author]").contains {
                    $0.contains("Bruno <img src=x onerror=window.__xss=3>")
                })

            // The trip's name, in the list and in its header; the friend's name on his profile.
            try b.go("#/itineraries")
            try b.waitForText("[data-testid=itinerary-item]", containing: Self.tripName)
            try b.go("#/itineraries/\(trip)")
            try b.waitForText("[data-testid=trip-title]", containing: Self.tripName)
            try b.go("#/friends")
            try b.waitForText("[data-testid=friend-item]", containing: "Bruno <img src=x onerror=window.__xss=3>")

            // His shared place on his map at Ana's: the list and the marker's popup.
            try b.go("#/map/friend/\(bruno.id)")
            try b.waitForText("main", containing: Self.placeName)
            try b.click("main .leaflet-container .map-pin")
            try b.waitForText(".leaflet-popup .map-popup-name", containing: Self.placeName)

            #expect(try b.execute("return typeof window.__xss") as? String == "undefined", "a friend's HTML ran")
            let made =
                try b.execute(
                    "return document.querySelectorAll('img[src=\"x\"], img[onerror], script:not([src]), i, b').length")
                as? Int
            #expect(made == 0, "\(made ?? -1) elements came from a friend's words")
            try app.assertNoConsoleErrors()
        }
    }
}
