import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// The transport reads the next message while a batch of ops is handled, and verifies the
/// signatures of a next batch of ops ahead (`VerifiedOps`), without changing what the
/// delegate sees or in which order. Verifying ahead runs in idle time only (`SCHED_IDLE`):
/// `scripts/test.sh` runs this suite in the transport step, beside few other tests.
@Suite("Ops verified ahead by the transport")
struct VerifyAheadTests {
    let author: SigningKeyPair
    let doc = DocumentID(bytes: [UInt8](repeating: 5, count: 16))!

    init() throws { author = try SigningKeyPair() }

    /// An op of `author`, signed.
    func op(_ seq: UInt64) -> (encoded: [UInt8], id: [UInt8], signature: [UInt8]) {
        let header = OpHeader(doc: doc, author: author.publicKey.bytes, seq: seq, deps: [], lamport: seq, epoch: 0)
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: Array("op \(seq)".utf8))
        let signature = author.sign(signed).bytes
        return (signed + signature, Blake2b.hash256(signed), signature)
    }

    @Test("a batch verified in the background is kept; a cancelled one stops")
    func background() async {
        let cache = VerifiedOps(capacity: 64)
        let ops = (1...10).map { op(UInt64($0)) }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            cache.verifyInBackground(ops.map(\.encoded), ahead: VerifiedOps.Ahead()) { done.resume() }
        }
        #expect(ops.allSatisfy { cache.holds(id: $0.id, signature: $0.signature) })

        let cancelled = VerifiedOps.Ahead()
        cancelled.cancel()
        let later = (11...20).map { op(UInt64($0)) }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            cache.verifyInBackground(later.map(\.encoded), ahead: cancelled) { done.resume() }
        }
        #expect(later.allSatisfy { !cache.holds(id: $0.id, signature: $0.signature) })
    }

    @Test("while a batch of ops is handled, the next one's signatures are verified ahead; order is kept")
    func nextBatchVerifiedAhead() async throws {
        let first = (1...20).map { op(UInt64($0)) }
        let second = (21...60).map { op(UInt64($0)) }
        func message(_ ops: [(encoded: [UInt8], id: [UInt8], signature: [UInt8])]) -> Places_Sync_V1_SyncMessage {
            var message = Places_Sync_V1_SyncMessage()
            message.ops.doc = Data(doc.bytes)
            message.ops.ops = ops.map { Data($0.encoded) }
            return message
        }
        let alice = try AheadDelegate(waitingFor: second.map { ($0.id, $0.signature) })
        let bob = try RecordingDelegate(name: "Bob")
        try await withService(alice) { _, alicePort in
            try await withService(bob) { bobService, _ in
                await bobService.addPeer(host: "127.0.0.1", port: alicePort)
                #expect(await eventually { await bobService.connectedPeers().count == 1 })
                // Both batches leave at once; Alice handles the first until the second is
                // verified ahead.
                await bobService.send([message(first), message(second)], to: alice.key)
                #expect(await eventually(within: .seconds(40)) { await alice.handled.count == 2 })
            }
        }
        #expect(await alice.handled == [20, 40])
        #expect(await alice.secondVerifiedWhileFirstHandled)
        // The first batch had nothing before it to be read ahead of.
        #expect(await alice.firstVerifiedAhead == 0)
    }
}

/// Handles its first batch of ops only once the ops it waits for were verified ahead (or 30 s).
actor AheadDelegate: SyncDelegate {
    nonisolated let key: PublicKey
    private let identity: SigningKeyPair
    private let waitingFor: [(id: [UInt8], signature: [UInt8])]
    private(set) var handled: [Int] = []
    private(set) var secondVerifiedWhileFirstHandled = false
    private(set) var firstVerifiedAhead = -1

    init(waitingFor: [(id: [UInt8], signature: [UInt8])]) throws {
        identity = try SigningKeyPair()
        key = identity.publicKey
        self.waitingFor = waitingFor
    }

    func syncIdentity() async -> SigningKeyPair? { identity }
    func syncDisplayName() async -> String { "Alice" }
    func sessionOpened(with peer: PublicKey, hello: Places_Sync_V1_Hello, address: String, handshakeHash: [UInt8])
        async -> [Places_Sync_V1_SyncMessage]
    { [] }
    func sessionClosed(with peer: PublicKey, reason: String) async {}

    func received(_ message: Places_Sync_V1_SyncMessage, from peer: PublicKey) async -> [Places_Sync_V1_SyncMessage] {
        guard case .ops(let batch) = message.kind else { return [] }
        if handled.isEmpty {
            firstVerifiedAhead =
                batch.ops.filter { bytes in
                    guard let op = try? SignedOp(decoding: [UInt8](bytes)) else { return false }
                    return VerifiedOps.shared.holds(id: Blake2b.hash256(op.signedBytes), signature: op.signature)
                }.count
            let waitingFor = waitingFor
            secondVerifiedWhileFirstHandled = await eventually(within: .seconds(30)) {
                waitingFor.allSatisfy { VerifiedOps.shared.holds(id: $0.id, signature: $0.signature) }
            }
        }
        handled.append(batch.ops.count)
        return []
    }
}
