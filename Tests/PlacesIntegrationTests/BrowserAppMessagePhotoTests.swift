import Foundation
import PlacesTestSupport
import Testing

/// Photos in messages, and a trip's conversation, in the browser (issue 32): Ana attaches a
/// photo to a message to Bruno and to a reply; both show in her conversation, and Bruno's
/// own app shows the images. A trip's page leads to its conversation; Ana starts it from
/// the Messages page with a photo (it reaches Bruno's daemon); Bruno's answer shows in her
/// list with its unread count and raises a notification that leads to the conversation; a
/// photo that has not reached the device shows as "Photo not arrived yet", not as a broken
/// image, and the image once it arrives. The other uploads the app makes (profile picture, a pin's photo, a
/// places import) go through the same shared upload.
extension BrowserAppTests {
    @Suite("Message photos") struct MessagePhotos {
        /// The natural sizes of the loaded images matching `css` (an unloaded one is `[0, 0]`).
        static func sizes(_ b: WebDriver, _ css: String) throws -> [[Int]] {
            let value = try b.execute(
                """
                return Array.from(document.querySelectorAll(arguments[0]),
                  img => img.complete ? [img.naturalWidth, img.naturalHeight] : [0, 0])
                """, [css])
            return (value as? [[NSNumber]] ?? []).map { $0.map(\.intValue) }
        }

        /// Ana's app, opened at `hash` after `prepare`; Bruno her friend (when `friend`); a
        /// 960×640 JPEG on disk (`photo`). The browser, servers and file go at deinit.
        final class Scene {
            let app: BrowserApp
            let bruno: PeerNode?
            let photo: String
            var b: WebDriver { app.browser }

            init(_ hash: String, friend: Bool = true, prepare: (BrowserApp, PeerNode?) throws -> Void = { _, _ in })
                throws
            {
                app = try BrowserApp()
                bruno = friend ? try PeerNode("Bruno") : nil
                if let bruno { try app.node.befriend(bruno) }
                photo = app.node.dir.path + "-photo.jpg"
                try prepare(app, bruno)
                try app.open(hash)
                try LisbonDemo.photo(app.browser, to: photo)
            }

            deinit {
                app.close()
                try? FileManager.default.removeItem(atPath: photo)
            }
        }

        @Test("a photo attached to a message and to a reply shows in the conversation and in the friend's app")
        func directMessagePhoto() throws {
            let scene = try Scene("#/messages")
            let (app, b, photo) = (scene.app, scene.b, scene.photo)
            let bruno = try #require(scene.bruno)

            // A new message to Bruno with text and a photo, uploaded as soon as it is chosen.
            try b.waitFor("[data-testid=message-new-to] option[value='\(bruno.id)']", visible: false)
            try b.fill("[data-testid=message-new-text]", "The view from Santa Luzia")
            try b.upload(try b.waitFor("[data-testid=message-new-photos]", visible: false), path: photo)
            let chosen = try b.waitFor("[data-testid=message-new-photo-item][data-state=done]", timeout: 15)
            #expect(try b.text(chosen).contains("960×640"))
            try b.click("[data-testid=message-new-send]")

            // The conversation opens with it: the text and the image at its size.
            try b.waitForText(
                "[data-testid=message-item][data-mine=true] [data-testid=message-text]",
                containing: "The view from Santa Luzia")
            let mine = "[data-testid=message-item][data-mine=true] img[data-testid=message-photo]"
            try b.wait("Ana's photo shows in the conversation at its size", timeout: 15) {
                try Self.sizes(b, mine) == [[960, 640]]
            }
            let sent =
                try app.api("GET", "/v1/conversations/\(bruno.id)/messages")["messages"] as? [[String: Any]] ?? []
            let photos = sent.first?["photos"] as? [[String: Any]] ?? []
            #expect(sent.count == 1 && photos.count == 1 && photos.first?["width"] as? Int == 960)
            let photoID = try #require(photos.first?["id"] as? String)

            // A reply that is a photo alone, from the conversation's own form.
            try b.upload(try b.waitFor("[data-testid=message-photos]", visible: false), path: photo)
            try b.waitFor("[data-testid=message-photo-item][data-state=done]", timeout: 15)
            try b.click("[data-testid=message-send]")
            try b.wait("the photo-only reply shows with its image", timeout: 15) {
                try Self.sizes(b, mine) == [[960, 640], [960, 640]]
            }
            #expect(b.all("[data-testid=message-photo-item]").isEmpty, "the reply's chosen photo stayed in the form")
            #expect(try b.property(try b.find("[data-testid=message-text-input]"), "value") as? String == "")

            // Bruno's daemon holds both messages and the photo's bytes; his own app shows them.
            try waitUntil("Bruno's daemon holds Ana's photo", timeout: 30) {
                try bruno.send("GET", "/v1/photos/\(photoID)").ok
            }
            try waitUntil("Bruno's daemon holds both messages", timeout: 30) {
                let page = try bruno.json("GET", "/v1/conversations/\(app.node.id)/messages?peek=true")
                return (page["messages"] as? [Any])?.count == 2
            }
            let brunosApp = try GuiProcess(daemon: bruno.daemon)
            // Cookies are per host, not per port: Bruno's app server's session cookie replaces
            // Ana's as soon as its redirect arrives. Ana's page is left first, so that none of its
            // requests (it refreshes the conversation on events) goes out with Bruno's cookie
            // and is refused with a 401 (a CI run saw one).
            try b.navigate("about:blank")
            try b.navigate(brunosApp.url)
            try b.waitFor("main[data-ready=true]", visible: false, timeout: 15)
            try b.go("#/messages")
            let row = try b.waitFor("[data-testid=conversation-item][data-unread='2']", timeout: 15)
            #expect(try b.text(row).contains("Ana") && b.text(row).contains("1 photo"))
            try b.click("[data-testid=conversation-item] a")
            try b.waitForText("[data-testid=message-item] [data-testid=message-text]", containing: "Santa Luzia")
            try b.wait("Bruno's app shows Ana's two photos", timeout: 20) {
                try Self.sizes(b, "[data-testid=message-item][data-mine=false] img[data-testid=message-photo]")
                    == [[960, 640], [960, 640]]
            }
            #expect(b.all("[data-testid=message-photo-pending]").allSatisfy { !b.isDisplayed($0) })
            try app.assertNoConsoleErrors()
        }

        @Test("the profile picture, a pin's photo and a places import go through the shared upload and show")
        func otherUploads() throws {
            var placeID = ""
            let scene = try Scene("#/profile", friend: false) { app, _ in
                placeID = try LisbonDemo.places(app.node, [LisbonDemo.santaLuzia]).first ?? ""
            }
            let (app, b, photo) = (scene.app, scene.b, scene.photo)
            let geojson = app.node.dir.path + "-import.geojson"
            defer { try? FileManager.default.removeItem(atPath: geojson) }

            try b.upload(try b.waitFor("[data-testid=profile-picture-input]", visible: false), path: photo)
            try b.wait("the profile picture shows at its size", timeout: 15) {
                try Self.sizes(b, "img[data-testid=profile-picture]") == [[960, 640]]
            }
            #expect(try app.api("GET", "/v1/profile")["picture"] is String)

            try b.go("#/favorites?tab=places")
            try b.click("[data-testid=place-item][data-id='\(placeID)'] [data-testid=place-photo-add]")
            try b.upload(try b.waitFor("[data-testid=place-photo-input]", visible: false), path: photo)
            try b.wait("the pin's photo shows at its size", timeout: 15) {
                try Self.sizes(b, "img[data-testid=place-photo]") == [[960, 640]]
            }

            try Data(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Time Out Market"},"geometry":{"type":"Point","coordinates":[-9.1459,38.7069]}}]}"#
                    .utf8
            ).write(to: URL(fileURLWithPath: geojson))
            try b.upload(try b.waitFor("[data-testid=places-import-input]", visible: false), path: geojson)
            try b.waitForText("[data-testid=places-import-result]", containing: "imported 1 place", timeout: 15)
            try b.waitForText("[data-testid=place-item]", containing: "Time Out Market")
            try app.assertNoConsoleErrors()
        }

        @Test(
            "a trip's conversation: started with a photo from Messages, the answer counted unread, notified, and opened from the notification"
        )
        func tripConversation() throws {
            var trip = ""
            let scene = try Scene("#/messages") { app, bruno in
                trip = try app.node.createItinerary(jsonText(["name": "Lisbon in May"]))
                if let bruno { try app.node.share(itinerary: trip, with: bruno) }
                // The friendship's and the share's notifications are read: the one to come is the message's.
                try app.api("POST", "/v1/notifications/read", "{}")
            }
            let (app, b, photo) = (scene.app, scene.b, scene.photo)
            let bruno = try #require(scene.bruno)
            let conversation = "trip:\(trip)"

            // The trip's page leads to its conversation, empty and named after the trip.
            try b.go("#/itineraries/\(trip)")
            try b.click("[data-testid=trip-conversation]")
            try b.waitForText("[data-testid=messages-list]", containing: "No messages yet")
            try b.waitForText("main h2", containing: "Trip: Lisbon in May")

            // Ana writes into the trip's conversation from the Messages page, with a photo.
            try b.go("#/messages")
            try b.waitFor("[data-testid=message-new-to] option[value='\(conversation)']", visible: false)
            try b.setValue("[data-testid=message-new-to]", conversation)
            try b.fill("[data-testid=message-new-text]", "Who brings the map?")
            try b.upload(try b.waitFor("[data-testid=message-new-photos]", visible: false), path: photo)
            try b.waitFor("[data-testid=message-new-photo-item][data-state=done]", timeout: 15)
            try b.click("[data-testid=message-new-send]")
            try b.waitForText(
                "[data-testid=message-item] [data-testid=message-text]", containing: "Who brings the map?")
            #expect(try b.text(try b.find("main h2")).contains("Trip: Lisbon in May"))
            try b.wait("Ana's photo shows in the trip's conversation", timeout: 15) {
                try Self.sizes(b, "[data-testid=message-item] img[data-testid=message-photo]") == [[960, 640]]
            }
            // Bruno's daemon has the message, and the photo's bytes from Ana's daemon.
            var photoID = ""
            try waitUntil("Bruno's daemon holds Ana's trip message", timeout: 30) {
                let page = try bruno.json("GET", "/v1/conversations/\(conversation)/messages?peek=true")
                let photos = (page["messages"] as? [[String: Any]])?.first?["photos"] as? [[String: Any]]
                photoID = photos?.first?["id"] as? String ?? ""
                return !photoID.isEmpty
            }
            try waitUntil("Bruno's daemon holds the trip message's photo", timeout: 30) {
                try bruno.send("GET", "/v1/photos/\(photoID)").ok
            }

            // Bruno answers: Ana's list shows the trip's row unread, and a notification comes.
            try b.go("#/messages")
            try b.waitFor("[data-testid=conversation-item][data-id='\(conversation)'][data-unread='0']")
            try bruno.json("POST", "/v1/messages", jsonText(["to": conversation, "text": "I do!"]))
            let row = try b.waitFor(
                "[data-testid=conversation-item][data-id='\(conversation)'][data-unread='1']", timeout: 30)
            #expect(try b.text(row).contains("Trip: Lisbon in May") && b.text(row).contains("I do!"))
            try b.wait("the Messages badge counts 1", timeout: 10) {
                try b.text(try b.find("[data-testid=messages-unread]")) == "1"
            }
            try b.wait("the Notifications badge counts Bruno's message", timeout: 10) {
                let unread = try app.api("GET", "/v1/notifications")
                let messages = (unread["notifications"] as? [[String: Any]] ?? []).filter {
                    $0["type"] as? String == "message" && $0["read"] as? Bool == false
                }
                let badge = try b.text(try b.find("[data-testid=notifications-badge]"))
                return messages.count == 1 && messages.first?["subject"] as? String == conversation
                    && badge == "\(unread["unread"] as? Int ?? -1)"
            }
            try b.go("#/notifications")
            let notice = try b.waitFor("[data-testid=notification-item][data-type=message][data-read=false]")
            #expect(try b.text(notice).contains("Bruno") && b.text(notice).contains("wrote in a trip's conversation"))
            try b.click("[data-testid=notification-item][data-type=message] [data-testid=notification-link]")
            try b.waitForText("[data-testid=message-item] [data-testid=message-from]", containing: "Bruno")
            try b.waitForText("[data-testid=message-item] [data-testid=message-text]", containing: "I do!")
            // Read: both badges go.
            try b.waitGone("[data-testid=messages-unread]:not([hidden])")
            try b.wait("the message's notification is read, and the badge says so", timeout: 10) {
                let unread = try app.api("GET", "/v1/notifications")
                let messages = (unread["notifications"] as? [[String: Any]] ?? []).filter {
                    $0["type"] as? String == "message" && $0["read"] as? Bool == false
                }
                let shown = try b.all("[data-testid=notifications-badge]:not([hidden])").map { try b.text($0) }
                let count = unread["unread"] as? Int ?? -1
                return messages.isEmpty && shown == (count == 0 ? [] : ["\(count)"])
            }

            // A photo this device does not hold yet (GET /v1/photos/{id} answers 404: one only
            // Bruno's daemon holds) reads "Photo not arrived yet", with no broken image; once it
            // arrives here (the same bytes have the same id on every device), the image
            // replaces the box without a reload.
            let drawn =
                try b.execute(
                    """
                    const c = document.createElement('canvas'); c.width = 320; c.height = 200;
                    const g = c.getContext('2d'); g.fillStyle = '#3d5a80'; g.fillRect(0, 0, 320, 200);
                    return c.toDataURL('image/png').split(',')[1];
                    """) as? String
            let png = Array(try #require(Data(base64Encoded: drawn ?? "")))
            let added = try bruno.daemon.client.send(
                "POST", "/v1/photos", body: png, headers: ["Content-Type": "image/png"])
            let later = try #require((JSONCanon.parse(added.body) as? [String: Any])?["id"] as? String)
            #expect(try app.node.send("GET", "/v1/photos/\(later)").status == 404)
            try b.execute(
                """
                return import('/app/js/photos.js').then((m) => {
                  document.querySelector('main').append(m.photo(arguments[0], { alt: 'Photo 1 of 1 sent by Bruno', testid: 'probe-photo' }));
                  return true;
                });
                """, [later])
            let pending = try b.waitFor("[data-testid=probe-photo-pending]", timeout: 10)
            #expect(try b.text(pending) == "Photo not arrived yet")
            #expect(try b.attribute(pending, "aria-label") == "Photo 1 of 1 sent by Bruno: not arrived yet")
            #expect(
                !b.isDisplayed(try b.find("img[data-testid=probe-photo]")), "the missing photo shows as a broken image")
            #expect(
                try app.node.daemon.client.send(
                    "POST", "/v1/photos", body: png, headers: ["Content-Type": "image/png"]
                ).status == 201)
            try b.wait("the photo, arrived, replaces the box", timeout: 20) {
                try Self.sizes(b, "img[data-testid=probe-photo]") == [[320, 200]]
                    && b.all("[data-testid=probe-photo-pending]").allSatisfy { !b.isDisplayed($0) }
            }
            try app.assertNoConsoleErrors(allowing: ["/v1/photos/\(later)"])
        }
    }
}
