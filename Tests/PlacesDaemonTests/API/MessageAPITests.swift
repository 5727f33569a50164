import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// Direct messages on one daemon (issue 32): what Ana writes to her friend Bruno shows in
/// her conversation at once (Bruno's daemon is not running: delivery and read marks are the
/// real-daemon test's, `MessageSyncTests`); every bad request is refused, naming its field.
@Suite("Messages API", .serialized)
struct MessageAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    /// Ana's daemon with Bruno (a fresh key, no daemon) recorded as her friend.
    static func anaWithFriend() async throws -> (LoggedInDaemon, PublicKey) {
        let t = try await LoggedInDaemon.start()
        let bruno = try SigningKeyPair().publicKey
        t.d.stop()
        let core = try await InProcessDaemon.start(dataDir: t.dir.path)
        _ = try await core.engine.login(passphrase: "correct horse")
        try await core.engine.setFriendState(bruno, .friend, name: "Bruno")
        core.shutdown()
        try await t.d.start()
        _ = try await t.d.send("POST", "/v1/login", json: #"{"passphrase":"correct horse"}"#)
        return (t, bruno)
    }

    func send(_ t: LoggedInDaemon, _ body: String) async throws -> [String: JSONValue] {
        let r = try await t.d.send("POST", "/v1/messages", json: body)
        guard r.status == 201 else { throw HarnessError("POST /v1/messages → \(r.status): \(r.text)") }
        return try Self.json(r)
    }

    func messages(_ t: LoggedInDaemon, _ friend: PublicKey, _ query: String = "") async throws -> [[String: JSONValue]]
    {
        let r = try await t.d.send("GET", "/v1/conversations/\(friend.humanID)/messages\(query)")
        return (try Self.json(r)["messages"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    @Test("sending, the conversation list, pages, delete for everyone and for me, mute, block")
    func conversation() async throws {
        let (t, bruno) = try await Self.anaWithFriend()
        let empty = try Self.json(try await t.d.send("GET", "/v1/conversations"))
        #expect(empty["conversations"] == .array([]), "no message yet: no conversation")

        let first = try await send(t, #"{"to":"\#(bruno.humanID)","text":"  dinner at 8?  "}"#)
        #expect(first["conversation"] == .string(bruno.humanID))
        #expect(first["id"]?.stringValue?.utf8.count == 64)
        let second = try await send(t, #"{"to":"\#(bruno.humanID)","text":"at Taberna"}"#)
        #expect(
            (first["sentAt"]?.stringValue ?? "") < (second["sentAt"]?.stringValue ?? ""),
            "a later message sorts after the one before")

        let list = try Self.json(try await t.d.send("GET", "/v1/conversations"))
        let row = try #require(list["conversations"]?.arrayValue?.first?.objectValue)
        #expect(row["id"] == .string(bruno.humanID) && row["unread"] == .int(0) && row["muted"] == .bool(false))
        #expect(row["with"]?.arrayValue?.first?.objectValue?["name"] == .string("Bruno"))
        #expect(row["lastMessage"]?.objectValue?["text"] == .string("at Taberna"))

        var shown = try await messages(t, bruno)
        #expect(shown.map { $0["text"] } == [.string("dinner at 8?"), .string("at Taberna")], "oldest first, trimmed")
        #expect(shown.allSatisfy { $0["mine"] == .bool(true) && $0["deliveredAt"] == .null && $0["readAt"] == .null })

        // Pages of the last N, and `next` to the ones before.
        for i in 1...5 { _ = try await send(t, #"{"to":"\#(bruno.humanID)","text":"m\#(i)"}"#) }
        let page = try Self.json(try await t.d.send("GET", "/v1/conversations/\(bruno.humanID)/messages?limit=3"))
        #expect(
            page["messages"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue } == ["m3", "m4", "m5"])
        let next = try #require(page["next"]?.stringValue)
        let before = try await messages(t, bruno, "?limit=3&before=\(next)")
        #expect(before.compactMap { $0["text"]?.stringValue } == ["at Taberna", "m1", "m2"])

        // Deleted for everyone: "message deleted", no text; for me: gone from the list.
        let firstID = try #require(first["id"]?.stringValue)
        #expect(try await t.d.send("DELETE", "/v1/messages/\(firstID)?for=everyone").status == 204)
        let secondID = try #require(second["id"]?.stringValue)
        #expect(try await t.d.send("DELETE", "/v1/messages/\(secondID)").status == 204)
        shown = try await messages(t, bruno)
        #expect(shown.count == 6)
        #expect(shown.first?["deleted"] == .bool(true) && shown.first?["text"] == .null)
        #expect(!shown.contains { $0["id"]?.stringValue == secondID })
        #expect(try await t.d.send("DELETE", "/v1/messages/\(secondID)").status == 404, "hidden: not found any more")

        // Mute, then block: the conversation is hidden and nothing can be sent.
        let muted = try Self.json(try await t.d.send("PUT", "/v1/conversations/\(bruno.humanID)/mute"))
        #expect(muted["muted"] == .bool(true))
        let listed = try Self.json(try await t.d.send("GET", "/v1/conversations"))
        #expect(listed["conversations"]?.arrayValue?.first?.objectValue?["muted"] == .bool(true))
        #expect(try await t.d.send("DELETE", "/v1/conversations/\(bruno.humanID)/mute").status == 200)
        let blocked = try await t.d.send("PUT", "/v1/blocked/\(bruno.humanID)")
        #expect(blocked.status == 200)
        #expect(try Self.json(blocked)["since"]?.stringValue != nil)
        let all = try Self.json(try await t.d.send("GET", "/v1/blocked"))
        #expect(all["blocked"]?.arrayValue?.compactMap { $0.objectValue?["id"] } == [.string(bruno.humanID)])
        let refused = try await t.d.send("POST", "/v1/messages", json: #"{"to":"\#(bruno.humanID)","text":"hi"}"#)
        #expect(refused.status == 409)
        #expect(try Self.json(refused)["code"] == .string("blocked"))
        #expect(try Self.json(try await t.d.send("GET", "/v1/conversations"))["conversations"] == .array([]))
        #expect(try await t.d.send("DELETE", "/v1/blocked/\(bruno.humanID)").status == 204)
        #expect(try await t.d.send("GET", "/v1/blocked").text.contains(bruno.humanID) == false)
        _ = try await send(t, #"{"to":"\#(bruno.humanID)","text":"unblocked"}"#)
        let read = try Self.json(try await t.d.send("POST", "/v1/conversations/\(bruno.humanID)/read"))
        #expect(read["marked"] == .int(0), "nothing of Bruno's to mark")
    }

    @Test("bad requests are refused, naming the field, and change nothing")
    func badInput() async throws {
        let (t, bruno) = try await Self.anaWithFriend()
        let stranger = try SigningKeyPair().publicKey
        let to = bruno.humanID
        let long = String(repeating: "é", count: 4_001)
        for (body, field) in [
            (#"{}"#, "to"), (#"{"to":5,"text":"x"}"#, "to"), (#"{"to":"nobody","text":"x"}"#, "to"),
            (#"{"to":"trip:0123456789abcdef0123456789abcdef","text":"x"}"#, "to"),
            (#"{"to":"\#(stranger.humanID)","text":"x"}"#, "to"), (#"{"to":"\#(to)"}"#, "text"),
            (#"{"to":"\#(to)","text":"   "}"#, "text"), (#"{"to":"\#(to)","text":"\#(long)"}"#, "text"),
            (#"{"to":"\#(to)","text":7}"#, "text"), (#"{"to":"\#(to)","text":"x","color":"red"}"#, "color"),
            (#"{"to":"\#(to)","photo":"abc"}"#, "photo"), (#"{"to":"\#(to)","photo":3}"#, "photo"),
            (#"{"to":"\#(to)","photo":"\#(String(repeating: "a", count: 64))"}"#, "photo"),
            (#"{"to":"\#(to)","photo":"a","photos":["b"]}"#, "photo"),
        ] {
            let r = try await t.d.send("POST", "/v1/messages", json: body)
            #expect(r.status == 400, "\(body)")
            #expect(try Self.json(r)["field"] == .string(field), "\(body): \(r.text)")
        }
        let trip = try await t.d.send("POST", "/v1/messages", json: #"{"to":"trip:x","text":"x"}"#)
        #expect(trip.text.contains("not a trip you are a member of"), "\(trip.text)")
        #expect(try Self.json(try await t.d.send("GET", "/v1/conversations"))["conversations"] == .array([]))

        let sent = try await send(t, #"{"to":"\#(to)","text":"hello"}"#)
        let id = try #require(sent["id"]?.stringValue)
        for (method, path, status, field) in [
            ("GET", "/v1/conversations/\(to)/messages?limit=0", 400, "limit"),
            ("GET", "/v1/conversations/\(to)/messages?limit=201", 400, "limit"),
            ("GET", "/v1/conversations/\(to)/messages?before=zz", 400, "before"),
            ("GET", "/v1/conversations/\(to)/messages?before=\(String(repeating: "0", count: 64))", 400, "before"),
            ("GET", "/v1/conversations/\(to)/messages?peek=maybe", 400, "peek"),
            ("GET", "/v1/conversations/\(stranger.humanID)/messages", 400, "id"),
            ("GET", "/v1/conversations/trip:abc/messages", 400, "id"),
            ("POST", "/v1/conversations/nobody/read", 400, "id"),
            ("PUT", "/v1/conversations/\(stranger.humanID)/mute", 400, "id"),
            ("DELETE", "/v1/messages/xyz", 400, "id"),
            ("DELETE", "/v1/messages/\(id)?for=all", 400, "for"),
            ("DELETE", "/v1/messages/\(String(repeating: "0", count: 64))", 404, nil),
            ("PUT", "/v1/blocked/nobody", 400, "person"),
        ] {
            let r = try await t.d.send(method, path)
            #expect(r.status == status, "\(method) \(path): \(r.text)")
            if let field { #expect(try Self.json(r)["field"] == .string(field), "\(method) \(path): \(r.text)") }
        }
        let me = try await t.d.call(Status.self, "GET", "/v1/status").id ?? ""
        #expect(try await t.d.send("PUT", "/v1/blocked/\(me)").status == 400, "no blocking yourself")
        let shown = try await messages(t, bruno)
        #expect(shown.compactMap { $0["text"]?.stringValue } == ["hello"], "nothing else was written")
    }
}
