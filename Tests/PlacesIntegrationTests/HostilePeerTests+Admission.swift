import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// An editor lets link holders in (`sync.md` §8.1, admissions), and nothing more: it cannot use
/// an admission to change the role of someone the owner made a member, whatever deps and Lamport
/// time it chooses.
extension HostilePeerTests {
    /// Mallory's admission of `member` through a viewer link Mallory issued, built on `mirror`.
    static func admission(
        of member: PublicKey, by mallory: AdversarialPeer, in mirror: DocumentMirror
    ) throws -> SignedOp {
        let key = try #require(mirror.keys[mirror.newestEpoch])
        let token = try CapabilityToken.issue(
            doc: mirror.doc, role: .viewer, by: mallory.identity, notBeforeMs: nowMs() - 60_000,
            epoch: mirror.newestEpoch, documentKey: key)
        return try mallory.nextOp(
            in: mirror,
            body: Wire.body([
                Wire.create(member.hex, kind: "member"),
                Wire.set(member.hex, kind: "member", field: "role", value: #""viewer""#),
                Wire.set(member.hex, kind: "member", field: "token", value: Wire.string(token.base64url)),
            ]))
    }

    @Test("an editor cannot demote a member the owner made an editor, by an admission after or beside the owner's")
    func editorAdmissionCannotDemote() async throws {
        var shared = try SharedWithAdversary(role: "editor")
        let owner = shared.owner, mallory = shared.mallory
        let before = shared.mirror
        let bruno = try SigningKeyPair().publicKey, carla = try SigningKeyPair().publicKey
        try owner.share(shared.itinerary.id, with: bruno.humanID, role: "editor")
        try owner.share(shared.itinerary.id, with: carla.humanID, role: "editor")
        func role(_ key: PublicKey) throws -> String? {
            try owner.members(shared.itinerary.id).first { $0.id == key.humanID }?.role
        }
        #expect(try role(bruno) == "editor" && role(carla) == "editor")
        let held = shared.mirror.ops.count
        try await eventually("Mallory has the owner's shares") {
            try shared.absorb()
            return shared.mirror.ops.count >= held + 2
        }

        // 1. After the owner's role write: refused, Bruno stays an editor.
        let demoted = try shared.attempt { try Self.admission(of: bruno, by: mallory, in: $0) }
        #expect(!demoted, "an editor's admission of an editor was stored")
        #expect(try role(bruno) == "editor")

        // 2. Beside it: deps that leave the owner's write of Carla out, and a chain of edits that
        // raises the Lamport time above it. The edits are an editor's to make; the admission
        // changes nothing the owner decided.
        var side = before
        var chain = [SignedOp]()
        for i in 0..<24 {
            let op = try mallory.nextOp(
                in: side,
                body: Wire.body([
                    Wire.set(shared.doc.hex, kind: "itinerary", field: "notes", value: Wire.string("pump \(i)"))
                ]))
            side.add(op)
            chain.append(op)
        }
        let beside = try Self.admission(of: carla, by: mallory, in: side)
        #expect(beside.header.lamport > (shared.mirror.ops.map(\.header.lamport).max() ?? 0))
        try shared.session.send(ops: chain + [beside])
        try shared.absorb(for: 1)
        guard owner.serving("an editor's admissions of editors") else { return }
        #expect(try role(carla) == "editor", "an admission beside the owner's role write demoted Carla")
        #expect(owner.d.log.contains("is a member already"), "the refusal is not logged")
    }
}
