import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// A trip's conversation on one daemon (issue 32): Ana writes in her trip's conversation and
/// reads it like a direct one; the bounds answer precisely and change nothing. Other members
/// writing, and a removed member reading nothing new, are the real-daemon test's
/// (`TripConversationTests`).
@Suite("Trip messages API", .serialized)
struct TripMessageAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        try MessageAPITests.json(r)
    }

    func trip(_ t: LoggedInDaemon, _ name: String = "Lisbon") async throws -> Itinerary {
        try await t.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"\#(name)"}"#)
    }

    func send(_ t: LoggedInDaemon, _ to: String, _ text: String) async throws -> [String: JSONValue] {
        let r = try await t.d.send("POST", "/v1/messages", json: #"{"to":"\#(to)","text":"\#(text)"}"#)
        guard r.status == 201 else { throw HarnessError("POST /v1/messages → \(r.status): \(r.text)") }
        return try Self.json(r)
    }

    func texts(_ t: LoggedInDaemon, _ id: String, _ query: String = "") async throws -> [String] {
        let r = try await t.d.send("GET", "/v1/conversations/\(id)/messages\(query)")
        return (try Self.json(r)["messages"]?.arrayValue ?? []).compactMap { $0.objectValue?["text"]?.stringValue }
    }

    @Test("sending by a trip's id or its start, the conversation list, pages, delete, mute; not activity")
    func conversation() async throws {
        let t = try await LoggedInDaemon.start()
        let me = try await t.d.call(Status.self, "GET", "/v1/status").id ?? ""
        let lisbon = try await trip(t)
        let id = "trip:" + lisbon.id
        let activityBefore = try await t.d.call(ActivityList.self, "GET", "/v1/itineraries/\(lisbon.id)/activity")

        let first = try await send(t, "trip:" + lisbon.id.prefix(8), "  meet at the station  ")
        #expect(first["conversation"] == .string(id), "the whole id, whatever start was given")
        #expect(first["id"]?.stringValue?.utf8.count == 64)

        let list = try Self.json(try await t.d.send("GET", "/v1/conversations"))
        let row = try #require(list["conversations"]?.arrayValue?.first?.objectValue)
        #expect(row["id"] == .string(id) && row["unread"] == .int(0) && row["muted"] == .bool(false))
        #expect(row["trip"]?.objectValue?["name"] == .string("Lisbon"))
        #expect(row["trip"]?.objectValue?["id"] == .string(lisbon.id))
        #expect(row["with"] == .array([]), "no other member yet")
        let last = try #require(row["lastMessage"]?.objectValue)
        #expect(last["text"] == .string("meet at the station") && last["from"] == .string(me))
        #expect(last["mine"] == .bool(true) && last["deliveredAt"] == .null && last["readAt"] == .null)

        // A message is not a change of the trip: its activity is as it was.
        let activityAfter = try await t.d.call(ActivityList.self, "GET", "/v1/itineraries/\(lisbon.id)/activity")
        #expect(activityAfter.count == activityBefore.count)

        for i in 1...4 { _ = try await send(t, id, "m\(i)") }
        let page = try Self.json(try await t.d.send("GET", "/v1/conversations/\(id)/messages?limit=3"))
        #expect(
            page["messages"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue } == ["m2", "m3", "m4"])
        let next = try #require(page["next"]?.stringValue)
        #expect(try await texts(t, id, "?limit=3&before=\(next)") == ["meet at the station", "m1"])

        // Deleted for everyone: "message deleted"; for me: gone; then not found.
        let firstID = try #require(first["id"]?.stringValue)
        #expect(try await t.d.send("DELETE", "/v1/messages/\(firstID)?for=everyone").status == 204)
        let shown = try Self.json(try await t.d.send("GET", "/v1/conversations/\(id)/messages"))
        let deleted = try #require(shown["messages"]?.arrayValue?.first?.objectValue)
        #expect(deleted["deleted"] == .bool(true) && deleted["text"] == .null)
        #expect(try await t.d.send("DELETE", "/v1/messages/\(firstID)").status == 204)
        #expect(try await texts(t, id) == ["m1", "m2", "m3", "m4"])
        #expect(try await t.d.send("DELETE", "/v1/messages/\(firstID)").status == 404)

        let muted = try Self.json(try await t.d.send("PUT", "/v1/conversations/\(id)/mute"))
        #expect(muted["muted"] == .bool(true) && muted["id"] == .string(id))
        let listed = try Self.json(try await t.d.send("GET", "/v1/conversations"))
        #expect(listed["conversations"]?.arrayValue?.first?.objectValue?["muted"] == .bool(true))
        let read = try Self.json(try await t.d.send("POST", "/v1/conversations/\(id)/read"))
        #expect(read["marked"] == .int(0), "your own messages are never unread")
    }

    @Test("bad requests and the bounds are refused, naming the field or the code, and change nothing")
    func badInputAndBounds() async throws {
        let t = try await LoggedInDaemon.start()
        let lisbon = try await trip(t)
        let id = "trip:" + lisbon.id
        let long = String(repeating: "é", count: 4_001)
        for (body, field) in [
            (#"{"to":"\#(id)","text":"\#(long)"}"#, "text"), (#"{"to":"\#(id)"}"#, "text"),
            (#"{"to":"\#(id)","text":"  "}"#, "text"), (#"{"to":"\#(id)","text":"x","photo":"ab"}"#, "photo"),
            (#"{"to":"trip:\#(String(repeating: "f", count: 32))","text":"x"}"#, "to"),
            (#"{"to":"trip:","text":"x"}"#, "to"), (#"{"to":"\#(id)","text":"x","mood":"happy"}"#, "mood"),
        ] {
            let r = try await t.d.send("POST", "/v1/messages", json: body)
            #expect(r.status == 400, "\(body.prefix(80))")
            #expect(try Self.json(r)["field"] == .string(field), "\(body.prefix(80)): \(r.text)")
        }
        let exactly = String(repeating: "é", count: 4_000)
        _ = try await send(t, id, exactly)
        for (path, field) in [
            ("/v1/conversations/\(id)/messages?limit=0", "limit"),
            ("/v1/conversations/\(id)/messages?before=\(String(repeating: "0", count: 64))", "before"),
            ("/v1/conversations/\(id)/messages?peek=maybe", "peek"),
            ("/v1/conversations/trip:\(String(repeating: "e", count: 32))/messages", "id"),
        ] {
            let r = try await t.d.send("GET", path)
            #expect(r.status == 400, "\(path): \(r.text)")
            #expect(try Self.json(r)["field"] == .string(field), "\(path): \(r.text)")
        }

        // 50 in a minute, then 409 too-many-messages; the 51st is not written.
        for i in 2...50 { _ = try await send(t, id, "n\(i)") }
        let flood = try await t.d.send("POST", "/v1/messages", json: #"{"to":"\#(id)","text":"one more"}"#)
        #expect(flood.status == 409)
        #expect(try Self.json(flood)["code"] == .string("too-many-messages"))
        let all = try await texts(t, id, "?limit=200")
        #expect(all.count == 50 && all.first == exactly && all.last == "n50" && !all.contains("one more"))

        // Another trip is another conversation, with its own bound.
        let porto = try await trip(t, "Porto")
        _ = try await send(t, "trip:" + porto.id, "hello Porto")
        let rows = try Self.json(try await t.d.send("GET", "/v1/conversations"))["conversations"]?.arrayValue ?? []
        #expect(rows.compactMap { $0.objectValue?["id"]?.stringValue } == ["trip:" + porto.id, id], "newest first")
    }
}
