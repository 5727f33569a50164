import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 32: a friend lies in an "I'm out" note — another id to pile notes up, a position out
/// of range, a note that starts tomorrow or lasts a week. Refused at ingest, or stored and
/// never shown; the honest note shows and ends at its `until`.
extension HostileSocialPeerTests {
    static let outID = "986be11c139ff0596d6bc32dceb40393"

    static func outNote(
        _ id: String = outID, latitude: String = "38.71", since: String = SignedReaction.now(), until: String,
        note: String = "here"
    ) -> [String] {
        [
            Wire.create(id, kind: "out"), Wire.set(id, kind: "out", field: "latitude", value: latitude),
            Wire.set(id, kind: "out", field: "longitude", value: "-9.14"),
            Wire.set(id, kind: "out", field: "note", value: Wire.string(note)),
            Wire.set(id, kind: "out", field: "since", value: Wire.string(since)),
            Wire.set(id, kind: "out", field: "until", value: Wire.string(until)),
        ]
    }

    static func iso(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date().addingTimeInterval(seconds))
    }

    func outNotes(_ v: SocialVictim) throws -> [String] {
        guard case .object(let answer) = try v.d.call(JSONValue.self, "GET", "/v1/out"),
            case .array(let friends)? = answer["friends"]
        else { return [] }
        return friends.compactMap { friend in
            guard case .object(let o) = friend, case .string(let note)? = o["note"] else { return nil }
            return note
        }
    }

    @Test("a friend's out notes under another id or out of range are refused; future or week-long ones never show")
    func lyingOutNotes() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let ops = v.node.opCount
        try m.pushRefused(Self.outNote(HexCoding.encode(SecureRandom.bytes(16)), until: Self.iso(3_600)))
        try m.pushRefused(Self.outNote(latitude: "95", until: Self.iso(3_600)))
        try m.pushRefused(Self.outNote(until: "2027-02-30T10:00:00Z"))
        try m.pushRefused(Self.outNote(until: Self.iso(3_600), note: String(repeating: "x", count: 281)))
        // Well-formed lies: stored (a reader cannot check two registers against each other at
        // ingest), never shown.
        try m.push(Self.outNote(since: Self.iso(3_600), until: Self.iso(7_200), note: "from tomorrow"))
        // Waited for until stored (the refused ops before it on the session were handled
        // first), rather than for a fixed second that a slow run may not have used up.
        try await eventually("the note from tomorrow is stored", timeout: .seconds(10)) { v.node.opCount == ops + 1 }
        #expect(try outNotes(v).isEmpty, "a note that has not begun is not shown")
        try m.push(Self.outNote(since: Self.iso(-60), until: Self.iso(7 * 86_400), note: "all week"))
        try await eventually("the week-long note is stored", timeout: .seconds(10)) { v.node.opCount == ops + 2 }
        #expect(try outNotes(v).isEmpty, "a note longer than 24 hours is not shown")
        try m.push(Self.outNote(until: Self.iso(4), note: "honest"))
        try await eventually("the honest note shows", timeout: .seconds(10)) { try outNotes(v) == ["honest"] }
        guard v.node.serving("lying out notes") else { return }
        #expect(v.node.opCount == ops + 3, "stored: \(v.node.opCount - ops), expected the three well-formed notes")
        try await Task.sleep(for: .seconds(4.5))
        #expect(try outNotes(v).isEmpty, "it ended at its until, with nothing sent")
    }
}
