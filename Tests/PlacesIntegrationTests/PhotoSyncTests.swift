import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Photos between real daemons (`Protocol/sync.md` §7.4): a post's photos follow it to the
/// friends in its audience, in chunks, resuming after a cut; nobody else gets a byte.
/// Ana is friends with Bruno and Carla (`SocialSyncTests.threeFriends`).
@Suite("Photos between real daemons", .serialized)
struct PhotoSyncTests {
    /// A baseline JPEG of about `bytes` bytes: headers a decoder reads, then scan data of
    /// pseudo-random bytes (no 0xFF, so no marker) seeded by `seed`.
    static func jpeg(bytes: Int, seed: UInt32) -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            let length = payload.count + 2
            return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        out += segment(0xDB, [0] + Array(repeating: 1, count: 64))
        out += segment(0xC0, [8, 0x0B, 0xD0, 0x0F, 0xC0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        out += segment(0xC4, [0] + Array(repeating: 0, count: 16))
        out += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        var state = seed | 1
        out.reserveCapacity(bytes + 2)
        while out.count < bytes {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            out.append(UInt8(truncatingIfNeeded: state) % 0xFF)
        }
        return out + [0xFF, 0xD9]
    }

    static func addPhoto(_ node: SyncNode, _ bytes: [UInt8]) throws -> Photo {
        let r = try node.d.client.send("POST", "/v1/photos", body: bytes, headers: ["Content-Type": "image/jpeg"])
        guard r.status == 201 else { throw HarnessError("adding a photo: \(r.status) \(r.text)") }
        return try JSONDecoder().decode(Photo.self, from: Data(r.body))
    }

    static func photoBytes(_ node: SyncNode, _ id: String) throws -> [UInt8]? {
        let r = try node.d.client.send("GET", "/v1/photos/\(id)")
        return r.status == 200 ? r.body : nil
    }

    /// Files under the node's blob store (stored and partial) whose name holds `id`.
    static func blobFiles(_ node: SyncNode, _ id: String) -> [String] {
        let root = node.dir.path + "/blobs"
        let all = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return all.filter { $0.contains(id) }
    }

    /// The length of the partial download of `id` on `node`'s disk (0 when there is none).
    static func partialFileSize(_ node: SyncNode, _ id: String) -> Int {
        let path = node.dir.path + "/blobs/partial/\(id).part"
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("a 5 MB photo of a friends post reaches both friends whole, and its bytes hash to its id")
    func photoReachesFriends() async throws {
        let (ana, bruno, carla) = try await SocialSyncTests.threeFriends()
        let photo = try Self.addPhoto(ana, Self.jpeg(bytes: 5_000_000, seed: 7))
        #expect(photo.bytes > 4_900_000)
        let held = try #require(try Self.photoBytes(ana, photo.id))
        let post = try ana.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"Miradouro da Graça","audience":"friends","photos":["\#(photo.id)"]}"#)
        try await eventually("Bruno and Carla see the post with its photo's details") {
            try [bruno, carla].allSatisfy { node in
                try SocialSyncTests.feed(node).first { $0.id == post.id }?.photos.map(\.id) == [photo.id]
            }
        }
        try await eventually("the photo's bytes reach Bruno and Carla", timeout: .seconds(60)) {
            try [bruno, carla].allSatisfy { try Self.photoBytes($0, photo.id) != nil }
        }
        for node in [bruno, carla] {
            let bytes = try #require(try Self.photoBytes(node, photo.id))
            #expect(bytes == held, "\(node.name)'s copy differs from Ana's")
            #expect(HexCoding.encode(Blake2b.hash256(bytes)) == photo.id)
            #expect(Self.blobFiles(node, photo.id).allSatisfy { !$0.hasPrefix("partial/") })
        }
        // The feed shows the photo's details as Ana described them.
        let seen = try #require(try SocialSyncTests.feed(bruno).first { $0.id == post.id }?.photos.first)
        #expect(seen == photo)
    }

    /// A small JPEG whose EXIF has a GPS latitude (the rationals 38/1, 42/1, 3141/100: a
    /// recognizable run of bytes) and a 2 × 1 frame.
    static func jpegWithLocation() -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }  // little-endian ("II")
        func u32(_ v: Int) -> [UInt8] {
            [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
        }
        // TIFF: header (8), IFD0 at 8 with one entry (GPS pointer) → GPS IFD at 26 with one
        // entry (GPSLatitude, 3 RATIONALs at 44).
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8)
        tiff += u16(1) + u16(0x8825) + u16(4) + u32(1) + u32(26) + u32(0)
        tiff += u16(1) + u16(0x0002) + u16(5) + u32(3) + u32(44) + u32(0)
        tiff += u32(38) + u32(1) + u32(42) + u32(1) + u32(3141) + u32(100)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + [UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)]
        jpeg += app1
        jpeg += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x02, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9]
        return jpeg
    }

    @Test("a photo's EXIF location is removed before it leaves the device; the friend's copy hashes to its id")
    func locationRemoved() async throws {
        let (ana, bruno, _) = try await SocialSyncTests.threeFriends()
        let original = Self.jpegWithLocation()
        let latitude = Data([0x45, 0x0C, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00])  // 3141/100
        #expect(Data(original).range(of: latitude) != nil)
        let photo = try Self.addPhoto(ana, original)
        #expect(photo.width == 2 && photo.height == 1 && photo.contentType == "image/jpeg")
        let stored = try #require(try Self.photoBytes(ana, photo.id))
        #expect(Data(stored).range(of: latitude) == nil, "the stored photo still holds its GPS latitude")
        _ = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"here","audience":"friends","photos":["\#(photo.id)"]}"#)
        try await eventually("Bruno holds the photo") { try Self.photoBytes(bruno, photo.id) != nil }
        let received = try #require(try Self.photoBytes(bruno, photo.id))
        #expect(received == stored && HexCoding.encode(Blake2b.hash256(received)) == photo.id)
        #expect(Data(received).range(of: latitude) == nil)
        // With keepLocation the GPS data stays.
        let kept = try ana.d.client.send(
            "POST", "/v1/photos?keepLocation=true", body: original, headers: ["Content-Type": "image/jpeg"])
        let keptPhoto = try JSONDecoder().decode(Photo.self, from: Data(kept.body))
        #expect(Data(try #require(try Self.photoBytes(ana, keptPhoto.id))).range(of: latitude) != nil)
    }

    @Test("a 15 MB photo cut mid-way by the receiver's crash resumes from where it stopped and completes")
    func transferResumes() async throws {
        let (ana, bruno, _) = try await SocialSyncTests.threeFriends()
        try bruno.addPeer(ana)
        let photo = try Self.addPhoto(ana, Self.jpeg(bytes: 15_000_000, seed: 11))
        let held = try #require(try Self.photoBytes(ana, photo.id))
        _ = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"Tram 28","audience":"friends","photos":["\#(photo.id)"]}"#)
        // Crash Bruno as soon as part of the photo is on his disk. Ana runs 2 ms in every 22
        // until then (SIGSTOP, SIGCONT), so that the transfer cannot finish between two looks
        // on a loaded machine (on loopback it takes well under a second).
        let deadline = ContinuousClock.now + .seconds(60)
        defer { ana.d.freeze(false) }
        while Self.partialFileSize(bruno, photo.id) == 0 {
            guard ContinuousClock.now < deadline, try Self.photoBytes(bruno, photo.id) == nil else {
                Issue.record("the photo was never seen half-received; cannot test the resume")
                return
            }
            ana.d.freeze(false)
            usleep(2_000)
            ana.d.freeze(true)
            usleep(20_000)
        }
        bruno.d.kill()
        ana.d.freeze(false)
        let cutAt = Self.partialFileSize(bruno, photo.id)
        #expect(cutAt > 0 && cutAt < photo.bytes, "the partial holds \(cutAt) bytes")
        #expect(try Self.photoBytes(ana, photo.id) == held)

        try bruno.start()
        try await eventually("the photo completes at Bruno after his restart", timeout: .seconds(60)) {
            try Self.photoBytes(bruno, photo.id) != nil
        }
        let bytes = try #require(try Self.photoBytes(bruno, photo.id))
        #expect(bytes == held)
        #expect(HexCoding.encode(Blake2b.hash256(bytes)) == photo.id)
        #expect(bruno.d.log.contains("resuming a photo download"), "Bruno started the photo over")
    }

    @Test("a friend outside a group post's audience never gets its photo, and a stranger's want gets nothing")
    func audienceOnly() async throws {
        let (ana, bruno, carla) = try await SocialSyncTests.threeFriends()
        let close = try ana.d.call(
            FriendGroup.self, "POST", "/v1/groups", json: #"{"name":"close friends","members":["\#(bruno.id)"]}"#)
        let secret = try Self.addPhoto(ana, Self.jpeg(bytes: 600_000, seed: 23))
        let open = try Self.addPhoto(ana, Self.jpeg(bytes: 300_000, seed: 29))
        _ = try ana.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"close friends only","audience":"\#(close.id)","photos":["\#(secret.id)"]}"#)
        // A later friends post: once Carla holds its photo, she has synced past the group post.
        _ = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"for all","audience":"friends","photos":["\#(open.id)"]}"#)
        try await eventually("Bruno holds both photos and Carla the friends post's", timeout: .seconds(60)) {
            try Self.photoBytes(bruno, secret.id) != nil && Self.photoBytes(bruno, open.id) != nil
                && Self.photoBytes(carla, open.id) != nil
        }
        #expect(try carla.d.client.send("GET", "/v1/photos/\(secret.id)").status == 404)
        #expect(Self.blobFiles(carla, secret.id).isEmpty, "Carla's blob store holds a file of the group post's photo")

        // A stranger that knows the photo's id asks Ana for it: no chunk, no answer at all.
        let mallory = try AdversarialPeer()
        let session = try mallory.connect(
            to: ana.address, hello: AdversarialPeer.cardHello(features: AdversarialPeer.features))
        defer { session.close() }
        try session.send(Replicator.blobWant(HexCoding.decode(secret.id) ?? [], offset: 0))
        for message in try session.drain(for: 1.5) {
            if case .blobChunk = message.kind { Issue.record("Ana sent a stranger a chunk of a photo") }
        }
    }
}
