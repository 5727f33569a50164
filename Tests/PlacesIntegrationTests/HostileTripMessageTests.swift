import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// A trip's conversation against the issue #11 adversary (`Protocol/sync.md` §8.1, "Trip
/// messages"): Mallory is a viewer of Ana's trip and signs ops by hand. A message under
/// Ana's name, any other entity, a deletion of Ana's message and a text over 4,000
/// characters are refused with their reasons and stored nowhere; a flood past 50 a minute,
/// a message dated ahead and one whose `sentAt` lies are stored but never shown; Ana's
/// daemon keeps serving throughout.
@Suite("Hostile trip-conversation peers (issue 32)", .serialized)
struct HostileTripMessageTests {
    /// The changes writing a trip message with `id`, `author` and `nonce` (hex), text and sentAt.
    static func message(
        _ id: String, author: String, nonce: String, text: String, sentAt: String
    ) -> [String] {
        [
            Wire.create(id, kind: "message"),
            Wire.set(id, kind: "message", field: "text", value: Wire.string(text)),
            Wire.set(id, kind: "message", field: "sentAt", value: Wire.string(sentAt)),
            Wire.set(id, kind: "message", field: "author", value: Wire.string(author)),
            Wire.set(id, kind: "message", field: "nonce", value: Wire.string(nonce)),
        ]
    }

    /// A message of Mallory's own, well formed, dated `ms` (the op's time too unless `sentAtMs`).
    static func own(_ mallory: AdversarialPeer, _ text: String, ms: Int64, sentAtMs: Int64? = nil) -> [UInt8] {
        let nonce = SecureRandom.bytes(16)
        let id = Store.tripMessageID(author: mallory.key, nonce: nonce) ?? ""
        let sentAt = rfc3339(ms: sentAtMs ?? ms)
        return Wire.body(
            timeMs: "\(ms)",
            message(
                id, author: HexCoding.encode(mallory.key), nonce: HexCoding.encode(nonce), text: text, sentAt: sentAt))
    }

    /// The object `value` is, empty for anything else.
    static func object(_ value: JSONValue?) -> [String: JSONValue] {
        if case .object(let o)? = value { return o }
        return [:]
    }

    /// The texts of the trip's conversation as `node` shows it, with their authors.
    static func shown(_ node: SyncNode, _ trip: String) throws -> [(from: String, text: String)] {
        let page = try node.d.call(
            JSONValue.self, "GET", "/v1/conversations/trip:\(trip)/messages?limit=200&peek=true")
        guard case .array(let messages)? = object(page)["messages"] else { return [] }
        var out = [(from: String, text: String)]()
        for m in messages {
            let o = object(m)
            guard case .string(let from)? = o["from"] else { continue }
            if case .string(let text)? = o["text"] { out.append((from, text)) } else { out.append((from, "(deleted)")) }
        }
        return out
    }

    @Test("a viewer's forged, foreign, oversized and flooding messages: refused or dropped, precisely")
    func hostileViewer() async throws {
        var s = try SharedWithAdversary(role: "viewer")
        let ana = s.owner, it = s.itinerary.id, mallory = s.mallory
        let anaKey = try HumanID.decode(ana.id)
        let sent = try ana.d.call(
            JSONValue.self, "POST", "/v1/messages", json: #"{"to":"trip:\#(it)","text":"meet at 8"}"#)
        guard case .string(let sentID)? = Self.object(sent)["id"] else { throw HarnessError("no id: \(sent)") }
        let anaMessage = String(sentID.dropLast(32))
        try s.absorb()
        let nonce = HexCoding.encode(SecureRandom.bytes(16))
        let now = nowMs()
        let at = rfc3339(ms: now)

        let attacks: [(what: String, reason: String, body: [UInt8])] = [
            (
                "a message signed under Ana's name", "written only by its author",
                Wire.body(
                    Self.message(
                        Store.tripMessageID(author: anaKey.bytes, nonce: HexCoding.decode(nonce) ?? []) ?? "",
                        author: anaKey.hex, nonce: nonce, text: "the trip is cancelled", sentAt: at))
            ),
            (
                "Ana's message deleted for everyone", "written only by its author",
                Wire.body([
                    Wire.set(anaMessage, kind: "message", field: "author", value: Wire.string(anaKey.hex)),
                    Wire.set(anaMessage, kind: "message", field: "text", value: "null"),
                    #"{"op":"set","entity":"\#(anaMessage)","kind":"message","field":"deleted","value":true}"#,
                ])
            ),
            (
                "a stop (a viewer writes no other entity)", "viewers cannot edit",
                Wire.body([
                    Wire.create(HexCoding.encode(SecureRandom.bytes(16)), kind: "stop")
                ])
            ),
            (
                "a message of 4,001 characters", "'text' is 4001 characters",
                Self.own(mallory, String(repeating: "x", count: 4_001), ms: now)
            ),
        ]
        for attack in attacks {
            let stored = try s.attempt { try mallory.nextOp(in: $0, body: attack.body) }
            guard ana.serving("an op with \(attack.what)") else { return }
            #expect(!stored, "\(attack.what) was stored")
        }
        let refusals = ana.d.log.split(separator: "\n").filter { $0.contains("rejected an op from a peer") }
        for attack in attacks {
            #expect(
                refusals.contains { $0.contains(attack.reason) },
                "no refusal saying “\(attack.reason)” for \(attack.what):\n\(refusals.joined(separator: "\n"))")
        }
        #expect(try Self.shown(ana, it).map(\.text) == ["meet at 8"], "nothing of the attacks shows")

        // Mallory's own message goes through: shown with Mallory as its author, and notified.
        #expect(try s.attempt { try mallory.nextOp(in: $0, body: Self.own(mallory, "hello from Mallory", ms: now)) })
        #expect(try Self.shown(ana, it).last.map { "\($0.from) \($0.text)" } == "\(mallory.humanID) hello from Mallory")
        let notes = try ana.d.call(NotificationList.self, "GET", "/v1/notifications").notifications
        #expect(notes.contains { $0.type == "message" && $0.subject == "trip:\(it)" && $0.actor == mallory.humanID })

        // A flood: 60 more in one minute, in one batch. All are stored (later ops may depend
        // on them); only 50 of Mallory's in that minute show.
        var flood = [SignedOp]()
        for i in 0..<60 {
            let op = try mallory.nextOp(in: s.mirror, body: Self.own(mallory, "flood \(i)", ms: now + Int64(i)))
            s.mirror.add(op)
            flood.append(op)
        }
        let before = ana.opCount
        try s.session.send(ops: flood, doc: s.doc)
        try await eventually("the flood is stored") { ana.opCount == before + 60 }
        guard ana.serving("a flood of trip messages") else { return }
        let fromMallory = try Self.shown(ana, it).filter { $0.from == mallory.humanID }
        #expect(fromMallory.count == 50, "\(fromMallory.count) of Mallory's messages shown")
        #expect(fromMallory.map(\.text).contains("flood 0") && !fromMallory.map(\.text).contains("flood 59"))
        #expect(ana.d.log.contains("more than 50 a minute from one member"))

        // Dated 10 minutes ahead, and a sentAt that is not the op's time: stored, not shown.
        for (text, body) in [
            ("from the future", Self.own(mallory, "from the future", ms: now + 600_000)),
            ("a lying date", Self.own(mallory, "a lying date", ms: now + 120_000, sentAtMs: now - 86_400_000)),
        ] {
            #expect(try s.attempt { try mallory.nextOp(in: $0, body: body) }, "\(text) is stored")
            #expect(try !Self.shown(ana, it).map(\.text).contains(text), "\(text) is shown")
        }
        #expect(ana.d.log.contains("dropped a trip message dated in the future"))
        #expect(ana.d.log.contains("sentAt is not its op's time"))

        // Ana still writes and reads her trip.
        let again = try ana.d.send("POST", "/v1/messages", json: #"{"to":"trip:\#(it)","text":"still here"}"#)
        #expect(again.status == 201, "\(again.text)")
        #expect(try Self.shown(ana, it).last?.text == "still here")
        #expect(try ana.d.send("GET", "/v1/itineraries/\(it)").status == 200)
    }
}

extension HostileTripMessageTests {
    @Test("an editor declaring another kind on a member's message (to hide, tombstone or rewrite it) is refused")
    func editorKindConflict() async throws {
        var s = try SharedWithAdversary(role: "editor")
        let ana = s.owner, it = s.itinerary.id, mallory = s.mallory
        let sent = try ana.d.call(
            JSONValue.self, "POST", "/v1/messages", json: #"{"to":"trip:\#(it)","text":"meet at 8"}"#)
        guard case .string(let sentID)? = Self.object(sent)["id"] else { throw HarnessError("no id: \(sent)") }
        let message = String(sentID.dropLast(32))
        try s.absorb()
        let attacks: [(what: String, body: [UInt8])] = [
            (
                "a checklist item on its id, with text",
                Wire.body([
                    Wire.create(message, kind: "checklistItem"),
                    Wire.set(message, kind: "checklistItem", field: "text", value: Wire.string("hijacked")),
                ])
            ),
            (
                "a food item's tombstone on its id",
                Wire.body([
                    #"{"op":"set","entity":"\#(message)","kind":"food","field":"deleted","value":true}"#
                ])
            ),
            ("an activity created on its id", Wire.body([Wire.create(message, kind: "activity")])),
            ("a stop created on its id", Wire.body([Wire.create(message, kind: "stop")])),
        ]
        for attack in attacks {
            let stored = try s.attempt { try mallory.nextOp(in: $0, body: attack.body) }
            guard ana.serving("an op with \(attack.what)") else { return }
            #expect(!stored, "\(attack.what) was stored")
        }
        let refusals = ana.d.log.split(separator: "\n").filter { $0.contains("rejected an op from a peer") }
        #expect(
            refusals.count { $0.contains("must be 32 lowercase hex characters") } >= attacks.count,
            "\(refusals.joined(separator: "\n"))")
        #expect(try Self.shown(ana, it).map(\.text) == ["meet at 8"], "Ana's message shows as she wrote it")
        // The editor's rights are otherwise whole: a stop of its own is stored.
        let stop = Wire.body([Wire.create(HexCoding.encode(SecureRandom.bytes(16)), kind: "stop")])
        #expect(try s.attempt { try mallory.nextOp(in: $0, body: stop) }, "an editor's own stop")
        #expect(try Self.shown(ana, it).map(\.text) == ["meet at 8"])
    }
}

/// `ms` as the daemon writes a time: RFC 3339, UTC, with exactly its milliseconds.
func rfc3339(ms: Int64) -> String {
    let seconds = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(ms / 1000)))
    return seconds.dropLast() + String(format: ".%03dZ", Int(ms % 1000))
}
