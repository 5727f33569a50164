import Foundation
import Logging
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// The replicator's own rules, over an in-memory host: bounds on what a peer's offer can
/// make this daemon do, rounds in send windows, and the one outbound path. The real-process
/// suites (SyncTests, HostilePeerTests) prove the whole exchange end to end.
@Suite("Replicator")
struct ReplicatorTests {
    let me: SigningKeyPair
    let peer: SigningKeyPair
    let doc = DocumentID(bytes: Array(repeating: 7, count: 16))!
    let host: FakeReplicationHost
    let replicator = Replicator(logger: Logger(label: "places.replicator.tests") { _ in SwiftLogNoOpLogHandler() })

    init() async throws {
        me = try SigningKeyPair()
        peer = try SigningKeyPair()
        host = FakeReplicationHost(identity: me, doc: doc, participants: [peer.publicKey])
        await replicator.attach(host)
    }

    /// Opens a session with `peer` and returns what the replicator sends first.
    @discardableResult
    func connect(_ who: PublicKey) async -> [Places_Sync_V1_SyncMessage] {
        var hello = Places_Sync_V1_Hello()
        hello.protocolVersion = 1
        return await replicator.sessionOpened(with: who, hello: hello, address: "127.0.0.1")
    }

    func offer(_ vector: [String: UInt64], reply: Bool, grants: [KeyGrant] = []) -> Places_Sync_V1_SyncMessage {
        var offer = Places_Sync_V1_DocOffer()
        offer.doc = Data(doc.bytes)
        offer.owner = Data(me.publicKey.bytes)
        offer.vector = vector.keys.sorted().map { author in
            var entry = Places_Sync_V1_VersionEntry()
            entry.author = Data(HexCoding.decode(author) ?? [])
            entry.seq = vector[author] ?? 0
            return entry
        }
        offer.grants = grants.map(Replicator.wire)
        offer.reply = reply
        var message = Places_Sync_V1_SyncMessage()
        message.offer = offer
        return message
    }

    func opsCount(_ messages: [Places_Sync_V1_SyncMessage]) -> Int {
        messages.reduce(0) { count, message in
            if case .ops(let batch) = message.kind { return count + batch.ops.count }
            return count
        }
    }

    @Test("a session opens with an offer of each shared document")
    func opensWithOffers() async {
        let opening = await connect(peer.publicKey)
        #expect(opening.count == 1)
        #expect(opening.first?.offer.doc == Data(doc.bytes))
    }

    @Test("thousands of shared documents open a session in slices of offers, each sent on the Pong to the last")
    func openingOffersInSlices() async {
        let more = (0..<1_299).map { i in
            DocumentID(bytes: [UInt8](repeating: 1, count: 14) + [UInt8(i >> 8), UInt8(i & 255)])!
        }
        await host.share(more)
        func offered(_ messages: [Places_Sync_V1_SyncMessage]) -> [Data] {
            messages.compactMap { if case .offer(let offer) = $0.kind { offer.doc } else { nil } }
        }
        func ping(_ messages: [Places_Sync_V1_SyncMessage]) -> UInt64? {
            messages.last.flatMap { if case .ping(let ping) = $0.kind { ping.nonce } else { nil } }
        }
        var sent = [Data]()
        var batch = await connect(peer.publicKey)
        var slices = [offered(batch).count]
        sent += offered(batch)
        while let nonce = ping(batch) {
            // Any other Pong (a keepalive's, a guess) sends nothing.
            #expect(await replicator.pong(nonce &+ 1, from: peer.publicKey).isEmpty)
            batch = await replicator.pong(nonce, from: peer.publicKey)
            slices.append(offered(batch).count)
            sent += offered(batch)
        }
        #expect(slices == [512, 512, 276])
        #expect(Set(sent) == Set(([doc] + more).map { Data($0.bytes) }))
        #expect(sent.count == 1_300)
    }

    @Test("an offer is answered with what the peer lacks, no more than maxInFlightBytes unacknowledged")
    func roundsAreBounded() async {
        let author = me.publicKey.hex
        for seq in 1...12 {
            await host.append(Array(repeating: UInt8(seq), count: 1_000_000), author: author, seq: UInt64(seq))
        }
        await connect(peer.publicKey)
        let first = await replicator.received(offer([:], reply: false), from: peer.publicKey)
        #expect(first.first?.offer.reply == true)
        let sent = opsCount(first)
        #expect(sent > 0 && sent * 1_000_000 <= Replicator.maxRoundBytes + 1_000_000)
        // The peer pulls again without holding anything new: the round in flight fills the window.
        let again = await replicator.received(offer([:], reply: true), from: peer.publicKey)
        #expect(opsCount(again) == 0)
        // It acknowledges the round: the next one goes.
        let next = await replicator.received(offer([author: UInt64(sent)], reply: true), from: peer.publicKey)
        #expect(opsCount(next) > 0)
        if case .ops(let batch) = next.first?.kind { #expect(batch.ops.first?.first == UInt8(sent + 1)) }
    }

    @Test("an offer naming more than maxVectorEntries authors, or a seq out of range, is ignored")
    func malformedOffersIgnored() async {
        await connect(peer.publicKey)
        var huge = [String: UInt64]()
        for index in 0...Replicator.maxVectorEntries {
            var bytes = [UInt8](repeating: 0, count: 32)
            bytes[0] = UInt8(index & 0xff)
            bytes[1] = UInt8(index >> 8)
            huge[HexCoding.encode(bytes)] = 1
        }
        #expect(await replicator.received(offer(huge, reply: false), from: peer.publicKey).isEmpty)
        let tooFar = offer([peer.publicKey.hex: Replicator.maxOfferedSeq + 1], reply: false)
        #expect(await replicator.received(tooFar, from: peer.publicKey).isEmpty)
        #expect(await replicator.peerVectors(of: peer.publicKey).isEmpty)
    }

    @Test("a peer that is not a participant learns nothing from its offer")
    func strangersLearnNothing() async throws {
        await host.append([1, 2, 3], author: me.publicKey.hex, seq: 1)
        let stranger = try SigningKeyPair()
        await connect(stranger.publicKey)
        #expect(await replicator.received(offer([:], reply: false), from: stranger.publicKey).isEmpty)
    }

    @Test("at most maxGrantsPerOffer grants of one offer are handed on to be verified")
    func grantsAreBounded() async {
        await connect(peer.publicKey)
        let grants = (0..<100).map { index in
            KeyGrant(
                doc: doc, epoch: 1, member: peer.publicKey.bytes, sealedKey: [1], issuer: me.publicKey.bytes,
                signature: [UInt8(index)])
        }
        _ = await replicator.received(offer([:], reply: false, grants: grants), from: peer.publicKey)
        let kept = await host.kept
        #expect(kept.count == 1)
        #expect(kept.first?.count == Replicator.maxGrantsPerOffer)
    }

    @Test("a missing dependency with everything offered held pulls the whole log once per session")
    func fullPullOnce() async {
        let author = peer.publicKey.hex
        await host.append([9], author: author, seq: 1)
        await connect(peer.publicKey)
        _ = await replicator.received(offer([author: 1], reply: false), from: peer.publicKey)
        await host.setNextIngest(
            IngestOutcome(
                before: nil, stored: [], refusal: .missingDependency, participantsBefore: [], participantsAfter: []))
        var batch = Places_Sync_V1_OpsBatch()
        batch.doc = Data(doc.bytes)
        batch.ops = [Data([1, 2, 3])]
        var message = Places_Sync_V1_SyncMessage()
        message.ops = batch
        let first = await replicator.received(message, from: peer.publicKey)
        #expect(first.count == 1 && first.first?.offer.vector.isEmpty == true)
        let second = await replicator.received(message, from: peer.publicKey)
        #expect(second.count == 1 && second.first?.offer.vector.count == 1)
    }

    @Test("a local commit leaves through the outbound path to the connected participants")
    func localCommitsGoOut() async throws {
        await connect(peer.publicKey)
        _ = await replicator.received(offer([:], reply: false), from: peer.publicKey)
        let header = OpHeader(doc: doc, author: me.publicKey.bytes, seq: 1, deps: [], lamport: 1, epoch: 0)
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: [1, 2, 3])
        let op = SignedOp(
            header: header, ciphertext: [1, 2, 3], signature: [UInt8](repeating: 0, count: 64), signedBytes: signed)
        await host.append(op.encoded, author: me.publicKey.hex, seq: 1)
        let delivered = Delivered()
        let pump = Task { await replicator.run { messages, to in delivered.record(messages, to: to) } }
        defer { pump.cancel() }
        replicator.committed(
            LocalCommit(ops: [op], doc: doc, recipients: [peer.publicKey], before: VersionVector([:])))
        for _ in 0..<200 where delivered.to(peer.publicKey).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let got = delivered.to(peer.publicKey)
        #expect(got.count == 1)
        #expect(got.first?.ops.ops == [Data(op.encoded)])
    }

    @Test("ops received from one participant are relayed to the others through the same outbound path")
    func relaysGoOut() async throws {
        let other = try SigningKeyPair()
        await host.addParticipant(other.publicKey)
        for who in [peer.publicKey, other.publicKey] {
            await connect(who)
            _ = await replicator.received(offer([:], reply: false), from: who)
        }
        let header = OpHeader(doc: doc, author: peer.publicKey.bytes, seq: 1, deps: [], lamport: 1, epoch: 0)
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: [4, 5, 6])
        let op = SignedOp(
            header: header, ciphertext: [4, 5, 6], signature: [UInt8](repeating: 0, count: 64), signedBytes: signed)
        await nextIngestStores([op])
        let delivered = Delivered()
        let pump = deliver(into: delivered)
        defer { pump.cancel() }
        var batch = Places_Sync_V1_OpsBatch()
        batch.doc = Data(doc.bytes)
        batch.ops = [Data(op.encoded)]
        var message = Places_Sync_V1_SyncMessage()
        message.ops = batch
        _ = await replicator.received(message, from: peer.publicKey)
        for _ in 0..<200 where delivered.to(other.publicKey).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(delivered.to(other.publicKey).map(\.ops.ops) == [[Data(op.encoded)]])
        // Not back to the peer it came from.
        #expect(delivered.to(peer.publicKey).isEmpty)
    }

    @Test("ops a peer wrote and sent are never sent back to it in a round when a later op is relayed to it")
    func opsFromAPeerAreNotSentBack() async throws {
        // This daemon sits in a line between `peer` and `other`. A round of its own op is in
        // flight to `peer`, which holds everything and never pulls again (so it never says so).
        let other = try SigningKeyPair()
        await host.addParticipant(other.publicKey)
        await host.append([1], author: me.publicKey.hex, seq: 1)
        for who in [peer.publicKey, other.publicKey] {
            await connect(who)
            _ = await replicator.received(offer([:], reply: false), from: who)
        }
        let participants = await host.participants
        let delivered = Delivered()
        let pump = Task { await replicator.run { messages, to in delivered.record(messages, to: to) } }
        defer { pump.cancel() }
        // `peer` sends an op it wrote; it is stored and relayed to `other`.
        let theirs = fakeOp(by: peer.publicKey, [4, 5, 6])
        await host.append(theirs.encoded, author: peer.publicKey.hex, seq: 1)
        await host.setNextIngest(
            IngestOutcome(
                before: VersionVector([me.publicKey.hex: 1]), stored: [theirs], refusal: nil,
                participantsBefore: participants, participantsAfter: participants))
        _ = await replicator.received(opsMessage(theirs), from: peer.publicKey)
        // Then `other` sends an op that follows it: it is relayed to `peer`.
        let next = fakeOp(by: other.publicKey, [7, 8, 9])
        await host.append(next.encoded, author: other.publicKey.hex, seq: 1)
        await host.setNextIngest(
            IngestOutcome(
                before: VersionVector([me.publicKey.hex: 1, peer.publicKey.hex: 1]), stored: [next], refusal: nil,
                participantsBefore: participants, participantsAfter: participants))
        _ = await replicator.received(opsMessage(next), from: other.publicKey)
        for _ in 0..<200 where delivered.to(peer.publicKey).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(50))
        // Only the new op goes to `peer`: not its own op back in a round.
        #expect(delivered.to(peer.publicKey).map(\.ops.ops) == [[Data(next.encoded)]])
    }

    /// The host's next ingest stores `ops`, `before` held before them; participants unchanged.
    func nextIngestStores(_ ops: [SignedOp], before: VersionVector = VersionVector()) async {
        let participants = await host.participants
        await host.setNextIngest(
            IngestOutcome(
                before: before, stored: ops, refusal: nil, participantsBefore: participants,
                participantsAfter: participants))
    }

    /// Drains the outbound path into `delivered` until the task is cancelled.
    func deliver(into delivered: Delivered) -> Task<Void, Never> {
        Task { await replicator.run { messages, to in delivered.record(messages, to: to) } }
    }

    /// An op of `author`'s at `seq` (its signature is never checked here: the host is fake).
    func fakeOp(by author: PublicKey, seq: UInt64 = 1, _ body: [UInt8]) -> SignedOp {
        let header = OpHeader(doc: doc, author: author.bytes, seq: seq, deps: [], lamport: seq, epoch: 0)
        return SignedOp(
            header: header, ciphertext: body, signature: [UInt8](repeating: 0, count: 64),
            signedBytes: SignedOp.encodeSignedBytes(header: header, ciphertext: body))
    }

    func opsMessage(_ op: SignedOp) -> Places_Sync_V1_SyncMessage {
        var batch = Places_Sync_V1_OpsBatch()
        batch.doc = Data(doc.bytes)
        batch.ops = [Data(op.encoded)]
        var message = Places_Sync_V1_SyncMessage()
        message.ops = batch
        return message
    }
}
