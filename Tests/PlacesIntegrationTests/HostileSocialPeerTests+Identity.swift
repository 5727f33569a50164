import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 28: a friend — not a stranger — reuses another author's post id (a decoy), which
/// the protocol lets any friend do. A post is its author's (`sync.md` §7.3 "A post is its
/// author's"): its author and id name it in the feed, routes, counts and reactions.
extension HostileSocialPeerTests {
    @Test("a friend's decoy posts under the victim's and another friend's post ids take nothing of theirs")
    func decoyPostIDs() async throws {
        let v = try SocialVictim()
        // X sorts before F, so a lookup by id alone in key order would find X's copy first.
        let pair = try [AdversarialPeer(), AdversarialPeer()].sorted { $0.humanID < $1.humanID }
        let x = try await v.befriend(pair[0], name: "Xavier")
        let f = try await v.befriend(pair[1], name: "Fatima")
        let mine = try v.post("Vera's own post")
        let pv = SignedReaction.entityID(mine.id)
        let pf = HexCoding.encode(SecureRandom.bytes(16))
        try f.push(Wire.post(pf, text: "Fatima's post"))
        try await eventually("Fatima's post shows", timeout: .seconds(10)) {
            try v.feed().contains { $0.text == "Fatima's post" }
        }

        // One op of X's own outbox: a decoy under each id, three likes from fresh keys and a
        // comment on each, all validly signed for X's outbox, in the form every version takes.
        var changes = [String]()
        for id in [pv, pf] {
            changes += Wire.post(id, text: "decoy")
            for _ in 0..<3 {
                changes +=
                    SignedReaction.make("like", on: id, by: try AdversarialPeer(), postAuthor: x.peer.key, named: false)
                    .changes
            }
            changes +=
                SignedReaction.make(
                    "comment", on: id, by: x.peer, postAuthor: x.peer.key, text: "decoy comment", named: false
                ).changes
        }
        try x.push(changes)
        try await eventually("the decoys are stored", timeout: .seconds(10)) {
            try v.feed().filter { $0.text == "decoy" }.count == 2
        }
        guard v.node.serving("decoy posts") else { return }

        // The feed: each post with its own author's counts only.
        let feed = try v.feed()
        let own = try #require(feed.first { $0.text == "Vera's own post" })
        let fatimas = try #require(feed.first { $0.text == "Fatima's post" })
        #expect(own.likes == 0 && own.comments == 0, "Vera's post shows \(own.likes) likes, \(own.comments) comments")
        #expect(
            fatimas.likes == 0 && fatimas.comments == 0,
            "Fatima's post shows \(fatimas.likes) likes, \(fatimas.comments) comments")
        #expect(fatimas.author == f.humanID)
        for decoy in feed where decoy.text == "decoy" {
            #expect(decoy.author == x.humanID && decoy.likes == 3 && decoy.comments == 1)
        }
        #expect(Set(feed.map(\.id)).count == feed.count, "two posts share a route id: \(feed.map(\.id))")

        // The post, its comments, and V's reactions go to Fatima's post, not to X's decoy.
        let shown = try v.postView(fatimas.id)
        #expect(shown.author == f.humanID && shown.text == "Fatima's post", "GET shows \(shown.author): \(shown.text)")
        let listed = try v.comments(fatimas.id).map(\.text)
        #expect(listed.isEmpty, "Fatima's post lists \(listed)")
        #expect(try v.postView(own.id).author == v.node.id)
        #expect(try v.d.send("PUT", "/v1/posts/\(fatimas.id)/like").status == 200)
        let comment = #"{"text":"Lovely, Fatima!"}"#
        #expect(try v.d.send("POST", "/v1/posts/\(fatimas.id)/comments", json: comment).status == 201)
        #expect(try v.postView(fatimas.id).likes == 1)
        // A bare id two authors' posts share names neither.
        #expect(try v.d.send("GET", "/v1/posts/\(pf)").status == 409)

        try f.reconnect(to: v.node)
        let toF = try f.session.fetchOutbox(try OutboxDraft.id(author: v.key.bytes, reader: f.peer.key))
        #expect(
            toF.ops.contains { (toF.body(of: $0) ?? "").contains("Lovely, Fatima!") },
            "Fatima did not receive Vera's comment on her post")
        try x.reconnect(to: v.node)
        let toX = try x.session.fetchOutbox(try OutboxDraft.id(author: v.key.bytes, reader: x.peer.key))
        for op in toX.ops {
            let body = toX.body(of: op) ?? ""
            #expect(!body.contains("Lovely, Fatima!") && !body.contains("\"like\""), "X received Vera's reaction")
        }

        // Removed, X's decoys are gone from what Vera sees, and cannot be reached by id.
        let decoy = try #require(feed.first { $0.text == "decoy" && $0.id.hasPrefix(pf) })
        #expect(try v.d.send("DELETE", "/v1/friends/\(x.humanID)").status == 204)
        #expect(try v.feed().filter { $0.text == "decoy" }.isEmpty)
        #expect(try v.d.send("GET", "/v1/posts/\(decoy.id)").status == 404)
        #expect(try v.d.send("PUT", "/v1/posts/\(decoy.id)/like").status == 404)
        #expect(try v.postView(pf).author == f.humanID, "the bare id is Fatima's again once X is gone")
    }
}
