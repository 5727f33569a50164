import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesModel
import PlacesTestSupport
import Testing

/// A trip's conversation between real daemons (issue 32): Ana owns a trip shared with Bruno
/// (editor) and Carla (viewer); all three write and read each other's messages. Ana removes
/// Carla; Ana and Bruno write more: Carla's daemon never shows it, and her database files
/// hold no byte of its text (the trip's key rotated: `Protocol/sync.md` §8.4).
@Suite("Trip conversations between real daemons", .serialized)
struct TripConversationTests {
    static func json(_ r: ControlClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    static func send(_ node: SyncNode, _ trip: String, _ text: String) throws -> String {
        let r = try node.d.send("POST", "/v1/messages", json: #"{"to":"trip:\#(trip)","text":"\#(text)"}"#)
        guard r.status == 201, let id = try json(r)["id"]?.stringValue else {
            throw HarnessError("\(node.name): POST /v1/messages → \(r.status): \(r.text)")
        }
        return id
    }

    /// "author's id: text" of each message `node` shows, oldest first, without marking them read.
    static func shown(_ node: SyncNode, _ trip: String) throws -> [String] {
        let r = try node.d.send("GET", "/v1/conversations/trip:\(trip)/messages?limit=200&peek=true")
        guard r.status == 200 else { return [] }
        return (try json(r)["messages"]?.arrayValue ?? []).compactMap { m in
            guard let o = m.objectValue else { return nil }
            return
                "\(o["from"]?.stringValue ?? ""): \(o["deleted"] == .bool(true) ? "(deleted)" : o["text"]?.stringValue ?? "")"
        }
    }

    /// The trip's row in `node`'s conversation list.
    static func row(_ node: SyncNode, _ trip: String) throws -> [String: JSONValue]? {
        let list = try json(try node.d.send("GET", "/v1/conversations"))
        return list["conversations"]?.arrayValue?.compactMap(\.objectValue).first {
            $0["id"] == .string("trip:\(trip)")
        }
    }

    @Test("three members write and read; a removed member reads nothing written after, not even on disk")
    func removedMemberReadsNothingNew() async throws {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno"), carla = try SyncNode("Carla")
        for (a, b) in [(ana, bruno), (ana, carla), (bruno, carla)] {
            try a.addPeer(b)
            try b.addPeer(a)
        }
        for node in [bruno, carla] { try node.trust(ana) }
        let trip = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#).id
        try ana.share(trip, with: bruno.id, role: "editor")
        try ana.share(trip, with: carla.id, role: "viewer")
        try await eventually("Bruno and Carla hold the trip") {
            try [bruno, carla].allSatisfy { try $0.d.send("GET", "/v1/itineraries/\(trip)").status == 200 }
        }

        // All three write, the viewer too; each reads everyone's, with its author.
        _ = try Self.send(ana, trip, "train at 9")
        try await eventually("Bruno and Carla have Ana's message") {
            try [bruno, carla].allSatisfy { try Self.shown($0, trip).count == 1 }
        }
        _ = try Self.send(bruno, trip, "I bring snacks")
        try await eventually("everyone has Bruno's") {
            try [ana, carla].allSatisfy { try Self.shown($0, trip).count == 2 }
        }
        let carlas = try Self.send(carla, trip, "see you there")
        let before = ["\(ana.id): train at 9", "\(bruno.id): I bring snacks", "\(carla.id): see you there"]
        try await eventually("everyone reads all three, in order, with their authors", timeout: .seconds(20)) {
            try [ana, bruno, carla].allSatisfy { try Self.shown($0, trip) == before }
        }
        // Bruno's list: the trip, with Ana and Carla, two unread; Carla's message notified.
        let row = try #require(try Self.row(bruno, trip))
        #expect(row["unread"] == .int(2))
        #expect(
            Set(row["with"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? [])
                == [ana.id, carla.id])
        #expect(row["trip"]?.objectValue?["name"] == .string("Lisbon"))
        let notes = try bruno.d.call(NotificationList.self, "GET", "/v1/notifications").notifications
        #expect(notes.contains { $0.type == "message" && $0.actor == carla.id && $0.subject == "trip:\(trip)" })
        _ = try bruno.d.send("GET", "/v1/conversations/trip:\(trip)/messages")
        #expect(try Self.row(bruno, trip)?["unread"] == .int(0), "listing read it")
        // No one deletes another's message; the author may.
        #expect(try ana.d.send("DELETE", "/v1/messages/\(carlas)?for=everyone").status == 403)

        // Ana mutes the trip: Bruno's next message raises no notification at hers.
        #expect(try ana.d.send("PUT", "/v1/conversations/trip:\(trip)/mute").status == 200)
        func messageNotes() throws -> Int {
            try ana.d.call(NotificationList.self, "GET", "/v1/notifications").notifications.count {
                $0.type == "message"
            }
        }
        let notesBefore = try messageNotes()
        #expect(notesBefore >= 2, "Bruno's and Carla's messages were notified")

        // Ana removes Carla; Ana and Bruno write on.
        let removed = try ana.d.send("DELETE", "/v1/itineraries/\(trip)/members/\(carla.id)")
        #expect(removed.status == 200, "\(removed.text)")
        _ = try Self.send(ana, trip, "new meeting point Quokka17")
        _ = try Self.send(bruno, trip, "Bruno agrees Wombat42")
        try await eventually("Ana and Bruno read each other's new messages", timeout: .seconds(20)) {
            try [ana, bruno].allSatisfy { node in
                let texts = try Self.shown(node, trip)
                return texts.contains { $0.hasSuffix("Quokka17") } && texts.contains { $0.hasSuffix("Wombat42") }
            }
        }
        #expect(try messageNotes() == notesBefore, "a muted trip notifies nothing")
        try await Task.sleep(for: .seconds(2))
        #expect(try !Self.shown(carla, trip).contains { $0.contains("Quokka17") || $0.contains("Wombat42") })
        let after = try carla.d.send("POST", "/v1/messages", json: #"{"to":"trip:\#(trip)","text":"hello?"}"#)
        #expect(after.status == 400, "Carla is no member any more: \(after.text)")
        // Her database holds what she read before, and nothing written after her removal.
        #expect(try OutSyncTests.databaseHolds(carla, "I bring snacks"), "the check finds what she did receive")
        #expect(try !OutSyncTests.databaseHolds(carla, "Quokka17"))
        #expect(try !OutSyncTests.databaseHolds(carla, "Wombat42"))

        // Bruno deletes his own for everyone; Ana blocks Carla: hers are hidden from Ana only.
        let brunos = try #require(
            try Self.json(try bruno.d.send("GET", "/v1/conversations/trip:\(trip)/messages?peek=true"))["messages"]?
                .arrayValue?.compactMap(\.objectValue).first { $0["text"] == .string("I bring snacks") }?["id"]?
                .stringValue)
        #expect(try bruno.d.send("DELETE", "/v1/messages/\(brunos)?for=everyone").status == 204)
        try await eventually("Ana sees Bruno's message deleted") {
            try Self.shown(ana, trip).contains("\(bruno.id): (deleted)")
        }
        #expect(try ana.d.send("PUT", "/v1/blocked/\(carla.id)").status == 200)
        #expect(try !Self.shown(ana, trip).contains { $0.hasPrefix(carla.id) })
        #expect(try Self.shown(bruno, trip).contains("\(carla.id): see you there"), "Bruno did not block her")
    }
}
