import Foundation
import PlacesCrypto
import PlacesModel

/// The wire half of redeeming share links (`Protocol/sync.md` §8.2): a `JoinRequest` to the
/// host's decision and back as an offer or a `JoinRefused`; a refusal to the host.
extension Replicator {
    /// A holder's answer to a JoinRequest: nothing, a JoinRefused, or an offer of the
    /// document whose grants are the host's (every epoch key held, sealed to `peer`).
    func handleJoinRequest(_ request: Places_Sync_V1_JoinRequest, from peer: PublicKey) async -> [SyncMessage] {
        guard let host,
            let answer = await host.answerJoin(
                JoinPresentation(token: [UInt8](request.token), nonce: [UInt8](request.nonce)), from: peer)
        else { return [] }
        switch answer {
        case .refused(let refusal):
            var refused = Places_Sync_V1_JoinRefused()
            refused.doc = Data(refusal.doc.bytes)
            refused.tokenID = Data(refusal.tokenID)
            refused.code = refusal.code
            refused.reason = refusal.reason
            refused.proof = Data(refusal.proof)
            var message = SyncMessage()
            message.joinRefused = refused
            return [message]
        case .admitted(let doc, let grants, let role, let proof):
            guard var offer = await makeOffer(for: doc, to: peer, reply: false) else { return [] }
            offer.offer.grants = grants.map(Replicator.wire)
            offer.offer.role = role
            offer.offer.joinProof = Data(proof)
            return [offer]
        }
    }

    /// A refusal of this daemon's join: the host checks that it comes from a peer asked and
    /// proves it holds the document.
    func handleJoinRefused(_ refused: Places_Sync_V1_JoinRefused, from peer: PublicKey) async {
        guard let doc = DocumentID(bytes: [UInt8](refused.doc)) else {
            logger.notice(
                "ignored a join refusal without a valid proof", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return
        }
        await host?.joinRefused(
            JoinRefusal(
                doc: doc, tokenID: [UInt8](refused.tokenID), code: refused.code,
                reason: String(refused.reason.prefix(500)), proof: [UInt8](refused.proof)),
            from: peer)
    }
}
