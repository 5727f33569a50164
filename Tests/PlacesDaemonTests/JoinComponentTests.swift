import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesDaemon

/// The joiner's side of a share link across a dropped session: a token presented on a session
/// that closed before the answer came is presented again at the peer's next session (else the
/// join waits out its whole time on a peer that never saw the request; seen once on CI).
@Suite("Join component")
struct JoinComponentTests {
    @Test("a peer whose last session closed is asked again by a join still waiting, and not by one that ended")
    func askedAgainAfterDisconnect() throws {
        let owner = try SigningKeyPair(), holder = try SigningKeyPair(), other = try SigningKeyPair()
        let open = try #require(DocumentID(bytes: [UInt8](repeating: 1, count: 16)))
        let ended = try #require(DocumentID(bytes: [UInt8](repeating: 2, count: 16)))
        var joins = JoinComponent()
        for doc in [open, ended] {
            let token = try CapabilityToken.issue(
                doc: doc, role: .editor, by: owner, notBeforeMs: 0, epoch: 0,
                documentKey: [UInt8](repeating: 7, count: 32))
            var join = PendingJoin(token: token)
            join.asked = [holder.publicKey, other.publicKey]
            joins.keep(join, for: doc)
        }
        var done = try #require(joins.join(ended))
        _ = done.state.finish(.failed(Problem(ServiceError.internal("test", ""))))
        joins.keep(done, for: ended)
        #expect(joins.involves(holder.publicKey))

        joins.peerDisconnected(holder.publicKey)
        #expect(joins.join(open)?.asked == [other.publicKey])
        #expect(joins.join(ended)?.asked.contains(holder.publicKey) == true)
        #expect(!joins.involves(holder.publicKey))
        #expect(joins.involves(other.publicKey))
    }
}
