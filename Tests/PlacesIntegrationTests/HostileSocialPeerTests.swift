import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 16's friends and feed against the issue #11 adversary (`AdversarialPeer`, written
/// from `Protocol/`), on a real daemon over loopback with discovery off: a stranger on the
/// same café Wi-Fi, and a friend (made through `POST /v1/friends`) who turns hostile. The
/// contract is `Protocol/sync.md` §7.3 and `op-format.md` §5: an outbox is taken only from its
/// author, under the id of that author's outbox to the receiver, with the author's grant; only
/// the author writes it; a reaction counts only when its post is live in the journal, its
/// reactor was in the post's audience, `by` is the reactor and the signature holds. After
/// each attack the victim keeps serving an honest friend, and what its user sees (feed,
/// counts, comments, notifications, invitations) holds nothing planted.
@Suite("Hostile social peers (issue 16)", .serialized)
struct HostileSocialPeerTests {
    // MARK: 1. Strangers offering outboxes

    @Test("a stranger's outbox under another pair's id, with a wrong grant, or under another kind is ignored")
    func strangerOutboxOffers() async throws {
        let v = try SocialVictim()
        let x = try AdversarialPeer(), eve = try AdversarialPeer()
        let trip = try v.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#)
        let tripDoc = try DocumentID(hex: trip.id).orThrow("trip id")
        let session = try x.connectSocial(to: v.node.address, name: "Xavier")
        let ops = v.node.opCount

        // Eve's outbox id, offered by X naming Eve as owner, with X's grant.
        var evePair = try OutboxDraft(
            author: x, reader: v.key.bytes, doc: OutboxDraft.id(author: eve.key, reader: v.key.bytes))
        try evePair.append(evePair.rootChanges + Wire.post(text: "planted: eve's id"))
        try v.deliver(evePair, from: session, offer: try evePair.offer(to: v.key, owner: eve.key), answer: 0.2)
        // The same, naming X as owner (the id is not X's outbox to the victim).
        try v.deliver(evePair, from: session, answer: 0.2)
        // X's own pair, but the grant is signed by Eve, addressed to Eve, or tampered with.
        var own = try OutboxDraft(author: x, reader: v.key.bytes)
        try own.append(own.rootChanges + Wire.post(text: "planted: wrong grant"))
        try v.deliver(own, from: session, offer: try own.offer(to: v.key, grantor: eve), answer: 0.2)
        try v.deliver(own, from: session, offer: try own.offer(to: v.key, grantee: eve.identity.publicKey), answer: 0.2)
        var tampered = try own.offer(to: v.key)
        if case .offer(var o)? = tampered.kind {
            o.grants[0].signature[5] ^= 0x40
            tampered.offer = o
        }
        try v.deliver(own, from: session, offer: tampered, answer: 0.2)
        // Kind outbox for the victim's itinerary (held) and for a random id (not held).
        var asTrip = try OutboxDraft(author: x, reader: v.key.bytes, doc: tripDoc)
        try asTrip.append(asTrip.rootChanges)
        try v.deliver(asTrip, from: session, answer: 0.2)
        try v.deliver(asTrip, from: session, offer: try asTrip.offer(to: v.key, owner: v.key.bytes), answer: 0.2)
        var random = try OutboxDraft(
            author: x, reader: v.key.bytes, doc: DocumentID(bytes: SecureRandom.bytes(16)).orThrow("id"))
        try random.append(random.rootChanges + Wire.post(text: "planted: random id"))
        try v.deliver(random, from: session, seconds: 0.5, answer: 0.2)

        guard v.node.serving("strangers' outbox offers") else { return }
        #expect(v.node.opCount == ops, "the victim stored ops of a stranger's bogus outbox")
        #expect(v.friendInvitations().isEmpty, "a bogus outbox became a friend request: \(v.friendInvitations())")
        #expect((v.node.invitations() ?? []).isEmpty, "a bogus outbox became an invitation")
        #expect(try v.d.call(FriendList.self, "GET", "/v1/friends").friends.isEmpty)
        #expect(try v.feed().isEmpty)
        #expect(try v.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").name == "Porto")
        #expect(v.logged("ignored an outbox whose id is not its author's outbox"))

        // Control: X's honest request is one friend invitation, and nothing else is stored.
        try v.deliver(own, from: session, answer: 0.2)
        try await eventually("X's honest request is listed", timeout: .seconds(5)) {
            v.friendInvitations().map { $0["from"] as? String } == [x.humanID]
        }
        #expect(v.node.opCount == ops, "a friend request stored ops before it was accepted")
    }

    @Test("an itinerary planted under someone's outbox id is dropped when their outbox arrives: it cannot block them")
    func outboxIDSquattedAsItinerary() async throws {
        // Mallory is the victim's contact (they share a trip); Eve will ask to be a friend.
        let v = try SocialVictim()
        let mallory = try AdversarialPeer(), eve = try AdversarialPeer()
        try v.node.accept(mallory.humanID)
        let session = try mallory.connectSocial(to: v.node.address)
        let eveOutbox = try OutboxDraft.id(author: eve.key, reader: v.key.bytes)
        // Mallory offers an itinerary whose id is Eve's outbox to the victim (owner: Mallory),
        // and one under her own outbox id.
        for doc in [eveOutbox, try OutboxDraft.id(author: mallory.key, reader: v.key.bytes)] {
            var squat = try OutboxDraft(author: mallory, reader: v.key.bytes, doc: doc)
            try squat.append([
                Wire.create(doc.hex, kind: "itinerary"),
                Wire.set(doc.hex, kind: "itinerary", field: "name", value: Wire.string("Squat")),
            ])
            try v.deliver(squat, from: session, offer: try squat.offer(to: v.key, kind: ""), seconds: 0.3, answer: 0.3)
        }
        guard v.node.serving("an itinerary under an outbox id") else { return }
        #expect(try v.d.send("GET", "/v1/itineraries/\(eveOutbox.hex)").status == 404)
        #expect(!(v.node.invitations() ?? []).contains { $0["name"] as? String == "Squat" })

        // Eve's genuine friend request still arrives.
        let eveSession = try eve.connectSocial(to: v.node.address, name: "Eve")
        var outbox = try OutboxDraft(author: eve, reader: v.key.bytes)
        try outbox.append(outbox.rootChanges)
        try v.deliver(outbox, from: eveSession, answer: 0.2)
        try? await eventually("Eve's request is listed", timeout: .seconds(2)) {
            v.friendInvitations().contains { $0["from"] as? String == eve.humanID }
        }
        #expect(
            v.friendInvitations().contains { $0["from"] as? String == eve.humanID },
            "Eve's friend request was lost: Mallory squatted her outbox id as an itinerary")
        // The planted itinerary is gone: the id is Eve's outbox's, provably (fixed by the pair).
        #expect(v.d.log.contains("dropped an itinerary planted under someone's outbox or card id"))
        #expect(try v.d.send("GET", "/v1/itineraries/\(eveOutbox.hex)").status == 404)
    }

    // MARK: 3. A friend's bad posts

    @Test(
        "a friend's post with 11 photos, over-long text, a bad photo or a bad audience is refused; the next one shows")
    func friendsBadPosts() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let ops = v.node.opCount
        func photo(_ i: Int, bytes: String = "1000", type: String = "image/jpeg", extra: String = "") -> String {
            let id = String(repeating: String(format: "%02x", i), count: 32)
            return #"{"id":"\#(id)","contentType":"\#(type)","bytes":\#(bytes),"width":10,"height":10\#(extra)}"#
        }
        let eleven = "[" + (1...11).map { photo($0) }.joined(separator: ",") + "]"
        let bad: [(String, [String])] = [
            ("11 photos", Wire.post(text: "planted: eleven", photos: eleven)),
            ("2,001 chars", Wire.post(text: "planted: long " + String(repeating: "a", count: 1_990))),
            ("0 bytes", Wire.post(text: "planted: zero", photos: "[\(photo(1, bytes: "0"))]")),
            ("a gif", Wire.post(text: "planted: gif", photos: "[\(photo(1, type: "image/gif"))]")),
            (
                "an extra field",
                Wire.post(text: "planted: extra", photos: #"[\#(photo(1, extra: #","gps":"38.7,-9.1""#))]"#)
            ),
            ("a photo twice", Wire.post(text: "planted: twice", photos: "[\(photo(1)),\(photo(1))]")),
            ("30 MB", Wire.post(text: "planted: huge", photos: "[\(photo(1, bytes: "31457280"))]")),
            ("audience everyone", Wire.post(text: "planted: everyone", audience: "everyone")),
        ]
        for (_, changes) in bad { try m.pushRefused(changes) }
        try m.push(Wire.post(text: "Honest post after the bad ones"))
        try await eventually("the honest post shows", timeout: .seconds(10)) {
            try v.feed().map(\.text) == ["Honest post after the bad ones"]
        }
        guard v.node.serving("a friend's bad posts") else { return }
        #expect(v.node.opCount == ops + 1, "ops stored: \(v.node.opCount - ops), expected only the honest post")
        for post in try v.feed() {
            #expect(!post.text.hasPrefix("planted"), "the feed shows '\(post.text.prefix(40))'")
        }
        let rejections = v.d.log.components(separatedBy: "rejected an op from a peer").count - 1
        #expect(rejections >= bad.count, "only \(rejections) rejections logged for \(bad.count) bad posts")
    }
}
