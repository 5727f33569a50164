import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// The opening summary in the replicator (`Protocol/sync.md` §7): a session with a peer that
/// takes `summary/1` opens with a summary instead of an offer per covered document, and
/// offers only the documents of the buckets the peer's summary disagrees on.
extension ReplicatorTests {
    /// 300 more documents, spread over the buckets (first bytes 0…149, twice each), all covered.
    func shareAndSummarize(covered: Bool = true) async -> [DocumentID] {
        let more = (0..<300).map { i in
            DocumentID(bytes: [UInt8(i % 150), UInt8(i / 150)] + [UInt8](repeating: 3, count: 14))!
        }
        await host.share(more)
        await host.summarize(covered ? [doc] + more : nil)
        return [doc] + more
    }

    func connectTakingSummaries() async -> [Places_Sync_V1_SyncMessage] {
        var hello = Places_Sync_V1_Hello()
        hello.protocolVersion = 1
        hello.features = [OpeningSummary.feature]
        return await replicator.sessionOpened(with: peer.publicKey, hello: hello, address: "127.0.0.1")
    }

    func offered(_ messages: [Places_Sync_V1_SyncMessage]) -> Set<Data> {
        Set(messages.compactMap { if case .offer(let offer) = $0.kind { offer.doc } else { nil } })
    }

    /// The peer's summary of `docs`, `doc` at `vector`.
    func summary(of docs: [DocumentID], vector: VersionVector) -> Places_Sync_V1_SyncMessage {
        let entries = docs.map {
            OpeningSummary.Entry(
                doc: $0, vector: $0 == doc ? vector : VersionVector(), grantEpoch: 0, grantMembers: [], access: nil)
        }
        var message = Places_Sync_V1_SyncMessage()
        message.summary.buckets = OpeningSummary(entries).hashes.map { Data($0) }
        return message
    }

    @Test("a peer whose summary agrees is sent no offer, and every covered document counts as in sync")
    func agreeingSummarySendsNothing() async throws {
        let author = me.publicKey.hex
        await host.append([1], author: author, seq: 1)
        let docs = await shareAndSummarize()
        let opening = await connectTakingSummaries()
        let first = try #require(opening.first)
        guard case .summary(let mine) = first.kind else {
            Issue.record("the opening does not start with a summary: \(opening)")
            return
        }
        #expect(mine.buckets.count == 256 && mine.buckets.allSatisfy { $0.count == 16 })
        #expect(offered(opening).isEmpty, "covered documents wait for the peer's summary")
        let answer = await replicator.received(
            summary(of: docs, vector: VersionVector([author: 1])), from: peer.publicKey)
        #expect(answer.isEmpty)
        let vectors = await replicator.peerVectors(of: peer.publicKey)
        #expect(vectors.count == 301)
        #expect(vectors[doc] == VersionVector([author: 1]))
        // A second summary in the session is ignored.
        let again = await replicator.received(summary(of: [], vector: VersionVector()), from: peer.publicKey)
        #expect(again.isEmpty)
    }

    @Test("a peer whose summary differs in one bucket is offered that bucket's documents only")
    func differingBucketIsOffered() async throws {
        let author = me.publicKey.hex
        await host.append([1], author: author, seq: 1)
        let docs = await shareAndSummarize()
        _ = await connectTakingSummaries()
        // The peer holds one more op of `doc` (bucket 7): that bucket's three documents are offered.
        let answer = await replicator.received(
            summary(of: docs, vector: VersionVector([author: 2])), from: peer.publicKey)
        let bucket = Set(docs.filter { $0.bytes[0] == doc.bytes[0] }.map { Data($0.bytes) })
        #expect(bucket.count == 3)
        #expect(offered(answer) == bucket)
        #expect(await replicator.peerVectors(of: peer.publicKey).count == 298, "the agreeing 298 count as offered")
    }

    @Test("a summary out of bounds agrees on nothing: every covered document is offered")
    func malformedSummaryOffersAll() async throws {
        let docs = await shareAndSummarize()
        _ = await connectTakingSummaries()
        var bad = Places_Sync_V1_SyncMessage()
        bad.summary.buckets = Array(repeating: Data(repeating: 0, count: 16), count: 10)
        let answer = await replicator.received(bad, from: peer.publicKey)
        #expect(offered(answer) == Set(docs.map { Data($0.bytes) }))
        #expect(await replicator.peerVectors(of: peer.publicKey).isEmpty)
    }

    @Test(
        "a host that summarizes nothing sends an empty summary and offers everything; a peer without summary/1 gets offers alone"
    )
    func noSummary() async throws {
        let docs = await shareAndSummarize(covered: false)
        let opening = await connectTakingSummaries()
        guard case .summary(let mine)? = opening.first?.kind else {
            Issue.record("the opening does not start with a summary: \(opening)")
            return
        }
        #expect(mine.buckets.isEmpty)
        #expect(offered(opening) == Set(docs.map { Data($0.bytes) }))
        // The peer's summary then changes nothing.
        #expect(await replicator.received(summary(of: docs, vector: VersionVector()), from: peer.publicKey).isEmpty)

        let other = try SigningKeyPair()
        await host.addParticipant(other.publicKey)
        await host.summarize(docs)
        let plain = await connect(other.publicKey)
        #expect(!plain.contains { if case .summary = $0.kind { true } else { false } })
        #expect(offered(plain) == Set(docs.map { Data($0.bytes) }))
    }
}
