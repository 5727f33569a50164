import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 32's messages and receipts against a friend who lies (`Protocol/sync.md` §7.3,
/// "Messages", "Receipts"): receipts for messages they never received, a receipt under one
/// message's id naming another, marks dated in the future or before the message, messages
/// dated ahead by their `sentAt`, and a message that claims another author.
extension HostileSocialPeerTests {
    /// A message's changes; values as the author's daemon writes them.
    static func message(
        _ id: String = HexCoding.encode(SecureRandom.bytes(16)), text: String, sentAt: String = SignedReaction.now(),
        extra: [String] = []
    ) -> [String] {
        [
            Wire.create(id, kind: "message"),
            Wire.set(id, kind: "message", field: "text", value: Wire.string(text)),
            Wire.set(id, kind: "message", field: "sentAt", value: Wire.string(sentAt)),
        ] + extra
    }

    /// The fixed id of a message's receipt: BLAKE2b-256("places/receipt/1" ‖ 0x00 ‖ id), 16 bytes, hex.
    static func receiptID(_ message: String) -> String {
        HexCoding.encode(Array(Blake2b.hash256(Array("places/receipt/1".utf8) + [0] + Array(message.utf8)).prefix(16)))
    }

    /// A receipt's changes: `id` defaults to the one fixed by `message`.
    static func receipt(
        _ message: String, id: String? = nil, deliveredAt: String = SignedReaction.now(), readAt: String? = nil
    ) -> [String] {
        let id = id ?? receiptID(message)
        var out = [
            Wire.create(id, kind: "receipt"),
            Wire.set(id, kind: "receipt", field: "message", value: Wire.string(message)),
            Wire.set(id, kind: "receipt", field: "deliveredAt", value: Wire.string(deliveredAt)),
        ]
        if let readAt { out.append(Wire.set(id, kind: "receipt", field: "readAt", value: Wire.string(readAt))) }
        return out
    }

    /// The messages of the victim's conversation with `friend`, oldest first, without marking any read.
    func conversation(_ v: SocialVictim, with friend: String) throws -> [[String: JSONValue]] {
        let r = try v.d.send("GET", "/v1/conversations/\(friend)/messages?peek=true&limit=200")
        guard r.status == 200, case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)),
            case .array(let list)? = o["messages"]
        else { throw HarnessError("messages: \(r.status) \(r.text)") }
        return list.compactMap { value -> [String: JSONValue]? in
            if case .object(let o) = value { return o }
            return nil
        }
    }

    /// Sends a message as the victim; its route id.
    func send(_ v: SocialVictim, to friend: String, _ text: String) throws -> String {
        let r = try v.d.send("POST", "/v1/messages", json: #"{"to":"\#(friend)","text":\#(Wire.string(text))}"#)
        guard r.status == 201 || r.status == 200,
            case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)),
            let id = o["id"]?.stringValue
        else { throw HarnessError("send: \(r.status) \(r.text)") }
        return id
    }

    @Test("receipts from a lying friend: another friend's message, an id naming another message, no effect")
    func forgedReceipts() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let c = try await v.befriend(try AdversarialPeer(), name: "Carla")
        let toCarla = try send(v, to: c.humanID, "for Carla only")
        let toMallory = try send(v, to: m.humanID, "for Mallory")
        let carlaID = String(toCarla.prefix(32)), malloryID = String(toMallory.prefix(32))
        // Mallory marks Vera's message to Carla read (under the id that message fixes), and
        // writes a receipt under her own message's id that names Carla's.
        try m.push(Self.receipt(carlaID, readAt: SignedReaction.now()))
        try m.push(Self.receipt(carlaID, id: Self.receiptID(malloryID), readAt: SignedReaction.now()))
        // A receipt that is honest about nothing but is the last one: once it is stored, the
        // lies before it were too.
        let marker = try send(v, to: m.humanID, "marker")
        try m.push(Self.receipt(String(marker.prefix(32))))
        try await eventually("the marker's receipt shows", timeout: .seconds(10)) {
            try conversation(v, with: m.humanID).first { $0["id"] == .string(marker) }?["deliveredAt"] != .null
        }
        let carla = try #require(try conversation(v, with: c.humanID).first { $0["id"] == .string(toCarla) })
        #expect(carla["readAt"] == .null && carla["deliveredAt"] == .null, "Mallory cannot mark Carla's reading")
        let mallory = try #require(try conversation(v, with: m.humanID).first { $0["id"] == .string(toMallory) })
        #expect(mallory["readAt"] == .null, "a receipt under one message's id naming another marks neither")
        guard v.node.serving("forged receipts") else { return }
    }

    @Test("a friend's marks dated in the future or before the message are not shown as given")
    func receiptTimes() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let sent = try send(v, to: m.humanID, "hello")
        let id = String(sent.prefix(32))
        let shown = try #require(try conversation(v, with: m.humanID).first { $0["id"] == .string(sent) })
        let sentAt = try #require(shown["sentAt"]?.stringValue)

        try m.push(Self.receipt(id, deliveredAt: "2999-01-01T00:00:00Z", readAt: "2999-01-01T00:00:00Z"))
        try await Task.sleep(for: .seconds(1.5))
        var mine = try #require(try conversation(v, with: m.humanID).first { $0["id"] == .string(sent) })
        #expect(mine["readAt"] != .string("2999-01-01T00:00:00Z"), "a read mark from the year 2999")
        #expect(mine["deliveredAt"] != .string("2999-01-01T00:00:00Z"))

        // Before the message was sent: not believed as given either.
        let early = Self.receiptUpdate(id, readAt: "2001-01-01T00:00:00Z", deliveredAt: "2001-01-01T00:00:00Z")
        try m.push(early)
        try await eventually("the early marks are stored", timeout: .seconds(10)) {
            let row = try conversation(v, with: m.humanID).first { $0["id"] == .string(sent) }
            return row?["readAt"] != mine["readAt"] || row?["deliveredAt"] != mine["deliveredAt"]
                || row?["readAt"] == .string("2001-01-01T00:00:00Z")
        }
        mine = try #require(try conversation(v, with: m.humanID).first { $0["id"] == .string(sent) })
        for field in ["readAt", "deliveredAt"] {
            let mark = mine[field]?.stringValue
            #expect((mark ?? sentAt) >= sentAt, "\(field) \(mark ?? "null") is before the message (\(sentAt))")
        }
        guard v.node.serving("receipt times") else { return }
    }

    /// Changes moving a receipt's marks.
    static func receiptUpdate(_ message: String, readAt: String, deliveredAt: String) -> [String] {
        let id = receiptID(message)
        return [
            Wire.set(id, kind: "receipt", field: "deliveredAt", value: Wire.string(deliveredAt)),
            Wire.set(id, kind: "receipt", field: "readAt", value: Wire.string(readAt)),
        ]
    }

    @Test("a friend's message dated ahead by its sentAt, or claiming another author, is not shown as such")
    func lyingMessages() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let c = try await v.befriend(try AdversarialPeer(), name: "Carla")
        let ops = v.node.opCount
        // A field the message kind does not have (an author of its own): refused at ingest.
        let id = HexCoding.encode(SecureRandom.bytes(16))
        try m.pushRefused(
            Self.message(
                id, text: "it's Carla here",
                extra: [Wire.set(id, kind: "message", field: "from", value: Wire.string(c.humanID))]))
        // Its op dated now, its sentAt in 2999.
        try m.push(Self.message(text: "from the future", sentAt: "2999-01-01T00:00:00.000Z"))
        try m.push(Self.message(text: "honest"))
        try await eventually("the honest message shows", timeout: .seconds(10)) {
            try conversation(v, with: m.humanID).contains { $0["text"] == .string("honest") }
        }
        let list = try conversation(v, with: m.humanID)
        #expect(!list.contains { $0["text"] == .string("it's Carla here") })
        #expect(list.allSatisfy { $0["from"] == .string(m.humanID) && $0["mine"] == .bool(false) })
        let limit = ISO8601DateFormatter().string(from: Date().addingTimeInterval(600))
        for message in list {
            let sentAt = message["sentAt"]?.stringValue ?? ""
            #expect(sentAt < limit, "\(message["text"] ?? .null) is shown as sent at \(sentAt)")
        }
        #expect(try conversation(v, with: c.humanID).isEmpty, "nothing shows in Carla's conversation")
        guard v.node.serving("lying messages") else { return }
        #expect(
            v.node.opCount == ops + 4,
            "the two well-formed messages and the victim's delivered mark of each are stored; the one with 'from' is not"
        )
    }
}

/// Issue 32's out notes and messages placed under someone else's outbox: Mallory writes into
/// a document whose id is Carla's outbox to the victim (`sync.md` §7.3: only its author
/// writes an outbox), hoping to show a note or a message as Carla's.
extension HostileSocialPeerTests {
    @Test("a note and a message under another friend's outbox id are refused; nothing shows as hers")
    func foreignOutbox() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let c = try await v.befriend(try AdversarialPeer(), name: "Carla")
        let ops = v.node.opCount
        let carlas = try OutboxDraft.id(author: c.peer.key, reader: v.key.bytes)
        var forged = try OutboxDraft(author: m.peer, reader: v.key.bytes, doc: carlas)
        try forged.append(Self.outNote(until: Self.iso(3_600), note: "Carla is at the bar"))
        try forged.append(Self.message(text: "it's Carla, send money"))
        // Offered as Carla's (owner Carla, granted by Mallory) and as Mallory's own.
        try? v.deliver(forged, from: m.session, offer: try forged.offer(to: v.key, owner: c.peer.key), seconds: 0.5)
        try? v.deliver(forged, from: m.session, seconds: 0.5)
        // And the ops pushed straight into the document id, as if it were held.
        try? m.session.send(ops: forged.ops, doc: carlas)
        // Mallory's own honest note, last: once it shows, the rest was handled.
        try m.push(Self.outNote(until: Self.iso(3_600), note: "Mallory is out"))
        try await eventually("Mallory's own note shows", timeout: .seconds(10)) {
            try outNotes(v) == ["Mallory is out"]
        }
        #expect(try conversation(v, with: c.humanID).isEmpty, "no message shows as Carla's")
        #expect(!(try conversation(v, with: m.humanID)).contains { $0["text"] == .string("it's Carla, send money") })
        guard v.node.serving("a foreign outbox") else { return }
        #expect(v.node.opCount == ops + 1, "only Mallory's own note was stored")
    }
}
