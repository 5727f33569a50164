import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Photos against a hostile friend (issue 28, `sync.md` §7.4): a friend that names photos it
/// never sends slows only its own, and a photo is given only through its author's own live
/// documents.
extension HostileSocialPeerTests {
    /// A photo descriptor as `op-format.md` §5 writes it, in JSON text.
    static func descriptor(_ id: String, bytes: Int, width: Int = 4_032, height: Int = 3_024) -> String {
        #"{"id":"\#(id)","contentType":"image/jpeg","bytes":\#(bytes),"width":\#(width),"height":\#(height)}"#
    }

    /// Answers `session`'s photo wants from `blobs` (one chunk of at most 256 KiB per want;
    /// `BlobMissing` for any other blob) until `done` holds or `timeout` seconds pass, reading
    /// (and never answering) `idle` meanwhile so that its session stays open. Returns whether
    /// `done` held.
    static func serveBlobs(
        _ blobs: [[UInt8]: [UInt8]], on session: PeerSession, idle: PeerSession, timeout: Double,
        until done: () throws -> Bool
    ) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try done() { return true }
            _ = try idle.drain(for: 0.01)
            while let message = try session.next(timeout: 0.1) {
                guard case .blobWant(let want)? = message.kind else { continue }
                let hash = [UInt8](want.hash)
                guard let bytes = blobs[hash], let offset = Int(exactly: want.offset), offset <= bytes.count else {
                    try session.send(Replicator.blobMissing(hash))
                    continue
                }
                let end = min(bytes.count, offset + BlobTransfer.maxChunkBytes)
                let piece = BlobTransfer.Piece(
                    hash: hash, offset: want.offset, data: Array(bytes[offset..<end]), last: end == bytes.count,
                    total: UInt64(bytes.count))
                try session.send(Replicator.blobChunk(piece))
            }
        }
        return try done()
    }

    @Test(
        "a friend naming 1,000 photos it never sends does not stop another friend's photos, before or after a reconnect"
    )
    func hoardedWantsDoNotStopOthers() async throws {
        let v = try SocialVictim()
        let x = try await v.befriend(try AdversarialPeer(), name: "Xavier")
        let f = try await v.befriend(try AdversarialPeer(), name: "Fatima")
        try x.reconnectForPhotos(to: v.node)
        try f.reconnectForPhotos(to: v.node)
        // One op: 100 posts of 10 valid descriptors with random ids.
        var hoard = [String]()
        for i in 0..<100 {
            let photos = (0..<10).map { _ in Self.descriptor(HexCoding.encode(SecureRandom.bytes(32)), bytes: 900_000) }
            hoard += Wire.post(text: "hoard \(i)", photos: "[" + photos.joined(separator: ",") + "]")
        }
        try x.push(hoard)
        try await eventually("Xavier's 100 posts show", timeout: .seconds(15)) {
            try v.feed().filter { $0.text.hasPrefix("hoard") }.count == 100
        }
        // The victim asks Xavier, who never answers.
        let asked = try x.session.drain(for: 1).filter { if case .blobWant = $0.kind { true } else { false } }
        #expect(!asked.isEmpty && asked.count <= BlobTransfer.maxInFlightPerPeer, "\(asked.count) wants to Xavier")

        for round in 0..<2 {
            if round == 1 { try f.reconnectForPhotos(to: v.node) }
            let photo = PhotoSyncTests.jpeg(bytes: 300_000, seed: 41 + UInt32(round))
            let id = HexCoding.encode(Blake2b.hash256(photo))
            try f.push(
                Wire.post(text: "Fatima's photo \(round)", photos: "[\(Self.descriptor(id, bytes: photo.count))]"))
            let arrived = try Self.serveBlobs(
                [Blake2b.hash256(photo): photo], on: f.session, idle: x.session, timeout: 20
            ) { try PhotoSyncTests.photoBytes(v.node, id) != nil }
            #expect(arrived, "Fatima's photo \(round) did not reach the victim while Xavier hoards wants")
            guard arrived else { return }
            #expect(try PhotoSyncTests.photoBytes(v.node, id) == photo)
        }
        guard v.node.serving("a friend hoarding photo wants") else { return }
        #expect(v.logged("this peer's share of the photos wanted is full"))
    }

    /// Whether `message` is a chunk of the blob `hash`.
    static func isChunk(_ message: WireMessage, of hash: [UInt8]) -> Bool {
        if case .blobChunk(let chunk)? = message.kind { [UInt8](chunk.hash) == hash } else { false }
    }

    /// The victim posts a photo to friends; Xavier, a friend in its audience, is given it, then
    /// names it in a post of its own (`xaviersPost`), which the victim shows. Returns the
    /// victim, Xavier, the victim's post and the photo's hash.
    static func friendNamingVictimsPhoto(seed: UInt32, xaviersPost: String) async throws
        -> (v: SocialVictim, x: SocialFriend, post: Post, hash: [UInt8])
    {
        let v = try SocialVictim()
        let x = try await v.befriend(try AdversarialPeer(), name: "Xavier")
        try x.reconnectForPhotos(to: v.node)
        let photo = try PhotoSyncTests.addPhoto(v.node, PhotoSyncTests.jpeg(bytes: 30_000, seed: seed))
        let post = try v.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"a photo for friends","audience":"friends","photos":["\#(photo.id)"]}"#)
        let hash = try HexCoding.decode(photo.id).orThrow("photo id")
        try x.session.send(Replicator.blobWant(hash, offset: 0))
        #expect(
            try x.session.wait(timeout: 5, for: { isChunk($0, of: hash) }) != nil,
            "a friend in the audience was not given the photo")
        let descriptor = Self.descriptor(photo.id, bytes: Int(photo.bytes), width: photo.width, height: photo.height)
        try x.push(Wire.post(text: xaviersPost, photos: "[\(descriptor)]"))
        try await eventually("Xavier's post shows", timeout: .seconds(10)) {
            try v.feed().contains { $0.text == xaviersPost }
        }
        return (v, x, post, hash)
    }

    /// Xavier asks for the photo again once a decision to give has expired (kept at most 5
    /// seconds, sync.md §7.4); the answers that arrive within 2 seconds.
    static func askAgain(_ x: SocialFriend, for hash: [UInt8]) async throws -> [WireMessage] {
        try await Task.sleep(for: .milliseconds(5_500))
        try x.session.send(Replicator.blobWant(hash, offset: 0))
        return try x.session.drain(for: 2)
    }

    @Test("a friend that names a photo in its own post is not served it once its author deleted the post")
    func deletedPostPhotoNotServed() async throws {
        let (v, x, post, hash) = try await Self.friendNamingVictimsPhoto(seed: 43, xaviersPost: "my photo now")
        let deleted = try v.d.send("DELETE", "/v1/posts/\(post.id)")
        #expect(deleted.status == 200 || deleted.status == 204, "\(deleted.status) \(deleted.text)")
        let answers = try await Self.askAgain(x, for: hash)
        guard v.node.serving("a friend naming a deleted post's photo") else { return }
        #expect(
            !answers.contains { Self.isChunk($0, of: hash) },
            "the victim served a deleted post's photo to a friend who named it")
        #expect(answers.contains { if case .blobMissing? = $0.kind { true } else { false } })
        // Nor is it kept: a friend's post naming it keeps nothing of another's alive.
        let photo = HexCoding.encode(hash)
        try await eventually("the victim no longer holds the deleted post's photo", timeout: .seconds(5)) {
            try PhotoSyncTests.photoBytes(v.node, photo) == nil
        }
        #expect(try v.feed().contains { $0.text == "my photo now" }, "Xavier's own post is still shown")
    }

    @Test("a removed friend is given no photo of a post it was in the audience of, nor one it names itself")
    func removedFriendGivenNoPhoto() async throws {
        let (v, x, _, hash) = try await Self.friendNamingVictimsPhoto(seed: 47, xaviersPost: "still mine")
        let removed = try v.d.send("DELETE", "/v1/friends/\(x.humanID)")
        #expect(removed.status == 200 || removed.status == 204, "\(removed.status) \(removed.text)")
        let answers = try await Self.askAgain(x, for: hash)
        guard v.node.serving("a removed friend asking for a photo") else { return }
        #expect(!answers.contains { Self.isChunk($0, of: hash) }, "the victim served a photo to a friend it removed")
        // What the user sees holds nothing of the removed friend's.
        #expect(try !v.feed().contains { $0.text == "still mine" })
    }
}

extension SocialFriend {
    /// A new session whose `Hello` takes part in photos too (`blob/1`).
    func reconnectForPhotos(to victim: SyncNode) throws {
        session.close()
        session = try peer.connect(
            to: victim.address, hello: AdversarialPeer.cardHello(name: name, features: AdversarialPeer.features))
    }
}
