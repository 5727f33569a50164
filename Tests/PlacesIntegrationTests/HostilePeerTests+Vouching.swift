import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 27's vouching by grant (sync.md §7, "Members vouched for by grant") attacked from
/// the same network: a removed member tries to count as a participant again at a daemon that
/// holds the owner's grants and no role events yet.
extension HostilePeerTests {
    @Test("a member removed before an invitation cannot use its old grant to get in at the invitee")
    func removedMemberNotVouchedAtLaterInvitee() async throws {
        var shared = try SharedWithAdversary(role: "editor")
        let owner = shared.owner, mallory = shared.mallory, it = shared.itinerary.id
        let grantsFromOwner = shared.session.received.flatMap { message -> [Places_Sync_V1_KeyGrant] in
            if case .offer(let offer)? = message.kind { offer.grants } else { [] }
        }
        let grantToMallory = try #require(
            grantsFromOwner.first { [UInt8]($0.member) == mallory.key }, "the owner's offer carries no grant to Mallory"
        )
        // The owner removes Mallory (the key rotates to a new epoch), then invites Ursula, who
        // is sent grants of both epochs.
        _ = try owner.d.call(MemberList.self, "DELETE", "/v1/itineraries/\(it)/members/\(mallory.humanID)")
        shared.session.close()
        let ursula = try SyncNode("Ursula")
        try ursula.addPeer(owner)
        try owner.addPeer(ursula)
        try owner.share(it, with: ursula.id, role: "editor")
        try await eventually("Ursula sees the invitation") { ursula.invitations()?.count == 1 }
        owner.stop()
        let accepted = try ursula.d.cli(["invitations", "accept", String(it.prefix(8))])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let baseline = ursula.opCount

        // Mallory, on the same network, offers the itinerary with its old owner-signed grant
        // and hands over what it held, plus a rename it signed before it saw its removal.
        let session = try mallory.connect(to: ursula.address)
        try session.send(Wire.offer(doc: shared.doc, owner: owner.idKey, grants: [grantToMallory]))
        let rename = try mallory.nextOp(
            in: shared.mirror,
            body: Wire.body([Wire.set(it, kind: "itinerary", field: "name", value: Wire.string("Hijacked"))]))
        try session.send(ops: shared.mirror.ops + [rename])
        let answers = try session.drain(for: 1.5)
        #expect(
            !answers.contains { if case .offer? = $0.kind { true } else { false } },
            "Ursula answered a removed member's offer (it learns her name, the trip's name and its members)")
        #expect(
            !answers.contains { if case .ops? = $0.kind { true } else { false } }, "Ursula sent a removed member ops")
        #expect(ursula.opCount == baseline, "Ursula stored ops from a removed member")
        #expect((try? ursula.itinerary(it).name) != "Hijacked", "Ursula shows a removed member's rename")
        guard ursula.serving("a removed member's old grant") else { return }

        // The owner comes back: Ursula gets the itinerary and the older epoch's key from them.
        try owner.start()
        try await eventually("Ursula and the owner show the same itinerary") {
            let mine = try ursula.itineraryJSON(it)
            let theirs = try owner.itineraryJSON(it)
            return mine != nil && mine == theirs
        }
        #expect(try ursula.itinerary(it).name == "Lisbon")
    }
    @Test("a member who left cannot use its grant to get back in at a later invitee")
    func leftMemberNotVouchedAtLaterInvitee() async throws {
        var shared = try SharedWithAdversary(role: "editor")
        let owner = shared.owner, mallory = shared.mallory, it = shared.itinerary.id
        let grantsFromOwner = shared.session.received.flatMap { message -> [Places_Sync_V1_KeyGrant] in
            if case .offer(let offer)? = message.kind { offer.grants } else { [] }
        }
        let grantToMallory = try #require(
            grantsFromOwner.first { [UInt8]($0.member) == mallory.key }, "the owner's offer carries no grant to Mallory"
        )
        let before = shared.mirror
        // Mallory leaves (its own `left` role event, stored by the owner).
        let left = try shared.attempt { mirror in
            try mallory.nextOp(
                in: mirror,
                body: Wire.body([
                    Wire.set(HexCoding.encode(mallory.key), kind: "member", field: "role", value: Wire.string("left"))
                ]))
        }
        #expect(left, "the owner did not store Mallory's leave")
        #expect(!(try owner.members(it)).contains { $0.id == mallory.humanID })
        shared.session.close()
        // Later the owner invites Ursula, who accepts with no member connected.
        let ursula = try SyncNode("Ursula")
        try ursula.addPeer(owner)
        try owner.addPeer(ursula)
        try owner.share(it, with: ursula.id, role: "editor")
        try await eventually("Ursula sees the invitation") { ursula.invitations()?.count == 1 }
        owner.stop()
        let accepted = try ursula.d.cli(["invitations", "accept", String(it.prefix(8))])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let baseline = ursula.opCount

        // Mallory offers the itinerary with its grant and what it held before it left.
        let session = try mallory.connect(to: ursula.address)
        try session.send(Wire.offer(doc: shared.doc, owner: owner.idKey, grants: [grantToMallory]))
        let rename = try mallory.nextOp(
            in: before,
            body: Wire.body([Wire.set(it, kind: "itinerary", field: "name", value: Wire.string("Hijacked"))]))
        try session.send(ops: before.ops + [rename])
        let answers = try session.drain(for: 1.5)
        #expect(
            !answers.contains { if case .offer? = $0.kind { true } else { false } },
            "Ursula answered the offer of a member who left (it learns her name, the trip's name and its members)")
        #expect(ursula.opCount == baseline, "Ursula stored ops from a member who left")
        guard ursula.serving("a grant of a member who left") else { return }

        try owner.start()
        try await eventually("Ursula and the owner show the same itinerary") {
            let mine = try ursula.itineraryJSON(it)
            let theirs = try owner.itineraryJSON(it)
            return mine != nil && mine == theirs
        }
        #expect(try ursula.itinerary(it).name == "Lisbon")
        #expect(!(try ursula.members(it)).contains { $0.id == mallory.humanID })
    }
    @Test("the owner of an accepted trip cannot make a daemon keep grants without bound")
    func grantFloodIsBounded() async throws {
        let victim = try SyncNode("Vera")
        let mallory = try AdversarialPeer()
        let session = try mallory.connect(to: victim.address)
        let doc = try #require(DocumentID(bytes: SecureRandom.bytes(16)))
        let key = try SecretBox.randomKey()
        let victimKey = try HumanID.decode(victim.id)
        try session.send(
            Wire.offer(doc: doc, owner: mallory.key, grants: [try mallory.grant(key, doc: doc, to: victimKey)]))
        try await eventually("Vera sees the invitation") { victim.invitations()?.count == 1 }
        let accepted = try victim.d.cli(["invitations", "accept", String(doc.hex.prefix(8))])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        // Mallory, the owner, signs grants of the highest epoch to fresh keys, 64 an offer: each
        // offer made every later one slower to answer (all grants are read per offer), and
        // every key they name counted as a participant.
        let bound = 4_096
        for _ in 0..<(bound / 64 + 8) {
            var grants = [Places_Sync_V1_KeyGrant]()
            for _ in 0..<64 {
                grants.append(try mallory.grant(key, doc: doc, epoch: .max, to: try SigningKeyPair().publicKey))
            }
            try session.send(Wire.offer(doc: doc, owner: mallory.key, grants: grants))
            _ = try session.wait(timeout: 30) {
                if case .offer(let o)? = $0.kind { return o.doc == Data(doc.bytes) } else { return false }
            }
        }
        guard victim.serving("a flood of grants") else { return }
        let probe = try DatabaseProbe(path: victim.dir.path + "/places.sqlite")
        let kept = try probe.rows(
            "SELECT count(*) FROM key_grant WHERE hex(doc) = ?", arguments: [doc.hex.uppercased()])
        #expect((Int(kept.first?.first ?? "") ?? .max) <= bound + 1, "Vera keeps \(kept) grants of one trip")
    }
}
