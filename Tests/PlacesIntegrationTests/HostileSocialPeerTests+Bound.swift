import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// The friends bound (`sync.md` §7.3: 1,000 friends and requests per person) holds on every
/// way in (issue 28): a request sent, a request accepted, and a friend link redeemed.
extension HostileSocialPeerTests {
    @Test("998 requests, then a friend link taken by five peers: never more than 1,000 friends and requests")
    func friendsBoundOnEveryPath() async throws {
        let v = try SocialVictim()
        let started = ContinuousClock.now
        for _ in 0..<998 {
            let r = try v.d.send("POST", "/v1/friends", json: #"{"id":"\#(try AdversarialPeer().humanID)"}"#)
            guard r.status == 201 else { throw HarnessError("friend request: \(r.status) \(r.text)") }
        }
        print("friends bound: 998 requests sent in \(ContinuousClock.now - started)")
        let link = try v.d.call(FriendLinkResponse.self, "POST", "/v1/friends/link", json: #"{"validHours":1}"#)
        let token = try FriendLink(parsing: link.link).token
        // Five peers redeem the link as `sync.md` §8.2 and §7.3 say: each offers its outbox to
        // the victim with the link's token as the join proof.
        var redeemers = [PeerSession]()
        for i in 0..<5 {
            let peer = try AdversarialPeer()
            let session = try peer.connectSocial(to: v.node.address, name: "Redeemer \(i)")
            redeemers.append(session)
            var outbox = try OutboxDraft(author: peer, reader: v.key.bytes)
            try outbox.append(outbox.rootChanges)
            var offer = try outbox.offer(to: v.key)
            if case .offer(var o)? = offer.kind {
                o.joinProof = Data(token)
                offer.offer = o
            }
            try v.deliver(outbox, from: session, offer: offer, seconds: 0.2)
        }
        defer { for session in redeemers { session.close() } }
        try await eventually("the victim answered every redeemer", timeout: .seconds(15)) {
            v.d.log.components(separatedBy: "a friend link was redeemed").count - 1
                + v.d.log.components(separatedBy: "refused a friendship").count - 1 >= 5
        }
        guard v.node.serving("a friend link past the friends bound") else { return }
        let friends = try v.d.call(FriendList.self, "GET", "/v1/friends").friends
        #expect(friends.count == 1_000, "\(friends.count) friends and requests (sync.md §7.3: at most 1,000)")
        #expect(friends.filter { $0.state == "friend" }.count == 2)
        #expect(v.logged("refused a friendship: this person has the most friends and requests there can be"))
        // The API refuses the next request, and says why.
        let next = try v.d.send("POST", "/v1/friends", json: #"{"id":"\#(try AdversarialPeer().humanID)"}"#)
        #expect(next.status == 400 && next.text.contains("1000 friends and requests"), "\(next.status) \(next.text)")
        // Nothing of a refused redeemer stays: no friend, no invitation, no notification.
        #expect(v.friendInvitations().isEmpty)
        #expect(try v.notifications().filter { $0.type == "friend-accepted" }.count == 2)
    }
}
