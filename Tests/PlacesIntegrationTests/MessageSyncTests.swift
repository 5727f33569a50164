import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesModel
import PlacesTestSupport
import Testing

/// Direct messages between real daemons (issue 32): Ana and Bruno are friends, Dana is a
/// stranger on the network. Sent, delivered and read marks travel both ways; a message
/// written while Bruno's daemon is stopped reaches him when it starts; the author deletes
/// for everyone; a blocked person's messages never show.
@Suite("Messages between real daemons", .serialized)
struct MessageSyncTests {
    static func json(_ r: ControlClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    /// Ana and Bruno, friends (Bruno accepts Ana's request), each able to dial the other.
    static func friends() async throws -> (SyncNode, SyncNode) {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno")
        try ana.addPeer(bruno)
        try bruno.addPeer(ana)
        _ = try ana.d.call(Friend.self, "POST", "/v1/friends", json: #"{"id":"\#(bruno.id)"}"#)
        try await eventually("Bruno has Ana's friend request") {
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.contains { $0.kind == "friend" }
        }
        let request = try #require(
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.first { $0.kind == "friend" })
        _ = try bruno.d.call(Invitation.self, "POST", "/v1/invitations/\(request.id)/accept")
        try await eventually("both are friends") {
            try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.first?.state == "friend"
                && bruno.d.call(FriendList.self, "GET", "/v1/friends").friends.first?.state == "friend"
        }
        return (ana, bruno)
    }

    /// The messages of `node`'s conversation with `friend`, oldest first, without marking them read.
    static func messages(_ node: SyncNode, with friend: SyncNode) throws -> [[String: JSONValue]] {
        let r = try node.d.send("GET", "/v1/conversations/\(friend.id)/messages?peek=true")
        return (try json(r)["messages"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    static func message(_ node: SyncNode, with friend: SyncNode, _ id: String) throws -> [String: JSONValue]? {
        try messages(node, with: friend).first { $0["id"]?.stringValue == id }
    }

    static func send(_ node: SyncNode, to friend: SyncNode, _ text: String) throws -> String {
        let r = try node.d.send("POST", "/v1/messages", json: #"{"to":"\#(friend.id)","text":"\#(text)"}"#)
        guard r.status == 201, let id = try json(r)["id"]?.stringValue else {
            throw HarnessError("POST /v1/messages → \(r.status): \(r.text)")
        }
        return id
    }

    @Test("delivered and read marks, offline delivery, delete for everyone, a stranger refused, block")
    func conversation() async throws {
        let (ana, bruno) = try await Self.friends()
        let dana = try SyncNode("Dana")
        try dana.addPeer(ana)

        // Sent, then delivered while Bruno is online: his daemon's receipt reaches Ana.
        let dinner = try Self.send(ana, to: bruno, "dinner at 8?")
        try await eventually("Bruno holds the message, unread, and Ana sees it delivered") {
            let list = try Self.json(try bruno.d.send("GET", "/v1/conversations"))
            let row = list["conversations"]?.arrayValue?.first?.objectValue
            let delivered = try Self.message(ana, with: bruno, dinner)?["deliveredAt"]?.stringValue
            return row?["unread"] == .int(1) && row?["lastMessage"]?.objectValue?["text"] == .string("dinner at 8?")
                && delivered != nil
        }
        #expect(try Self.message(ana, with: bruno, dinner)?["readAt"] == .null, "peeking marks nothing read")
        let notes = try bruno.d.call(NotificationList.self, "GET", "/v1/notifications").notifications
        #expect(notes.contains { $0.type == "message" && $0.actor == ana.id }, "a new message is notified")

        // Bruno opens the conversation: read, at Ana too.
        let opened = try Self.json(try bruno.d.send("GET", "/v1/conversations/\(ana.id)/messages"))
        #expect(opened["messages"]?.arrayValue?.first?.objectValue?["mine"] == .bool(false))
        try await eventually("Ana sees her message read") {
            try Self.message(ana, with: bruno, dinner)?["readAt"]?.stringValue != nil
        }
        let list = try Self.json(try bruno.d.send("GET", "/v1/conversations"))
        #expect(list["conversations"]?.arrayValue?.first?.objectValue?["unread"] == .int(0))

        // Written while Bruno's daemon is stopped: it arrives when it starts.
        bruno.stop()
        let late = try Self.send(ana, to: bruno, "are you there?")
        try bruno.start()
        try await eventually("the message sent while Bruno was stopped reaches him", timeout: .seconds(30)) {
            try Self.message(bruno, with: ana, late)?["text"] == .string("are you there?")
        }
        try await eventually("and Ana sees it delivered") {
            try Self.message(ana, with: bruno, late)?["deliveredAt"]?.stringValue != nil
        }
        let reply = try Self.send(bruno, to: ana, "yes, 8 is fine")
        try await eventually("Bruno's reply reaches Ana, after her messages") {
            try Self.messages(ana, with: bruno).last?["id"]?.stringValue == reply
        }

        // Deleted for everyone by its author; Bruno cannot delete Ana's for everyone.
        #expect(try bruno.d.send("DELETE", "/v1/messages/\(dinner)?for=everyone").status == 403)
        #expect(try ana.d.send("DELETE", "/v1/messages/\(dinner)?for=everyone").status == 204)
        try await eventually("Bruno sees “message deleted”") {
            let shown = try Self.message(bruno, with: ana, dinner)
            return shown?["deleted"] == .bool(true) && shown?["text"] == .null
        }

        // Dana is no one's friend: refused, and nothing of hers shows.
        let stranger = try dana.d.send("POST", "/v1/messages", json: #"{"to":"\#(ana.id)","text":"hi Ana"}"#)
        #expect(stranger.status == 400 && stranger.text.contains("not your friend"), "\(stranger.text)")

        #expect(try ana.d.send("POST", "/v1/messages", json: #"{"to":"\#(dana.id)","text":"x"}"#).status == 400)
        #expect(try Self.json(try dana.d.send("GET", "/v1/conversations"))["conversations"] == .array([]))

        // Ana blocks Bruno: what he writes never shows, and he is not told.
        func messageNotes() throws -> Int {
            try ana.d.call(NotificationList.self, "GET", "/v1/notifications").notifications.count {
                $0.type == "message"
            }
        }
        let notesBefore = try messageNotes()
        #expect(notesBefore == 1, "Bruno's reply was notified")
        #expect(try ana.d.send("PUT", "/v1/blocked/\(bruno.id)").status == 200)
        let blocked = try Self.send(bruno, to: ana, "can you see this?")
        // What Bruno writes to Ana now would have arrived within this wait.
        try await Task.sleep(for: .seconds(3))
        #expect(try Self.json(try ana.d.send("GET", "/v1/conversations"))["conversations"] == .array([]))
        #expect(try ana.d.send("GET", "/v1/conversations/\(bruno.id)/messages").text.contains("can you see") == false)
        #expect(try Self.message(bruno, with: ana, blocked)?["deliveredAt"] == .null, "no receipt goes to Bruno")
        let refused = try ana.d.send("POST", "/v1/messages", json: #"{"to":"\#(bruno.id)","text":"x"}"#)
        #expect(refused.status == 409)
        #expect(try messageNotes() == notesBefore, "no notification for the blocked person's message")
    }

    @Test("a flood: past 60 messages a minute from one friend, the rest are dropped with a logged reason")
    func flood() async throws {
        let (ana, bruno) = try await Self.friends()
        var sent = [String]()
        for i in 0..<70 { sent.append(try Self.send(bruno, to: ana, "flood \(i)")) }
        try await eventually("Ana holds Bruno's 70 ops and shows 60 messages", timeout: .seconds(30)) {
            let shown = try Self.json(
                try ana.d.send("GET", "/v1/conversations/\(bruno.id)/messages?limit=200&peek=true"))
            return shown["messages"]?.arrayValue?.count == 60
        }
        try await Task.sleep(for: .seconds(1))
        let shown = try Self.messages(ana, with: bruno).compactMap { $0["id"]?.stringValue }
        #expect(shown.count == 50 && Set(shown).isSubset(of: Set(sent.prefix(60))), "the first 60 are kept")
        let log = String(
            decoding: FileManager.default.contents(atPath: ana.dir.path + ".stderr") ?? Data(), as: UTF8.self)
        #expect(log.contains("more than 60 a minute from one sender"), "the drop is logged")
        let list = try Self.json(try ana.d.send("GET", "/v1/conversations"))
        #expect(list["conversations"]?.arrayValue?.first?.objectValue?["unread"] == .int(60))
        // The dropped ones get no delivered mark at Bruno's.
        try await eventually("Bruno sees the first 60 delivered and no more") {
            let page = try Self.json(
                try bruno.d.send("GET", "/v1/conversations/\(ana.id)/messages?limit=200&peek=true"))
            let delivered = (page["messages"]?.arrayValue ?? []).filter {
                $0.objectValue?["deliveredAt"]?.stringValue != nil
            }
            return delivered.count == 60
        }
    }
}
