import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// Relaying by telling ids (`Protocol/sync.md` §7, "Live propagation and relaying"): of two
/// daemons that relay to each other, the one with the larger key tells and the other sends,
/// so no op crosses a connection twice; what a peer says it holds is not sent to it.
extension ReplicatorTests {
    /// Opens a session with `who` whose `Hello` names `features`.
    func connect(_ who: PublicKey, features: [String]) async {
        var hello = Places_Sync_V1_Hello()
        hello.protocolVersion = 1
        hello.features = features
        _ = await replicator.sessionOpened(with: who, hello: hello, address: "127.0.0.1")
    }

    /// A key that sorts before (`first`) or after this daemon's.
    func key(sorting first: Bool) throws -> SigningKeyPair {
        while true {
            let key = try SigningKeyPair()
            if key.publicKey.bytes.lexicographicallyPrecedes(me.publicKey.bytes) == first { return key }
        }
    }

    func told(_ kind: Places_Sync_V1_SyncMessage.OneOf_Kind?) -> (doc: Data, ids: [Data])? {
        switch kind {
        case .opsHave(let have): (have.doc, have.ids)
        case .opsWant(let want): (want.doc, want.ids)
        default: nil
        }
    }

    func have(_ ids: [[UInt8]], doc: DocumentID? = nil) -> Places_Sync_V1_SyncMessage {
        var have = Places_Sync_V1_OpsHave()
        have.doc = Data((doc ?? self.doc).bytes)
        have.ids = ids.map { Data($0) }
        var message = Places_Sync_V1_SyncMessage()
        message.opsHave = have
        return message
    }

    func want(_ ids: [[UInt8]]) -> Places_Sync_V1_SyncMessage {
        var want = Places_Sync_V1_OpsWant()
        want.doc = Data(doc.bytes)
        want.ids = ids.map { Data($0) }
        var message = Places_Sync_V1_SyncMessage()
        message.opsWant = want
        return message
    }

    func id(_ op: SignedOp) -> [UInt8] { Blake2b.hash256(op.signedBytes) }

    /// Hands `op` in from `sender` (the host stores it as set up) and returns what the
    /// outbound path delivered, up to a marker sent to `marked` after it: once the marker is
    /// out, so is anything relayed to `marked`.
    func relay(_ op: SignedOp, from sender: PublicKey, markedTo marked: PublicKey) async throws -> Delivered {
        let delivered = Delivered()
        let pump = deliver(into: delivered)
        defer { pump.cancel() }
        _ = await replicator.received(opsMessage(op), from: sender)
        replicator.sendRelay(.usage(documents: 0, bytes: 0, quotaBytes: 0), to: marked)
        for _ in 0..<200 where delivered.to(marked).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        return delivered
    }

    @Test("a relayed op goes as its id to a have/1 peer whose key sorts first, and as the op to any other")
    func relayedOpsAreToldToSmallerKeys() async throws {
        let smaller = try key(sorting: true)
        let larger = try key(sorting: false)
        let older = try key(sorting: true)
        for other in [smaller, larger, older] { await host.addParticipant(other.publicKey) }
        await connect(peer.publicKey, features: [Replicator.haveFeature])
        await connect(smaller.publicKey, features: [Replicator.haveFeature])
        await connect(larger.publicKey, features: [Replicator.haveFeature])
        // A daemon from before `have/1` is sent the op, whatever its key.
        await connect(older.publicKey, features: [])
        for who in [peer, smaller, larger, older] {
            _ = await replicator.received(offer([:], reply: false), from: who.publicKey)
        }
        let op = fakeOp(by: peer.publicKey, [4, 5, 6])
        await nextIngestStores([op])
        let delivered = Delivered()
        let pump = deliver(into: delivered)
        defer { pump.cancel() }
        _ = await replicator.received(opsMessage(op), from: peer.publicKey)
        for _ in 0..<200 where delivered.to(older.publicKey).isEmpty || delivered.to(smaller.publicKey).isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(50))
        let toldSmaller = delivered.to(smaller.publicKey)
        #expect(toldSmaller.count == 1)
        #expect(told(toldSmaller.first?.kind)?.ids == [Data(id(op))])
        #expect(told(toldSmaller.first?.kind)?.doc == Data(doc.bytes))
        #expect(delivered.to(larger.publicKey).map(\.ops.ops) == [[Data(op.encoded)]])
        #expect(delivered.to(older.publicKey).map(\.ops.ops) == [[Data(op.encoded)]])
        #expect(delivered.to(peer.publicKey).isEmpty)
    }

    @Test("an OpsHave is answered with an OpsWant of the ids not held, and ops it named are not relayed to its sender")
    func toldOpsAreWantedOnceAndNotSentBack() async throws {
        let other = try SigningKeyPair()
        await host.addParticipant(other.publicKey)
        let held = fakeOp(by: other.publicKey, [1])
        await host.append(held.encoded, author: other.publicKey.hex, seq: 1)
        let lacking = fakeOp(by: other.publicKey, seq: 2, [2])
        for who in [peer, other] {
            await connect(who.publicKey, features: [Replicator.haveFeature])
            _ = await replicator.received(offer([:], reply: false), from: who.publicKey)
        }
        let answer = await replicator.received(have([id(held), id(lacking)]), from: peer.publicKey)
        #expect(answer.count == 1)
        #expect(told(answer.first?.kind)?.ids == [Data(id(lacking))])
        if case .opsWant = answer.first?.kind {} else { Issue.record("expected an OpsWant, got \(answer)") }

        // The op then arrives from `other`: relayed to nobody, since `peer` said it holds it.
        await nextIngestStores([lacking], before: VersionVector([other.publicKey.hex: 1]))
        let delivered = try await relay(lacking, from: other.publicKey, markedTo: peer.publicKey)
        #expect(delivered.to(peer.publicKey).allSatisfy { $0.ops.ops.isEmpty })
        #expect(delivered.to(peer.publicKey).count == 1)

        // Told ids of a document not held, or by a stranger, are ignored.
        let notHeld = try #require(DocumentID(bytes: [UInt8](repeating: 1, count: 16)))
        #expect(await replicator.received(have([id(lacking)], doc: notHeld), from: peer.publicKey).isEmpty)
        let stranger = try SigningKeyPair()
        await connect(stranger.publicKey, features: [Replicator.haveFeature])
        #expect(await replicator.received(have([id(lacking)]), from: stranger.publicKey).isEmpty)
    }

    @Test("an OpsWant is answered with the ops held, only to a participant that offered the document, within bounds")
    func wantsAreAnsweredWithinBounds() async throws {
        let op = fakeOp(by: me.publicKey, [9])
        await host.append(op.encoded, author: me.publicKey.hex, seq: 1)
        let unknown = [UInt8](repeating: 3, count: 32)
        await connect(peer.publicKey, features: [Replicator.haveFeature])
        // Before the peer offered the document in this session: nothing.
        #expect(await replicator.received(want([id(op)]), from: peer.publicKey).isEmpty)
        _ = await replicator.received(offer([:], reply: false), from: peer.publicKey)
        let answer = await replicator.received(want([unknown, id(op)]), from: peer.publicKey)
        #expect(answer.map(\.ops.ops) == [[Data(op.encoded)]])
        // Out of bounds: no id, one id of 31 bytes, more than maxToldIDs ids.
        #expect(await replicator.received(want([]), from: peer.publicKey).isEmpty)
        #expect(await replicator.received(want([Array(id(op).dropLast())]), from: peer.publicKey).isEmpty)
        let tooMany = [[UInt8]](repeating: id(op), count: Replicator.maxToldIDs + 1)
        #expect(await replicator.received(want(tooMany), from: peer.publicKey).isEmpty)
        #expect(await replicator.received(have(tooMany), from: peer.publicKey).isEmpty)
        // A stranger, even one that offers: nothing.
        let stranger = try SigningKeyPair()
        await connect(stranger.publicKey, features: [Replicator.haveFeature])
        _ = await replicator.received(offer([:], reply: false), from: stranger.publicKey)
        #expect(await replicator.received(want([id(op)]), from: stranger.publicKey).isEmpty)
    }

    @Test("an op is never relayed to its own author")
    func opsAreNotRelayedToTheirAuthor() async throws {
        let author = try SigningKeyPair()
        let third = try SigningKeyPair()
        for who in [author, third] { await host.addParticipant(who.publicKey) }
        for who in [peer, author, third] {
            await connect(who.publicKey)
            _ = await replicator.received(offer([:], reply: false), from: who.publicKey)
        }
        // `peer` passes on an op `author` wrote (it reached `peer` first).
        let op = fakeOp(by: author.publicKey, [5])
        await nextIngestStores([op])
        let delivered = try await relay(op, from: peer.publicKey, markedTo: author.publicKey)
        #expect(delivered.to(third.publicKey).map(\.ops.ops) == [[Data(op.encoded)]])
        #expect(delivered.to(author.publicKey).allSatisfy { $0.ops.ops.isEmpty })
    }

    @Test("the ids remembered per peer are bounded, the oldest forgotten first")
    func heldIDsAreBounded() {
        var ids = RecentIDs(capacity: 3)
        for byte in UInt8(0)..<5 { ids.insert([byte]) }
        ids.insert([4])
        #expect(!ids.contains([0]) && !ids.contains([1]))
        #expect(ids.contains([2]) && ids.contains([3]) && ids.contains([4]))
    }
}
