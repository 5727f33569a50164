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
        #expect(first["id"]?.stringValue?.utf8.count == 80, "48 hex of the message, 32 of the trip")

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
    /// A small baseline JPEG (headers a decoder reads, then scan bytes without a marker).
    static func jpeg(seed: UInt8) -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        out += segment(0xDB, [0] + Array(repeating: 1, count: 64))
        out += segment(0xC0, [8, 0x00, 0x30, 0x00, 0x40, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        out += segment(0xC4, [0] + Array(repeating: 0, count: 16))
        out += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        out += (0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) % 0xFF }
        return out + [0xFF, 0xD9]
    }

    @Test("a photo in a trip message shows on the page with its descriptor; a bad one is refused naming photo")
    func photo() async throws {
        let t = try await LoggedInDaemon.start()
        let lisbon = try await trip(t)
        let id = "trip:" + lisbon.id
        let added = try await t.d.upload("POST", "/v1/photos", body: Self.jpeg(seed: 3), contentType: "image/jpeg")
        #expect(added.status == 201, "\(added.text)")
        let photo = try Self.json(added)
        let photoID = try #require(photo["id"]?.stringValue)

        let sent = try await t.d.send(
            "POST", "/v1/messages", json: #"{"to":"\#(id)","text":"the view","photo":"\#(photoID)"}"#)
        #expect(sent.status == 201, "\(sent.text)")
        let photoOnly = try await t.d.send("POST", "/v1/messages", json: #"{"to":"\#(id)","photos":["\#(photoID)"]}"#)
        #expect(photoOnly.status == 201, "a photo without text is a message: \(photoOnly.text)")

        let page = try Self.json(try await t.d.send("GET", "/v1/conversations/\(id)/messages"))
        let messages = (page["messages"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(messages.map { $0["text"] } == [.string("the view"), .string("")])
        for message in messages {
            let shown = try #require(message["photos"]?.arrayValue?.first?.objectValue)
            #expect(message["photos"]?.arrayValue?.count == 1)
            #expect(shown["id"] == .string(photoID) && shown["contentType"] == .string("image/jpeg"))
            #expect(shown["width"] == .int(64) && shown["height"] == .int(48) && shown["bytes"] == photo["bytes"])
        }
        let list = try Self.json(try await t.d.send("GET", "/v1/conversations"))
        let last = list["conversations"]?.arrayValue?.first?.objectValue?["lastMessage"]?.objectValue
        #expect(last?["photos"]?.arrayValue?.first?.objectValue?["id"] == .string(photoID))
        #expect(try await t.d.send("GET", "/v1/photos/\(photoID)").status == 200)

        // Deleted for everyone: its photos go with its text.
        let firstID = try #require(try Self.json(sent)["id"]?.stringValue)
        #expect(try await t.d.send("DELETE", "/v1/messages/\(firstID)?for=everyone").status == 204)
        let after = try Self.json(try await t.d.send("GET", "/v1/conversations/\(id)/messages"))
        let deleted = try #require(after["messages"]?.arrayValue?.first?.objectValue)
        #expect(deleted["deleted"] == .bool(true) && deleted["photos"] == .array([]))

        let unknown = String(repeating: "a", count: 64)
        for (body, field) in [
            (#"{"to":"\#(id)","photo":"ab"}"#, "photo"), (#"{"to":"\#(id)","photo":"\#(unknown)"}"#, "photo"),
            (#"{"to":"\#(id)","photo":7,"text":"x"}"#, "photo"),
            (#"{"to":"\#(id)","photos":["\#(unknown)"]}"#, "photos"),
            (#"{"to":"\#(id)","photo":"\#(photoID)","photos":["\#(photoID)"]}"#, "photo"),
        ] {
            let r = try await t.d.send("POST", "/v1/messages", json: body)
            #expect(r.status == 400, "\(body.prefix(100))")
            #expect(try Self.json(r)["field"] == .string(field), "\(body.prefix(100)): \(r.text)")
        }
        #expect(
            try await texts(t, id, "?peek=true") == [""], "nothing refused was written (the deleted one shows no text)")
    }

    @Test("a trip message's id is named by no item route: no one hides it as another kind")
    func messageIsNoItem() async throws {
        let t = try await LoggedInDaemon.start()
        let lisbon = try await trip(t)
        let sent = try await send(t, "trip:" + lisbon.id, "keep me")
        let full = try #require(sent["id"]?.stringValue)
        let entity = String(full.dropLast(32))
        #expect(entity.utf8.count == 48)
        for (method, path) in [
            ("DELETE", "/v1/itineraries/\(lisbon.id)/items/\(entity)"),
            ("DELETE", "/v1/itineraries/\(lisbon.id)/checklist/\(entity)"),
            ("DELETE", "/v1/itineraries/\(lisbon.id)/places/\(entity)"),
            ("PATCH", "/v1/itineraries/\(lisbon.id)/checklist/\(entity)"),
        ] {
            let r = try await t.d.send(method, path, json: method == "PATCH" ? #"{"text":"hijacked"}"# : nil)
            #expect((400..<500).contains(r.status), "\(method) \(path): \(r.status) \(r.text)")
        }
        #expect(try await texts(t, "trip:" + lisbon.id, "?peek=true") == ["keep me"])
    }
}
