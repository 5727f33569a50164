import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 27's bad input: a daemon that accepted an invitation holds the owner's grant and no
/// ops yet, and takes the itinerary from the members the owner's grants name (sync.md §7).
/// Mallory, connected to it, tries to be that member without being one, and, as a real
/// member, to plant what the owner never wrote.
extension HostilePeerTests {
    @Test("an accepting daemon takes ops only from members the owner's grants name, and only what they may write")
    func acceptingDaemonRefusesForgedMembers() async throws {
        var shared = try SharedWithAdversary(role: "editor")
        let owner = shared.owner, mallory = shared.mallory
        let grantsFromOwner = shared.session.received.flatMap { message -> [Places_Sync_V1_KeyGrant] in
            if case .offer(let offer)? = message.kind { offer.grants } else { [] }
        }
        let grantToMallory = try #require(
            grantsFromOwner.first { [UInt8]($0.member) == mallory.key }, "the owner's offer carries no grant to Mallory"
        )
        let ursula = try SyncNode("Ursula")
        try ursula.addPeer(owner)
        try owner.addPeer(ursula)
        try owner.share(shared.itinerary.id, with: ursula.id, role: "editor")
        try await eventually("Ursula sees the invitation") { ursula.invitations()?.count == 1 }
        // Mallory, a member, holds the owner's op that made Ursula one.
        let held = shared.mirror.ops.count
        try await eventually("Mallory has the share with Ursula") {
            try shared.absorb()
            return shared.mirror.ops.count > held
        }
        // The owner goes away; Ursula accepts with no member connected.
        owner.stop()
        let accepted = try ursula.d.cli(["invitations", "accept", String(shared.itinerary.id.prefix(8))])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let baseline = ursula.opCount
        let session = try mallory.connect(to: ursula.address)
        let fresh = try SigningKeyPair()
        let key = try #require(shared.mirror.keys[0])

        // 1. A grant Mallory signed, naming itself and a fresh key members: kept by nobody,
        // answered with nothing, and the ops that follow are ignored.
        let forgedToMallory = try mallory.grant(key, doc: shared.doc, to: mallory.identity.publicKey)
        let forgedToFresh = try mallory.grant(key, doc: shared.doc, to: fresh.publicKey)
        try session.send(Wire.offer(doc: shared.doc, owner: owner.idKey, grants: [forgedToMallory, forgedToFresh]))
        try session.send(ops: shared.mirror.ops)
        let answers = try session.drain(for: 0.8)
        #expect(
            !answers.contains { if case .offer? = $0.kind { true } else { false } },
            "Ursula answered an offer whose only grants Mallory signed")
        #expect(ursula.opCount == baseline, "Ursula stored ops from a peer no owner's grant names")

        // 2. Mallory's real grant (the owner signed it) makes Mallory a member Ursula takes
        // ops from, before any role event arrived.
        try session.send(Wire.offer(doc: shared.doc, owner: owner.idKey, grants: [grantToMallory]))
        let reply = try session.wait(timeout: 5) {
            if case .offer(let o)? = $0.kind { return o.doc == Data(shared.doc.bytes) } else { return false }
        }
        #expect(reply != nil, "Ursula does not answer a member the owner's grant names")

        // 3. As that member, Mallory answers with ops of another document, and with an op of a
        // fresh key that is no member: both refused.
        let otherDoc = try #require(DocumentID(bytes: SecureRandom.bytes(16)))
        let foreign = try mallory.op(
            doc: otherDoc, seq: 1, lamport: 1, deps: [], key: key,
            body: Wire.body([Wire.create(otherDoc.hex, kind: "itinerary")]))
        try session.send(ops: [foreign], doc: shared.doc)
        let planted = try mallory.op(
            doc: shared.doc, seq: 1, lamport: 1, deps: [], key: key,
            body: Wire.body([Wire.set(shared.doc.hex, kind: "itinerary", field: "name", value: Wire.string("Mine"))]),
            signer: fresh)
        try session.send(ops: [planted])
        _ = try session.settle()
        #expect(ursula.opCount == baseline)

        // 4. What the owner wrote, relayed by Mallory, is taken; nothing else.
        try session.send(ops: shared.mirror.ops)
        do {
            try await eventually("Ursula holds the owner's itinerary through Mallory", timeout: .seconds(5)) {
                try ursula.itinerary(shared.itinerary.id).name == "Lisbon"
            }
        } catch {
            try? ursula.d.log.write(toFile: "/tmp/hostile-consent-ursula.log", atomically: true, encoding: .utf8)
            throw error
        }
        // Every op of the owner's, plus Ursula's own view record.
        #expect(ursula.opCount >= baseline + shared.mirror.ops.count)
        let members = try ursula.members(shared.itinerary.id).map(\.id)
        #expect(!members.contains(fresh.publicKey.humanID))
        guard ursula.serving("forged members and foreign ops") else { return }
        for reason in [
            "ignored ops from a peer that is not a member", "the op names another document than its batch",
            "the author is not a member",
        ] {
            #expect(ursula.d.log.contains(reason), "Ursula's log does not say: \(reason)")
        }
        // The owner comes back: both show one itinerary, with nothing Mallory planted.
        try owner.start()
        try await eventually("Ursula and the owner show the same itinerary") {
            let mine = try ursula.itineraryJSON(shared.itinerary.id)
            let theirs = try owner.itineraryJSON(shared.itinerary.id)
            return mine != nil && mine == theirs
        }
    }
}

extension SyncNode {
    /// This daemon's identity key bytes.
    var idKey: [UInt8] { (try? HumanID.decode(id).bytes) ?? [] }
}
