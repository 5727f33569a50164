import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess
@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 30, story 3 with real daemons: a friend's feed — a post, its photo, reactions — and a
/// trip's expense travel through a blind relay between friends who are never online together
/// (`Protocol/relay.md` §8); the relay holds none of it readable, and gives or takes a photo's
/// copy only from keys on its document's access list.
@Suite("Relay: a friend's feed and photos through a blind relay (Protocol/relay.md §8)", .serialized)
struct RelayFeedTests {
    /// Ana and Bruno, friends (met directly once), sharing a trip Bruno edits, both using `relay`.
    static func friendsOnRelay(_ tag: String, _ relay: RelayNode) async throws -> (SyncNode, SyncNode, String) {
        let ana = try SyncNode("Ana\(tag)"), bruno = try SyncNode("Bruno\(tag)")
        try ana.addPeer(bruno)
        _ = try ana.d.call(Friend.self, "POST", "/v1/friends", json: #"{"id":"\#(bruno.id)"}"#)
        try await eventually("Bruno has Ana's friend request") {
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.contains { $0.kind == "friend" }
        }
        let invitation = try #require(
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.first { $0.kind == "friend" })
        _ = try bruno.d.call(Invitation.self, "POST", "/v1/invitations/\(invitation.id)/accept")
        try await eventually("the friendship holds on both sides") {
            try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.map(\.state) == ["friend"]
                && bruno.d.call(FriendList.self, "GET", "/v1/friends").friends.map(\.state) == ["friend"]
        }
        let it = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Sintra-\#(tag)"}"#)
        let shared = try ana.d.send(
            "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(bruno.id)","role":"editor"}"#)
        #expect(shared.status == 200, "\(shared.text)")
        try await eventually("Bruno holds the trip") {
            (try? bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").name) == "Sintra-\(tag)"
        }
        try RelayDocumentTests.add(ana, relay)
        try RelayDocumentTests.add(bruno, relay)
        // The trip and the two outboxes (cards too, when they have an audience).
        try await eventually("the relay keeps the trip and both outboxes", timeout: .seconds(20)) {
            try relay.summary.documents >= 3
        }
        return (ana, bruno, it.id)
    }

    /// The relay name of `photo` under `doc`, computed here from relay.md §8.
    static func relayName(photo: String, doc: DocumentID) throws -> [UInt8] {
        let id = try #require(HexCoding.decode(photo))
        return Blake2b.hash256(Array("places/relay-blob-name/1".utf8) + [0] + doc.bytes + id)
    }

    static func opCount(_ relay: RelayNode) throws -> Int {
        try relay.d.call(Status.self, "GET", "/v1/status").opCount ?? 0
    }

    /// Files under `dir` (and its log) holding `bytes`.
    static func files(holding bytes: Data, in dir: String) -> [String] {
        var files = [dir + ".stderr"]
        if let walker = FileManager.default.enumerator(atPath: dir) {
            for case let path as String in walker { files.append(dir + "/" + path) }
        }
        return files.filter { FileManager.default.contents(atPath: $0)?.range(of: bytes) != nil }
    }

    @Test("a post with a photo, an expense and a friend's like and comment cross the relay; it holds none readable")
    func neverOnlineTogether() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let (ana, bruno, trip) = try await Self.friendsOnRelay(tag, relay)

        // Bruno goes away. Ana posts a photo and adds an expense, and goes away once the relay
        // holds them.
        bruno.stop()
        let original = PhotoSyncTests.jpeg(bytes: 700_000, seed: 11)
        let photo = try PhotoSyncTests.addPhoto(ana, original)
        let held = try #require(try PhotoSyncTests.photoBytes(ana, photo.id))
        let postText = "post-\(tag)-Cabo da Roca at dusk"
        let opsBefore = try Self.opCount(relay)
        let bytesBefore = try relay.summary.bytes
        let post = try ana.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"\#(postText)","audience":"friends","photos":["\#(photo.id)"]}"#)
        let expenseTitle = "expense-\(tag)-Travesseiros"
        _ = try ana.addExpense(
            trip,
            #"{"title":"\#(expenseTitle)","amount":{"amountMinor":1260,"currency":"EUR"},"paidBy":[{"traveller":"\#(ana.id)"}],"split":{"mode":"equal","among":[{"traveller":"\#(ana.id)"},{"traveller":"\#(bruno.id)"}]}}"#
        )
        try await eventually("the relay keeps the post, the expense and the photo's copy", timeout: .seconds(30)) {
            try Self.opCount(relay) >= opsBefore + 2 && relay.summary.bytes >= bytesBefore + Int64(held.count)
        }
        #expect(relay.log.contains("photo copy kept"))
        ana.stop()

        // Bruno comes back with only the relay to reach: the post, its photo and the expense.
        try bruno.start()
        try await eventually("Bruno sees Ana's post through the relay", timeout: .seconds(30)) {
            try SocialSyncTests.feed(bruno).contains { $0.id == post.id && $0.text == postText }
        }
        try await eventually("the photo's bytes reach Bruno through the relay", timeout: .seconds(30)) {
            try PhotoSyncTests.photoBytes(bruno, photo.id) == held
        }
        let brunoLog = String(
            decoding: FileManager.default.contents(atPath: bruno.dir.path + ".stderr") ?? Data(), as: UTF8.self)
        #expect(brunoLog.contains("received a photo through a relay"))
        try await eventually("Bruno sees Ana's expense through the relay", timeout: .seconds(30)) {
            let r = try bruno.d.send("GET", "/v1/itineraries/\(trip)/expenses")
            return r.status == 200 && r.text.contains(expenseTitle)
        }
        // Bruno likes and comments, and goes away once the relay holds both.
        let opsBeforeReply = try Self.opCount(relay)
        _ = try bruno.d.call(Post.self, "PUT", "/v1/posts/\(post.id)/like")
        let commentText = "comment-\(tag)-wish I was there"
        _ = try bruno.d.call(
            PostComment.self, "POST", "/v1/posts/\(post.id)/comments", json: #"{"text":"\#(commentText)"}"#)
        try await eventually("the relay keeps Bruno's like and comment", timeout: .seconds(20)) {
            try Self.opCount(relay) >= opsBeforeReply + 2
        }
        bruno.stop()

        try ana.start()
        try await eventually("Ana sees Bruno's like and comment through the relay", timeout: .seconds(30)) {
            let mine = try SocialSyncTests.feed(ana).first { $0.id == post.id }
            return mine?.likes == 1 && mine?.comments == 1
        }

        // The relay keeps the photo's copy, never its bytes, the post, the expense or the comment.
        let copies = FileManager.default.enumerator(atPath: relay.dir.path + "/relay-blobs")?.allObjects ?? []
        #expect(copies.count == 1, "\(copies)")
        let middle = held.count / 2
        let slice = Data(held[middle..<(middle + 48)])
        let strings = [postText, expenseTitle, commentText, "Sintra-\(tag)", "Ana\(tag)", "Bruno\(tag)", photo.id]
        relay.d.stop()
        #expect(RelayDocumentTests.leaks(of: strings, in: relay.dir.path).isEmpty)
        #expect(Self.files(holding: slice, in: relay.dir.path).isEmpty)
        // The scan sees what it looks for: Ana's database holds her post's text.
        #expect(!RelayDocumentTests.leaks(of: [postText], in: ana.dir.path).isEmpty)
    }

    @Test("a relay user not on the outbox's access list neither fetches nor announces a photo's copy")
    func strangerToTheDocument() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let (ana, bruno, _) = try await Self.friendsOnRelay(tag, relay)
        // Bruno is away while Ana posts: the photo reaches him only through the relay.
        bruno.stop()
        let photo = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 300_000, seed: 5))
        _ = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"Pena","audience":"friends","photos":["\#(photo.id)"]}"#)
        try await eventually("the relay keeps the photo's copy", timeout: .seconds(30)) {
            relay.log.contains("photo copy kept")
        }
        let anaKey = try HumanID.decode(ana.id), brunoKey = try HumanID.decode(bruno.id)
        let outbox = try OutboxDraft.id(author: anaKey.bytes, reader: brunoKey.bytes)
        let name = try Self.relayName(photo: photo.id, doc: outbox)

        // Mallory redeems a link: a user of the relay, on no list of Ana's.
        let mallory = try AdversarialPeer()
        var hello = AdversarialPeer.hello()
        hello.features = [BlobTransfer.feature]
        let session = try mallory.connect(to: relay.address, hello: hello)
        var redeem = WireMessage()
        redeem.relayRedeem.link = Data(try RelayLink(parsing: try relay.invite()).token)
        try session.send(redeem)
        let redeemed = try session.wait(timeout: 5) { if case .relayRedeemed = $0.kind { true } else { false } }
        #expect(redeemed != nil)

        // Its want of the copy is answered with BlobMissing, never a chunk.
        var want = WireMessage()
        want.blobWant.hash = Data(name)
        try session.send(want)
        // It announces copies under Ana's outbox: refused, and nothing is wanted from it.
        var announce = WireMessage()
        announce.relayBlobs.doc = Data(outbox.bytes)
        announce.relayBlobs.names = [Data(SecureRandom.bytes(32))]
        try session.send(announce)
        let answers = try session.drain(for: 2.0)
        #expect(answers.contains { if case .blobMissing = $0.kind { true } else { false } })
        #expect(
            !answers.contains {
                switch $0.kind {
                case .blobChunk, .blobWant: true
                default: false
                }
            }, "\(answers.map(\.kind))")
        #expect(relay.log.contains("refused a photo copy to a key not on its document's access list"))
        #expect(relay.log.contains("refused photo names from a key not on the document's access list"))

        // Bruno, on the list, gets the same copy from the relay alone.
        ana.stop()
        try bruno.start()
        try await eventually("the photo reaches Bruno through the relay", timeout: .seconds(30)) {
            try PhotoSyncTests.photoBytes(bruno, photo.id) != nil
        }
    }

    @Test("a photo's copy that would pass the user's quota is refused whole with relay-full; no byte is kept")
    func photoOverQuota() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode(extraArguments: ["--relay-quota-bytes", "200000"])
        let (ana, bruno, _) = try await Self.friendsOnRelay(tag, relay)
        bruno.stop()
        let bytesBefore = try relay.summary.bytes
        let photo = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 400_000, seed: 3))
        _ = try ana.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"Monserrate","audience":"friends","photos":["\#(photo.id)"]}"#)
        try await eventually("Ana's daemon shows the relay full", timeout: .seconds(30)) {
            try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.first?.state == "full"
        }
        #expect(relay.log.contains("refused a photo copy over the user's quota (relay-full)"))
        #expect(!relay.log.contains("photo copy kept"))
        // Nothing of the copy was written, and what the relay kept before stays.
        let files = FileManager.default.enumerator(atPath: relay.dir.path + "/relay-blobs")?.allObjects ?? []
        #expect(files.isEmpty, "\(files)")
        let bytes = try relay.summary.bytes
        #expect(bytes >= bytesBefore && bytes <= 200_000, "\(bytes)")
    }
}
