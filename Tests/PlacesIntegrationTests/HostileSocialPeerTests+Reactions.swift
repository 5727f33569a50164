import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Likes and comments from a hostile friend (`sync.md` §7.3 "Reactions" and "Counting").
extension HostileSocialPeerTests {
    /// The victim with two adversarial friends: Mallory (hostile) and Eve (honest control).
    struct TwoFriends {
        let v: SocialVictim
        let m: SocialFriend
        let eve: SocialFriend

        init() async throws {
            v = try SocialVictim()
            m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
            eve = try await v.befriend(try AdversarialPeer(), name: "Eve")
        }

        var author: [UInt8] { v.key.bytes }

        func likes(_ post: String, by friend: SocialFriend) -> SignedReaction {
            SignedReaction.make("like", on: post, by: friend.peer, postAuthor: author)
        }

        func comment(_ post: String, by friend: SocialFriend, _ text: String) -> SignedReaction {
            SignedReaction.make("comment", on: post, by: friend.peer, postAuthor: author, text: text)
        }

        func count(_ type: String, by friend: SocialFriend) throws -> Int {
            try v.notifications().filter { $0.type == type && $0.actor == friend.humanID }.count
        }
    }

    @Test("forged, misattributed, wrong-id, out-of-audience and deleted-post reactions are not counted")
    func forgedReactions() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let post = try v.post("Best pastel de nata in town")
        let group = try v.group("close friends", members: [t.eve.humanID])
        let secret = try v.post("Close friends only", audience: group.id)
        let gone = try v.post("Deleted soon")
        #expect(try v.d.send("DELETE", "/v1/posts/\(gone.id)").status == 204)

        // 1. A like with a forged signature.
        var forged = t.likes(post.id, by: m)
        forged.signature = HexCoding.encode(SecureRandom.bytes(64))
        // 2. Eve's genuinely signed like and comment, carried in Mallory's outbox (`by` is Eve).
        let eveLike = t.likes(post.id, by: t.eve)
        let eveComment = t.comment(post.id, by: t.eve, "Eve never wrote this here")
        // 3. Mallory's validly signed like under an id that is not the fixed like id.
        let wrongID = SignedReaction.make(
            "like", on: post.id, by: m.peer, postAuthor: t.author, id: HexCoding.encode(SecureRandom.bytes(16)))
        // 4. A validly signed comment on a group post Mallory is not in the audience of.
        let outside = t.comment(secret.id, by: m, "I should not see this post")
        // 5. A like and a comment on a deleted post.
        let onGone = [t.likes(gone.id, by: m), t.comment(gone.id, by: m, "on a deleted post")]
        // 6. A comment without text, and one signed over other text than it carries.
        let empty = SignedReaction.make("comment", on: post.id, by: m.peer, postAuthor: t.author)
        var edited = t.comment(post.id, by: m, "nice")
        edited.text = "send money to Mallory"
        for reaction in [forged, eveLike, eveComment, wrongID, outside, empty, edited] + onGone {
            try m.push(reaction.changes)
        }
        // The honest control: Eve likes the post from her own outbox.
        try t.eve.push(t.likes(post.id, by: t.eve).changes)
        try await eventually("Eve's own like is counted", timeout: .seconds(10)) {
            try v.postView(post.id).likes == 1
        }
        try await Task.sleep(for: .milliseconds(300))
        guard v.node.serving("forged reactions") else { return }
        let seen = try v.postView(post.id)
        #expect(seen.likes == 1, "likes: \(seen.likes) (only Eve's own like is genuine)")
        let shown = try v.comments(post.id).map(\.text)
        #expect(seen.comments == 0, "comments: \(shown)")
        #expect(try v.postView(secret.id).comments == 0, "a comment from outside the audience is counted")
        #expect(try v.comments(secret.id).isEmpty)
        #expect(try v.d.send("GET", "/v1/posts/\(gone.id)").status == 404)
        let malloryNotes = try t.count("like", by: m) + t.count("comment", by: m)
        #expect(malloryNotes == 0, "Mallory's forgeries made \(malloryNotes) notifications")
        let eveLikes = try t.count("like", by: t.eve), eveComments = try t.count("comment", by: t.eve)
        #expect(eveLikes == 1 && eveComments == 0, "Eve: \(eveLikes) like and \(eveComments) comment notifications")
        #expect(v.logged("dropped a reaction"), "no logged reason for the dropped reactions")

        // Mallory's honest like still counts (she is not banned for trying).
        try m.push(t.likes(post.id, by: m).changes)
        try await eventually("Mallory's honest like is counted", timeout: .seconds(10)) {
            try v.postView(post.id).likes == 2
        }
    }

    @Test("a reaction signed by a device counts only with a certificate by its reactor for that very device")
    func deviceSignedReactions() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let post = try v.post("Sunset at the miradouro")
        let device = try SigningKeyPair(), other = try SigningKeyPair()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let mallorysDevice = try DeviceCertificate.issue(
            device: device.publicKey, admin: false, issuedMs: now, by: m.peer.identity)
        let evesDevice = try DeviceCertificate.issue(
            device: device.publicKey, admin: false, issuedMs: now, by: t.eve.peer.identity)
        /// A comment by Mallory (`by`), signed by `signer`, carrying `cert`.
        func comment(_ text: String, signer: SigningKeyPair, cert: String?) -> SignedReaction {
            var r = t.comment(post.id, by: m, text)
            let message = SignedReaction.message(
                postAuthor: t.author, post: r.post, id: r.id, type: r.type, text: text, at: r.at)
            r.signature = HexCoding.encode(signer.sign(message).bytes)
            r.cert = cert
            return r
        }
        // 1. Eve's certificate for the device, carried as if it were Mallory's.
        // 2. Mallory's certificate, but the signature is another key's.
        // 3. A certificate that is not one.
        for r in [
            comment("certified by someone else", signer: device, cert: evesDevice.base64url),
            comment("signed by another key", signer: other, cert: mallorysDevice.base64url),
            comment(
                "a broken certificate", signer: device, cert: String(mallorysDevice.base64url.dropLast(4)) + "AAAA"),
        ] {
            try m.push(r.changes)
        }
        // The honest control: Mallory's own device, certified by her, signs.
        try m.push(comment("from Mallory's phone", signer: device, cert: mallorysDevice.base64url).changes)
        try await eventually("the comment Mallory's device signed is counted", timeout: .seconds(10)) {
            try v.comments(post.id).map(\.text) == ["from Mallory's phone"]
        }
        try await Task.sleep(for: .milliseconds(300))
        guard v.node.serving("device-signed reactions") else { return }
        #expect(try v.comments(post.id).map(\.text) == ["from Mallory's phone"])
        #expect(try v.comments(post.id).first?.author == m.humanID)
        #expect(v.logged("dropped a reaction whose signature or author does not hold"))
    }

    @Test("a friend cannot take over, delete or overwrite other people's reactions by reusing their ids")
    func reactionIDHijack() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let post = try v.post("Sunset at Miradouro da Graça")
        let other = try v.post("Second post")
        // The victim likes and comments on her own post; Eve likes and comments honestly.
        _ = try v.d.call(Post.self, "PUT", "/v1/posts/\(post.id)/like")
        let mine = try v.d.call(
            PostComment.self, "POST", "/v1/posts/\(post.id)/comments", json: #"{"text":"mine"}"#)
        let eveComment = t.comment(post.id, by: t.eve, "Eve's")
        try t.eve.push(t.likes(post.id, by: t.eve).changes + eveComment.changes)
        try await eventually("2 likes and 2 comments", timeout: .seconds(10)) {
            let p = try v.postView(post.id)
            return p.likes == 2 && p.comments == 2
        }
        let before = try v.comments(post.id).map { "\($0.author):\($0.text)" }.sorted()

        // Mallory (in the audience) reuses the ids, all with her own valid signatures:
        // her comment under the victim's comment id, a tombstone of Eve's like, and a
        // tombstone of Eve's comment.
        let hijack = SignedReaction.make(
            "comment", on: post.id, by: m.peer, postAuthor: t.author, text: "hijacked", id: mine.id)
        try m.push(hijack.changes)
        try m.push([
            Wire.tombstone(
                SignedReaction.likeID(post: post.id, by: t.eve.peer.key, postAuthor: t.author), kind: "reaction")
        ])
        try m.push([Wire.tombstone(eveComment.id, kind: "reaction")])
        // A sync point: Mallory's honest like on the other post.
        try m.push(t.likes(other.id, by: m).changes)
        try await eventually("Mallory's like on the other post is counted", timeout: .seconds(10)) {
            try v.postView(other.id).likes == 1
        }
        try await Task.sleep(for: .milliseconds(300))
        guard v.node.serving("reaction id reuse") else { return }
        let after = try v.postView(post.id)
        #expect(
            after.likes == 2 && after.liked,
            "likes \(after.likes), liked \(after.liked): Eve's like was deleted by Mallory")
        #expect(after.comments == 2, "comments: \(after.comments)")
        let now = try v.comments(post.id).map { "\($0.author):\($0.text)" }.sorted()
        #expect(now == before, "comments were \(before), now \(now)")
        #expect(!now.contains { $0.hasSuffix(":hijacked") }, "Mallory's comment took over the victim's comment id")
    }

    @Test("a reaction replayed onto another post, or moved to it, is not counted there")
    func replayedReaction() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let p1 = try v.post("First")
        let p2 = try v.post("Second")
        let like = t.likes(p1.id, by: m)
        let comment = t.comment(p1.id, by: m, "nice")
        try m.push(like.changes + comment.changes)
        try await eventually("Mallory's like and comment on the first post count", timeout: .seconds(10)) {
            let p = try v.postView(p1.id)
            return p.likes == 1 && p.comments == 1
        }
        // The like's signature under P2's like id; the comment's signature on a new comment of
        // P2; and the comment itself moved to P2 (its `post` rewritten).
        var replayedLike = like
        replayedLike.post = SignedReaction.entityID(p2.id)
        replayedLike.id = SignedReaction.likeID(post: p2.id, by: m.peer.key, postAuthor: t.author)
        var replayedComment = comment
        replayedComment.post = SignedReaction.entityID(p2.id)
        replayedComment.id = HexCoding.encode(SecureRandom.bytes(16))
        try m.push(replayedLike.changes + replayedComment.changes)
        try m.push([
            Wire.set(comment.id, kind: "reaction", field: "post", value: Wire.string(SignedReaction.entityID(p2.id)))
        ])
        try t.eve.push(t.likes(p2.id, by: t.eve).changes)
        try await eventually("Eve's like on the second post counts", timeout: .seconds(10)) {
            try v.postView(p2.id).likes >= 1
        }
        try await Task.sleep(for: .milliseconds(300))
        guard v.node.serving("replayed reactions") else { return }
        let second = try v.postView(p2.id), first = try v.postView(p1.id)
        #expect(
            second.likes == 1 && second.comments == 0, "second post: \(second.likes) likes, \(second.comments) comments"
        )
        #expect(first.likes == 1 && first.comments == 1, "first post: \(first.likes) likes, \(first.comments) comments")
        #expect(try t.count("like", by: m) == 1, "a replayed like notified")
    }

    @Test("a flood of bogus likes and many comments from one friend: counts hold and an honest friend is served")
    func reactionFlood() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let post = try v.post("Flood me")
        // 4,000 likes under random ids (validly signed: the id is what is wrong), 1,000 likes
        // with forged signatures, in ops of 250 reactions.
        var reactions = [SignedReaction]()
        for i in 0..<5_000 {
            if i < 4_000 {
                reactions.append(
                    SignedReaction.make(
                        "like", on: post.id, by: m.peer, postAuthor: t.author,
                        id: HexCoding.encode(SecureRandom.bytes(16))))
            } else {
                var r = SignedReaction.make(
                    "like", on: post.id, by: m.peer, postAuthor: t.author, id: HexCoding.encode(SecureRandom.bytes(16)))
                r.signature = HexCoding.encode(SecureRandom.bytes(64))
                reactions.append(r)
            }
        }
        let started = ContinuousClock.now
        for chunk in stride(from: 0, to: reactions.count, by: 250) {
            try m.push(reactions[chunk..<min(chunk + 250, reactions.count)].flatMap(\.changes))
        }
        // The victim answers its user during the flood.
        let probe = ContinuousClock.now
        #expect(try v.d.send("GET", "/v1/feed").status == 200)
        #expect(
            ContinuousClock.now - probe < .seconds(2),
            "GET /v1/feed took \(ContinuousClock.now - probe) during the flood")
        try t.eve.push(t.likes(post.id, by: t.eve).changes)
        try await eventually("Eve's like is counted after the flood", timeout: .seconds(20)) {
            try v.postView(post.id).likes == 1
        }
        print("reaction flood: 5,000 bogus likes handled in \(ContinuousClock.now - started)")
        guard v.node.serving("a reaction flood") else { return }
        #expect(try v.postView(post.id).likes == 1)
        #expect(try t.count("like", by: m) == 0, "bogus likes notified")
    }
}
