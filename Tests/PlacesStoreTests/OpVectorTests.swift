import Foundation
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesModel

/// Checks the Swift op codec, signatures, op ids, body encryption, merge rules and human ids
/// against `Protocol/vectors/op/op-vectors.json`, which an independent Python reference
/// (`op_vectors_reference.py`) generated from `Protocol/op-format.md`.
struct OpVectorTests {
    struct Vectors: Decodable {
        struct Author: Decodable {
            var name: String
            var seed: String
            var publicKey: String
            var secretKey: String
            var humanId: String
        }
        struct Document: Decodable {
            var id: String
            var epoch: UInt32
            var key: String
        }
        struct Header: Decodable {
            var doc: String
            var author: String
            var seq: UInt64
            var lamport: UInt64
            var epoch: UInt32
            var deps: [String]
        }
        struct Op: Decodable {
            var name: String
            var header: Header
            var nonce: String
            var plaintext: String
            var associatedData: String
            var ciphertext: String
            var signedBytes: String
            var signature: String
            var encoded: String
            var id: String
        }
        struct EntityExpectation: Decodable {
            var kind: EntityKind
            var fields: [String: JSONValue]
        }
        var authors: [Author]
        var document: Document
        var ops: [Op]
        var heads: [String]
        var state: [String: EntityExpectation]
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/op/op-vectors.json")
        do {
            return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    static func bytes(_ hex: String) -> [UInt8] {
        guard let raw = HexCoding.decode(hex) else { fatalError("bad hex in the vectors: \(hex.prefix(16))…") }
        return raw
    }

    @Test(arguments: vectors.ops.map(\.name))
    func opMatchesVector(_ name: String) throws {
        let v = try #require(Self.vectors.ops.first { $0.name == name })
        let op = try SignedOp(decoding: Self.bytes(v.encoded))

        #expect(op.header.doc.hex == v.header.doc)
        #expect(HexCoding.encode(op.header.author) == v.header.author)
        #expect(op.header.seq == v.header.seq)
        #expect(op.header.lamport == v.header.lamport)
        #expect(op.header.epoch == v.header.epoch)
        #expect(op.header.deps.map { HexCoding.encode($0) } == v.header.deps)
        #expect(op.ciphertext == Self.bytes(v.ciphertext))
        #expect(Array(op.ciphertext.prefix(SecretBox.nonceBytes)) == Self.bytes(v.nonce))
        #expect(op.signature == Self.bytes(v.signature))
        #expect(op.signedBytes == Self.bytes(v.signedBytes))
        #expect(op.encoded == Self.bytes(v.encoded))

        // Re-encoding the parsed header reproduces the signed bytes exactly.
        #expect(SignedOp.encodeSignedBytes(header: op.header, ciphertext: op.ciphertext) == Self.bytes(v.signedBytes))

        let author = try PublicKey(bytes: op.header.author)
        #expect(author.verify(try Signature(bytes: op.signature), for: op.signedBytes))
        #expect(Blake2b.hash256(op.signedBytes) == Self.bytes(v.id))

        let ad = OpCrypto.associatedData(op.header)
        #expect(ad == Self.bytes(v.associatedData))
        let plaintext = try SecretBox.open(
            op.ciphertext, key: Self.bytes(Self.vectors.document.key), associatedData: ad)
        #expect(plaintext == Array(v.plaintext.utf8))
        let body = try JSONDecoder().decode(OpBody.self, from: Data(plaintext))
        #expect(!body.changes.isEmpty)
    }

    @Test(arguments: vectors.ops.map(\.name))
    func tamperingIsDetected(_ name: String) throws {
        let v = try #require(Self.vectors.ops.first { $0.name == name })
        let op = try SignedOp(decoding: Self.bytes(v.encoded))
        let author = try PublicKey(bytes: op.header.author)
        var flipped = op.signedBytes
        flipped[flipped.count - 1] ^= 0x01
        #expect(!author.verify(try Signature(bytes: op.signature), for: flipped))
        #expect(Blake2b.hash256(flipped) != Self.bytes(v.id))

        // The body is bound to its header: under another seq it does not open.
        var other = op.header
        other.seq += 1
        #expect(throws: CryptoError.self) {
            try SecretBox.open(
                op.ciphertext, key: Self.bytes(Self.vectors.document.key),
                associatedData: OpCrypto.associatedData(other))
        }
    }

    @Test func depsNameEarlierOps() throws {
        let ops = Self.vectors.ops
        let ids = Set(ops.map(\.id))
        for op in ops { #expect(op.header.deps.allSatisfy(ids.contains)) }
        let referenced = Set(ops.flatMap(\.header.deps))
        #expect(ops.map(\.id).filter { !referenced.contains($0) }.sorted() == Self.vectors.heads)
    }

    @Test func mergedStateMatches() throws {
        var state = DocumentState()
        // Any order of the same ops gives the same state; apply them newest first.
        for v in Self.vectors.ops.reversed() {
            let op = try SignedOp(decoding: Self.bytes(v.encoded))
            let plaintext = try SecretBox.open(
                op.ciphertext, key: Self.bytes(Self.vectors.document.key),
                associatedData: OpCrypto.associatedData(op.header))
            let body = try JSONDecoder().decode(OpBody.self, from: Data(plaintext))
            state.apply(lamport: op.header.lamport, author: op.header.authorKey, changes: body.changes)
        }
        #expect(state.entities.count == Self.vectors.state.count)
        for (id, expected) in Self.vectors.state {
            let entity = try #require(state.entities[id])
            #expect(entity.kind == expected.kind)
            #expect(entity.fields == expected.fields)
        }
    }

    @Test func humanIDsMatch() throws {
        for a in Self.vectors.authors {
            let pair = try SigningKeyPair(secretKey: Self.bytes(a.secretKey))
            #expect(pair.publicKey.hex == a.publicKey)
            #expect(pair.publicKey.humanID == a.humanId)
            #expect(try HumanID.decode(a.humanId) == pair.publicKey)
            #expect(
                try HumanID.decode(a.humanId.lowercased().replacingOccurrences(of: "-", with: " ")) == pair.publicKey)
            #expect(try HumanID.decode(a.publicKey) == pair.publicKey)
        }
    }
}
