import Foundation
import Logging
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// Photos between two replicators over in-memory hosts (`Protocol/sync.md` §7.4): the
/// window, the wire bounds and what a malformed or unwanted message changes (nothing).
/// PhotoSyncTests proves the whole path with real daemons.
@Suite("Replicator blobs")
struct BlobReplicatorTests {
    let alice: SigningKeyPair
    let bob: SigningKeyPair
    let doc = DocumentID(bytes: Array(repeating: 9, count: 16))!
    let aliceHost: FakeReplicationHost
    let bobHost: FakeReplicationHost
    let aliceReplicator = Replicator(logger: Logger(label: "a") { _ in SwiftLogNoOpLogHandler() })
    let bobReplicator = Replicator(logger: Logger(label: "b") { _ in SwiftLogNoOpLogHandler() })

    init() async throws {
        alice = try SigningKeyPair()
        bob = try SigningKeyPair()
        aliceHost = FakeReplicationHost(identity: alice, doc: doc, participants: [bob.publicKey])
        bobHost = FakeReplicationHost(identity: bob, doc: doc, participants: [alice.publicKey])
        await aliceReplicator.attach(aliceHost)
        await bobReplicator.attach(bobHost)
    }

    static func hello(features: [String] = Replicator.features) -> Places_Sync_V1_Hello {
        var hello = Places_Sync_V1_Hello()
        hello.protocolVersion = 1
        hello.features = features
        return hello
    }

    /// A blob of `count` pseudo-random bytes and its hash.
    static func blob(_ count: Int, seed: UInt8 = 1) -> (bytes: [UInt8], hash: [UInt8]) {
        var state = UInt32(seed) &* 2_654_435_761
        let bytes = (0..<count).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        return (bytes, Blake2b.hash256(bytes))
    }

    static func blobMessages(_ messages: [Places_Sync_V1_SyncMessage]) -> [Places_Sync_V1_SyncMessage] {
        messages.filter {
            switch $0.kind {
            case .blobWant, .blobChunk, .blobMissing: true
            default: false
            }
        }
    }

    /// Delivers `messages` from one side to the other and their answers back, until quiet;
    /// returns every blob message that crossed, and the most wants outstanding at once.
    func pump(_ fromBob: [Places_Sync_V1_SyncMessage]) async -> (crossed: Int, maxOutstanding: Int) {
        var toAlice = Self.blobMessages(fromBob)
        var crossed = 0
        var maxOutstanding = toAlice.count
        while !toAlice.isEmpty {
            var toBob = [Places_Sync_V1_SyncMessage]()
            for message in toAlice {
                toBob += await aliceReplicator.received(message, from: bob.publicKey)
            }
            crossed += toAlice.count + toBob.count
            toAlice = []
            for message in toBob {
                toAlice += await bobReplicator.received(message, from: alice.publicKey)
            }
            maxOutstanding = max(
                maxOutstanding, toAlice.filter { if case .blobWant = $0.kind { true } else { false } }.count)
        }
        return (crossed, maxOutstanding)
    }

    @Test("a blob crosses in chunks of at most 256 KiB, one want per chunk, and matches its hash")
    func blobCrosses() async {
        let photo = Self.blob(1_000_000)
        await aliceHost.hold(photo.bytes, as: photo.hash, readableBy: [bob.publicKey])
        await bobHost.lack([photo.hash])
        _ = await aliceReplicator.sessionOpened(with: bob.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let opening = await bobReplicator.sessionOpened(
            with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let wants = Self.blobMessages(opening)
        #expect(wants.count == 1)
        #expect(wants.first?.blobWant.offset == 0)
        _ = await pump(opening)
        #expect(await bobHost.blobs[photo.hash] == photo.bytes)
        let pieces = await bobHost.storedPieces
        #expect(pieces.count == 4)  // 3 × 256 KiB + the rest
        #expect(pieces.allSatisfy { $0.data.count <= BlobTransfer.maxChunkBytes })
    }

    @Test("at most four blobs are fetched from one peer at once; the rest follow")
    func windowIsBounded() async {
        let photos = (1...7).map { Self.blob(300_000, seed: UInt8($0)) }
        for photo in photos { await aliceHost.hold(photo.bytes, as: photo.hash, readableBy: [bob.publicKey]) }
        await bobHost.lack(photos.map(\.hash))
        _ = await aliceReplicator.sessionOpened(with: bob.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let opening = await bobReplicator.sessionOpened(
            with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        #expect(Self.blobMessages(opening).count == BlobTransfer.maxInFlightPerPeer)
        let result = await pump(opening)
        #expect(result.maxOutstanding <= BlobTransfer.maxInFlightPerPeer)
        for photo in photos { #expect(await bobHost.blobs[photo.hash] == photo.bytes) }
    }

    @Test("a peer that did not say blob/1 is sent no want")
    func olderPeersAreNotAsked() async {
        let photo = Self.blob(1_000)
        await bobHost.lack([photo.hash])
        let opening = await bobReplicator.sessionOpened(
            with: alice.publicKey, hello: Self.hello(features: ["card/1", "outbox/1"]), address: "127.0.0.1")
        #expect(Self.blobMessages(opening).isEmpty)
    }

    @Test("a peer that may not have a blob gets BlobMissing, never bytes; a stranger gets nothing")
    func refusedWants() async throws {
        let photo = Self.blob(10_000)
        await aliceHost.hold(photo.bytes, as: photo.hash, readableBy: [])
        let want = Replicator.blobWant(photo.hash, offset: 0)
        let answer = await aliceReplicator.received(want, from: bob.publicKey)
        #expect(answer.count == 1)
        #expect(answer.first?.blobMissing.hash == Data(photo.hash))
        #expect(!answer.contains { if case .blobChunk = $0.kind { true } else { false } })
        let stranger = try SigningKeyPair()
        #expect(await aliceReplicator.received(want, from: stranger.publicKey).isEmpty)
    }

    @Test(
        "a malformed want is dropped without an answer",
        arguments: [(31, UInt64(0)), (33, UInt64(0)), (32, BlobTransfer.maxBlobBytes + 1), (32, UInt64.max)])
    func malformedWants(hashBytes: Int, offset: UInt64) async {
        let photo = Self.blob(10_000)
        await aliceHost.hold(photo.bytes, as: photo.hash, readableBy: [bob.publicKey])
        var want = Places_Sync_V1_BlobWant()
        want.hash = Data(Array(photo.hash.prefix(hashBytes)) + Array(repeating: 0, count: max(0, hashBytes - 32)))
        want.offset = offset
        var message = Places_Sync_V1_SyncMessage()
        message.blobWant = want
        #expect(await aliceReplicator.received(message, from: bob.publicKey).isEmpty)
    }

    @Test("a chunk nobody asked for is dropped and stores nothing")
    func unwantedChunks() async {
        let photo = Self.blob(1_000)
        _ = await bobReplicator.sessionOpened(with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let chunk = Replicator.blobChunk(
            BlobTransfer.Piece(hash: photo.hash, offset: 0, data: photo.bytes, last: true, total: 1_000))
        #expect(await bobReplicator.received(chunk, from: alice.publicKey).isEmpty)
        #expect(await bobHost.storedPieces.isEmpty)
    }

    @Test(
        "a chunk that does not answer the want is dropped and the peer is not asked again this session",
        arguments: [
            // offset, data length, last, total
            (UInt64(5), 100, false, UInt64(1_000)),  // not the offset asked for
            (UInt64(0), BlobTransfer.maxChunkBytes + 1, false, UInt64(1_000_000)),  // over 256 KiB
            (UInt64(0), 100, true, UInt64(1_000)),  // "last" before the end
            (UInt64(0), 100, false, UInt64(100)),  // ends without "last"
            (UInt64(0), 0, false, UInt64(1_000)),  // empty and not the end (a stall)
            (UInt64(0), 100, false, BlobTransfer.maxBlobBytes + 1),  // over 20 MiB
            (UInt64(0), 2_000, false, UInt64(1_000)),  // past its own total
        ])
    func malformedChunks(offset: UInt64, length: Int, last: Bool, total: UInt64) async {
        let photo = Self.blob(1_000)
        await bobHost.lack([photo.hash])
        let opening = await bobReplicator.sessionOpened(
            with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        #expect(Self.blobMessages(opening).count == 1)
        let chunk = Replicator.blobChunk(
            BlobTransfer.Piece(
                hash: photo.hash, offset: offset, data: Array(repeating: 1, count: length), last: last, total: total))
        let answer = await bobReplicator.received(chunk, from: alice.publicKey)
        #expect(Self.blobMessages(answer).isEmpty)
        #expect(await bobHost.storedPieces.isEmpty)
        // Refused for this session: not asked again until the next one.
        #expect(await bobReplicator.nextBlobWants(to: alice.publicKey).isEmpty)
        await bobReplicator.sessionClosed(with: alice.publicKey, reason: "test")
        let again = await bobReplicator.sessionOpened(with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        #expect(Self.blobMessages(again).count == 1)
    }

    @Test("a fetch cut by a closed session resumes from the partial's length at the next one")
    func resumesFromPartial() async {
        let photo = Self.blob(700_000)
        await aliceHost.hold(photo.bytes, as: photo.hash, readableBy: [bob.publicKey])
        await bobHost.lack([photo.hash])
        _ = await aliceReplicator.sessionOpened(with: bob.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let opening = await bobReplicator.sessionOpened(
            with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        // One chunk crosses, then the connection drops.
        let first = await aliceReplicator.received(Self.blobMessages(opening)[0], from: bob.publicKey)
        let next = await bobReplicator.received(first[0], from: alice.publicKey)
        #expect(next.first?.blobWant.offset == UInt64(BlobTransfer.maxChunkBytes))
        await bobReplicator.sessionClosed(with: alice.publicKey, reason: "dropped")
        // The chunk for the want sent before the drop arrives late: not wanted any more.
        let late = await aliceReplicator.received(next[0], from: bob.publicKey)
        #expect(await bobReplicator.received(late[0], from: alice.publicKey).isEmpty)
        let again = await bobReplicator.sessionOpened(with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        #expect(Self.blobMessages(again).first?.blobWant.offset == UInt64(BlobTransfer.maxChunkBytes))
        _ = await pump(again)
        #expect(await bobHost.blobs[photo.hash] == photo.bytes)
    }

    /// The ops naming a photo came first through a peer that did not hold it yet (another
    /// device passing a friend's post on); the same ops from their author stored nothing new.
    /// When that peer answers BlobMissing, the connected author is asked, in this session.
    @Test("a photo refused by the peer that passed its ops on is asked of another connected peer")
    func refusedByRelayingPeerAskedOfAuthor() async throws {
        let author = try SigningKeyPair()
        let photo = Self.blob(1_000)
        for peer in [alice.publicKey, author.publicKey] {
            _ = await bobReplicator.sessionOpened(with: peer, hello: Self.hello(), address: "127.0.0.1")
        }
        // The post arrives through alice: its photo is wanted from her.
        await bobHost.lack([photo.hash])
        let wants = await bobReplicator.blobsFollow(from: alice.publicKey, in: doc)
        #expect(Self.blobMessages(wants).map(\.blobWant.hash) == [Data(photo.hash)])
        let delivered = Delivered()
        let pump = Task { await bobReplicator.run { messages, to in delivered.record(messages, to: to) } }
        defer { pump.cancel() }
        let answer = await bobReplicator.received(Replicator.blobMissing(photo.hash), from: alice.publicKey)
        #expect(Self.blobMessages(answer).isEmpty)
        for _ in 0..<200 where delivered.to(author.publicKey).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(delivered.to(author.publicKey).map(\.blobWant.hash) == [Data(photo.hash)])
        #expect(await bobReplicator.blobWants.flight(photo.hash, from: author.publicKey) != nil)
        // Alice is not asked again for it in this session.
        #expect(delivered.to(alice.publicKey).isEmpty)
    }

    /// Ana's phone asks her laptop for the photo of a post the laptop passed on before it had
    /// the photo itself: the laptop holds the want and answers it once its own download ends.
    @Test("a device's want of a photo this daemon is still fetching is answered when the fetch ends")
    func heldWantAnsweredWhenFetched() async throws {
        let phone = try SigningKeyPair()
        let photo = Self.blob(300_000)
        await aliceHost.hold(photo.bytes, as: photo.hash, readableBy: [bob.publicKey])
        await bobHost.lack([photo.hash])
        await bobHost.addSibling(phone.publicKey)
        _ = await aliceReplicator.sessionOpened(with: bob.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let opening = await bobReplicator.sessionOpened(
            with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        _ = await bobReplicator.sessionOpened(with: phone.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let delivered = Delivered()
        let run = Task { await bobReplicator.run { messages, to in delivered.record(messages, to: to) } }
        defer { run.cancel() }
        // Held: no answer yet, and not BlobMissing.
        #expect(await bobReplicator.received(Replicator.blobWant(photo.hash, offset: 0), from: phone.publicKey).isEmpty)
        #expect(delivered.to(phone.publicKey).isEmpty)
        _ = await pump(opening)
        #expect(await bobHost.blobs[photo.hash] == photo.bytes)
        for _ in 0..<200 where delivered.to(phone.publicKey).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let answer = delivered.to(phone.publicKey)
        #expect(answer.count == 1)
        #expect(answer.first?.blobChunk.hash == Data(photo.hash))
        #expect(answer.first?.blobChunk.offset == 0)
        #expect(answer.first?.blobChunk.data.count == BlobTransfer.maxChunkBytes)
        // A device's want of a photo not being fetched here is answered BlobMissing at once.
        let other = Self.blob(1_000, seed: 3)
        let missing = await bobReplicator.received(Replicator.blobWant(other.hash, offset: 0), from: phone.publicKey)
        #expect(missing.first?.blobMissing.hash == Data(other.hash))
    }

    @Test("BlobMissing for a blob not asked of that peer changes nothing")
    func unaskedMissing() async {
        let photo = Self.blob(1_000)
        await bobHost.lack([photo.hash])
        _ = await bobReplicator.sessionOpened(with: alice.publicKey, hello: Self.hello(), address: "127.0.0.1")
        let stranger = try? SigningKeyPair()
        if let stranger {
            #expect(await bobReplicator.received(Replicator.blobMissing(photo.hash), from: stranger.publicKey).isEmpty)
        }
        // Still in flight from alice: the window has no room for a second want of it.
        #expect(await bobReplicator.nextBlobWants(to: alice.publicKey).isEmpty)
        #expect(await bobReplicator.blobWants.flight(photo.hash, from: alice.publicKey) != nil)
    }

    @Test("the messages round-trip through their wire encoding")
    func wireRoundTrip() throws {
        let photo = Self.blob(300)
        let piece = BlobTransfer.Piece(hash: photo.hash, offset: 7, data: photo.bytes, last: false, total: 1_234)
        for message in [
            Replicator.blobWant(photo.hash, offset: 20 * 1024 * 1024), Replicator.blobChunk(piece),
            Replicator.blobMissing(photo.hash),
        ] {
            let decoded = try Places_Sync_V1_SyncMessage(serializedBytes: try message.serializedBytes() as [UInt8])
            #expect(decoded == message)
        }
    }
}
