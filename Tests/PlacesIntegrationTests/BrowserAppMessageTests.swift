import Foundation
import PlacesTestSupport
import Testing

/// Messages and "out now" in the browser (issue 32): Bruno's message shows as unread on the
/// Messages badge and in the list; opening the conversation marks it read at Bruno's (his
/// daemon shows the read mark); Ana's reply reaches him. Bruno's "I'm out" shows on Ana's
/// Out now page, live.
extension BrowserAppTests {
    @Suite("Messages") struct Messages {
        @Test("an unread message, read by opening it (Bruno sees the mark), a reply, and a friend out now")
        func conversationAndOut() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            let bruno = try PeerNode("Bruno")
            try app.node.befriend(bruno)
            let sent = try bruno.json("POST", "/v1/messages", jsonText(["to": app.node.id, "text": "Dinner at 8?"]))
            let messageID = try #require(sent["id"] as? String)
            try waitUntil("Ana's daemon holds Bruno's message", timeout: 30) {
                let list = try app.api("GET", "/v1/conversations")["conversations"] as? [[String: Any]] ?? []
                return list.first?["unread"] as? Int == 1
            }
            try app.open("#/messages")
            let badge = try b.waitFor("[data-testid=messages-unread]")
            #expect(try b.text(badge) == "1")
            let item = try b.waitFor("[data-testid=conversation-item][data-unread='1']")
            #expect(try b.text(item).contains("Bruno") && b.text(item).contains("Dinner at 8?"))

            try b.click("[data-testid=conversation-item] a")
            let message = try b.waitForText(
                "[data-testid=message-item] [data-testid=message-text]", containing: "Dinner")
            #expect(try b.text(message) == "Dinner at 8?")
            try b.waitGone("[data-testid=messages-unread]:not([hidden])")
            try waitUntil("Bruno's daemon shows his message read", timeout: 30) {
                let page = try bruno.json("GET", "/v1/conversations/\(app.node.id)/messages")
                let messages = page["messages"] as? [[String: Any]] ?? []
                return messages.first { $0["id"] as? String == messageID }?["readAt"] is String
            }

            try b.fill("[data-testid=message-text-input]", "Yes! Time Out Market")
            try b.click("[data-testid=message-send]")
            let mine = try b.waitFor("[data-testid=message-item][data-mine=true]")
            #expect(try b.text(mine).contains("Yes! Time Out Market"))
            try waitUntil("Bruno has Ana's reply", timeout: 30) {
                let page = try bruno.json("GET", "/v1/conversations/\(app.node.id)/messages")
                return (page["messages"] as? [[String: Any]] ?? []).contains {
                    $0["text"] as? String == "Yes! Time Out Market"
                }
            }
            try b.wait("the reply shows delivered", timeout: 30) {
                ["delivered", "read"].contains(
                    try b.attribute(try b.find("[data-testid=message-item][data-mine=true]"), "data-mark") ?? "")
            }

            // Out now, live: Bruno says he is out; Ana's page shows him without a reload.
            try app.open("#/out")
            _ = try b.waitForText("[data-testid=out-list]", containing: "No friend is out now")
            try bruno.json("PUT", "/v1/out", #"{"latitude":38.70697,"longitude":-9.14583,"note":"come by"}"#)
            let out = try b.waitForText("[data-testid=out-item]", containing: "Bruno", timeout: 30)
            #expect(try b.text(out).contains("come by") && b.text(out).contains("near"))
            try app.assertNoConsoleErrors()
        }
    }
}
