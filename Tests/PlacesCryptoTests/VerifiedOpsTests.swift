import PlacesCrypto
import PlacesModel
import Synchronization
import Testing

/// Ops verified ahead of their batch's ingest: only what verified is kept, it is taken once
/// and only with the same signature, and what is kept is bounded.
@Suite("Ops verified ahead")
struct VerifiedOpsTests {
    let author: SigningKeyPair
    let doc = DocumentID(bytes: [UInt8](repeating: 9, count: 16))!

    init() throws { author = try SigningKeyPair() }

    /// An op of `author`, signed (or with its signature's byte 10 flipped when `forged`).
    func op(seq: UInt64, forged: Bool = false) -> (encoded: [UInt8], id: [UInt8], signature: [UInt8]) {
        let header = OpHeader(doc: doc, author: author.publicKey.bytes, seq: seq, deps: [], lamport: seq, epoch: 0)
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: Array("body \(seq)".utf8))
        var signature = author.sign(signed).bytes
        if forged { signature[10] ^= 0x01 }
        return (signed + signature, Blake2b.hash256(signed), signature)
    }

    @Test("a verified op is taken once, and only with the signature that verified")
    func takenOnceWithItsSignature() {
        let cache = VerifiedOps(capacity: 16)
        let good = op(seq: 1)
        cache.verify(good.encoded)
        var other = good.signature
        other[0] ^= 0x80
        #expect(!cache.take(id: good.id, signature: other))
        #expect(cache.take(id: good.id, signature: good.signature))
        #expect(!cache.take(id: good.id, signature: good.signature))
    }

    @Test("an op whose signature fails, or whose bytes are not an op, is not kept")
    func failuresAreNotKept() {
        let cache = VerifiedOps(capacity: 16)
        let forged = op(seq: 1, forged: true)
        cache.verify(forged.encoded)
        cache.verify(Array(forged.encoded.dropLast()))
        cache.verify([])
        #expect(cache.count == 0)
        #expect(!cache.take(id: forged.id, signature: forged.signature))
    }

    @Test("at most `capacity` ops are kept, the oldest dropped first")
    func bounded() {
        let cache = VerifiedOps(capacity: 4)
        let ops = (1...6).map { op(seq: UInt64($0)) }
        for op in ops { cache.verify(op.encoded) }
        #expect(cache.count == 4)
        #expect(!cache.holds(id: ops[0].id, signature: ops[0].signature))
        #expect(!cache.holds(id: ops[1].id, signature: ops[1].signature))
        #expect(ops[2...].allSatisfy { cache.holds(id: $0.id, signature: $0.signature) })
        // Taken entries free their place; the ring still drops in order.
        #expect(cache.take(id: ops[2].id, signature: ops[2].signature))
        cache.verify(op(seq: 7).encoded)
        cache.verify(op(seq: 8).encoded)
        #expect(cache.count <= 4)
        #expect(cache.holds(id: op(seq: 8).id, signature: op(seq: 8).signature))
    }
}
