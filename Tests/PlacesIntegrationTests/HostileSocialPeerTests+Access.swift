import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Who may write, send and read outboxes (`sync.md` §7.3 "Who writes, who sends", "Ending",
/// and audience secrecy).
extension HostileSocialPeerTests {
    @Test("ops pushed into an outbox by anyone but its author, or relayed by a third party, are dropped")
    func nonAuthorOps() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        // Mallory holds the victim's outbox to her (key and ops): she writes into it.
        try m.reconnect(to: v.node)
        let theirs = try m.session.fetchOutbox(try OutboxDraft.id(author: v.key.bytes, reader: m.peer.key))
        let ops = v.node.opCount
        let intoVictims = try m.peer.nextOp(in: theirs, body: Wire.body(Wire.post(text: "planted: into your outbox")))
        try m.session.send(ops: [intoVictims])
        // Eve's genuine next op (a post), relayed by Mallory: outboxes are never relayed.
        let eveOp = try t.eve.outbox.append(Wire.post(text: "Eve's own post"))
        try m.session.send(ops: [eveOp], doc: t.eve.outbox.doc)
        // An op of Mallory's own, in Eve's outbox's batch and document.
        let malloryInEves = try t.eve.outbox.draft(Wire.post(text: "planted: in Eve's outbox"), signer: m.peer)
        try m.session.send(ops: [malloryInEves], doc: t.eve.outbox.doc)
        try t.eve.session.send(ops: [malloryInEves], doc: t.eve.outbox.doc)
        // A stranger pushing into Mallory's outbox to the victim.
        let x = try AdversarialPeer()
        let xs = try x.connectSocial(to: v.node.address, name: "Xavier")
        try xs.send(ops: [try m.outbox.draft(Wire.post(text: "planted: by a stranger"), signer: x)], doc: m.outbox.doc)
        _ = try xs.settle()
        _ = try m.session.settle()
        guard v.node.serving("ops by non-authors") else { return }
        #expect(
            v.node.opCount == ops, "the victim stored \(v.node.opCount - ops) ops written or relayed by a non-author")
        let texts = try v.feed().map(\.text)
        #expect(texts.filter { $0.hasPrefix("planted") }.isEmpty, "\(texts)")
        #expect(!texts.contains("Eve's own post"), "Mallory relayed Eve's outbox")

        // Eve's own delivery of the same op shows.
        try t.eve.session.send(ops: [eveOp], doc: t.eve.outbox.doc)
        try await eventually("Eve's post shows", timeout: .seconds(10)) {
            try v.feed().map(\.text).contains("Eve's own post")
        }
    }

    @Test("a former friend's reactions and posts are dropped, in the same session and after reconnecting")
    func formerFriendReactions() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let post = try v.post("Posted while we were friends")
        #expect(try v.d.send("DELETE", "/v1/friends/\(m.humanID)").status == 204)
        #expect(try v.friendState(m.humanID) == nil)

        // Same session: her like, a comment and a new post.
        try m.push(t.likes(post.id, by: m).changes)
        try m.push(t.comment(post.id, by: m, "still here").changes)
        try m.push(Wire.post(text: "planted: after the end"))
        try t.eve.push(t.likes(post.id, by: t.eve).changes)
        try await eventually("Eve's like counts", timeout: .seconds(10)) { try v.postView(post.id).likes >= 1 }
        try await Task.sleep(for: .milliseconds(300))
        guard v.node.serving("a former friend's reactions") else { return }
        var seen = try v.postView(post.id)
        #expect(seen.likes == 1 && seen.comments == 0, "same session: \(seen.likes) likes, \(seen.comments) comments")
        let notes = try t.count("like", by: m) + t.count("comment", by: m)
        #expect(notes == 0, "the former friend's reactions made \(notes) notifications")
        let texts = try v.feed().map(\.text)
        #expect(!texts.contains("planted: after the end"), "the former friend's new post shows: \(texts)")

        // A new session.
        let before = seen
        try m.reconnect(to: v.node)
        try v.deliver(m.outbox, from: m.session, answer: 0.3)
        try m.push(t.comment(post.id, by: m, "and again").changes)
        try t.eve.push(t.comment(post.id, by: t.eve, "Eve's comment").changes)
        try await eventually("Eve's comment counts", timeout: .seconds(10)) {
            try v.comments(post.id).map(\.text).contains("Eve's comment")
        }
        try await Task.sleep(for: .milliseconds(300))
        seen = try v.postView(post.id)
        #expect(
            seen.comments == before.comments + 1,
            "new session: \(seen.comments - before.comments - 1) of the former friend's comments counted")
        #expect(!(try v.comments(post.id).map(\.text)).contains("and again"))
        #expect(v.friendInvitations().isEmpty, "the former friend's outbox became a friend request")
    }

    @Test("a friend outside a group post's audience gets nothing of it, whatever it offers or asks")
    func audienceSecrecy() async throws {
        let t = try await TwoFriends()
        let v = t.v, m = t.m
        let group = try v.group("close friends", members: [t.eve.humanID])
        let secretText = "Zyxqor secret: the key is under the mat"
        let secret = try v.post(secretText, audience: group.id)
        let evesOutbox = try OutboxDraft.id(author: v.key.bytes, reader: t.eve.peer.key)
        let journal = try OutboxDraft.id(author: v.key.bytes, reader: v.key.bytes)

        try m.reconnect(to: v.node)
        var mine = try m.session.fetchOutbox(try OutboxDraft.id(author: v.key.bytes, reader: m.peer.key))
        // Ask for Eve's outbox and the journal under every kind and owner, with empty vectors.
        var asked = [WireMessage]()
        for doc in [evesOutbox, journal] {
            for kind in ["outbox", "", "itinerary", "card"] {
                for owner in [v.key.bytes, m.peer.key] {
                    var offer = Wire.offer(doc: doc, owner: owner, kind: kind)
                    try m.session.send(offer)
                    if case .offer(var o)? = offer.kind {
                        o.reply = true
                        offer.offer = o
                    }
                    try m.session.send(offer)
                }
            }
            // Ops of Mallory's own in that document's batch (a push that would make her a holder).
            try m.session.send(ops: [try m.outbox.draft(Wire.post(text: "planted"))], doc: doc)
        }
        asked += try m.session.drain(for: 1.5)
        for message in asked { m.session.absorb(message, into: &mine) }
        guard v.node.serving("requests for another reader's outbox") else { return }
        for doc in [evesOutbox, journal] {
            let about = PeerSession.about(doc, in: m.session.received)
            #expect(about.isEmpty, "the victim sent Mallory \(about.count) messages about \(doc.hex)")
        }
        // Her own outbox from the victim holds nothing of the group post.
        for op in mine.ops {
            let body = mine.body(of: op) ?? ""
            #expect(
                !body.contains(SignedReaction.entityID(secret.id)) && !body.contains("Zyxqor"),
                "Mallory's outbox holds the group post")
        }
        let plain = m.session.receivedPlaintext
        #expect(Data(plain).range(of: Data(secretText.utf8)) == nil, "the secret crossed Mallory's wire in clear")

        // Control: Eve, in the audience, receives it.
        try t.eve.reconnect(to: v.node)
        let evesCopy = try t.eve.session.fetchOutbox(evesOutbox)
        #expect(evesCopy.ops.contains { (evesCopy.body(of: $0) ?? "").contains("Zyxqor secret") })
    }
}
