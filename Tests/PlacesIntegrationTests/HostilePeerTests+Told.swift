import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Relaying by telling ids (`OpsHave`, `OpsWant`, sync.md §7 "Live propagation and
/// relaying") attacked from the same network: wants out of bounds, wants after a removal,
/// and a flood of told ids.
extension HostilePeerTests {
    static func told(have: Bool, doc: DocumentID, ids: [[UInt8]]) -> WireMessage {
        var message = WireMessage()
        if have {
            var told = Places_Sync_V1_OpsHave()
            told.doc = Data(doc.bytes)
            told.ids = ids.map { Data($0) }
            message.opsHave = told
        } else {
            var want = Places_Sync_V1_OpsWant()
            want.doc = Data(doc.bytes)
            want.ids = ids.map { Data($0) }
            message.opsWant = want
        }
        return message
    }

    /// The ops of `doc` among `messages`.
    static func opsOf(_ doc: DocumentID, in messages: [WireMessage]) -> [Data] {
        messages.flatMap { message -> [Data] in
            if case .ops(let batch)? = message.kind, batch.doc == Data(doc.bytes) { batch.ops } else { [] }
        }
    }

    @Test("a member's wants are answered only within bounds, a removed member's never; told ids cost little")
    func toldIDsAndWants() async throws {
        let shared = try SharedWithAdversary(role: "editor")
        let owner = shared.owner, session = shared.session, doc = shared.doc, it = shared.itinerary.id
        let held = shared.mirror.ops.map(DocumentMirror.id)
        try #require(!held.isEmpty)

        // A member that offered the document gets what it wants, and nothing of another id.
        let unknown = [UInt8](repeating: 0x5A, count: 32)
        try session.send(Self.told(have: false, doc: doc, ids: [unknown] + held))
        #expect(Self.opsOf(doc, in: try session.settle()).count == held.count)

        // Out of bounds: ignored, the session stays up and the daemon serves.
        try session.send(Self.told(have: false, doc: doc, ids: [Array(held[0].dropLast())]))
        try session.send(Self.told(have: false, doc: doc, ids: []))
        try session.send(Self.told(have: false, doc: doc, ids: Array(repeating: held[0], count: 4_097)))
        #expect(Self.opsOf(doc, in: try session.settle()).isEmpty)

        // A flood of made-up ids it says it holds: each is asked for once, at most 4,096 at a
        // time, and nothing is stored.
        let count = owner.opCount
        for round in 0..<20 {
            let ids = (0..<4_096).map { i in Blake2b.hash256(Array("made up \(round) \(i)".utf8)) }
            try session.send(Self.told(have: true, doc: doc, ids: ids))
        }
        let answers = try session.settle()
        let wanted = answers.compactMap { message -> Int? in
            if case .opsWant(let want)? = message.kind { want.ids.count } else { nil }
        }
        #expect(wanted.count == 20 && wanted.allSatisfy { $0 == 4_096 })
        #expect(owner.opCount == count)
        #expect(owner.serving("20 OpsHave of 4,096 made-up ids"))

        // Removed, it is told nothing more and gets nothing it wants.
        _ = try owner.d.call(MemberList.self, "DELETE", "/v1/itineraries/\(it)/members/\(shared.mallory.humanID)")
        _ = try owner.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it)", json: #"{"notes":"after Mallory"}"#)
        _ = try session.settle()
        try session.send(Self.told(have: false, doc: doc, ids: held))
        let afterRemoval = try session.settle()
        #expect(Self.opsOf(doc, in: afterRemoval).isEmpty)
        #expect(owner.serving("wants after a removal"))
    }
}
