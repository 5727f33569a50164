import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

/// The keyless join exchange against `Protocol/vectors/capabilities/join-proof-vectors.json`
/// (made by the independent `join_proof_reference.py` from `capabilities.md` §4.1).
@Suite("Join proof vectors")
struct JoinProofTests {
    struct Vectors: Decodable {
        struct Vector: Decodable {
            var token: String
            var redactedToken: String
            var nonce: String
            var joiner: String
            var holder: String
            var owner: String
            var admitProof: String
            var refuseProof: String
        }
        var vectors: [Vector]
    }

    static let vectors: [Vectors.Vector] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/capabilities/join-proof-vectors.json")
        guard let data = try? Data(contentsOf: url), let decoded = try? JSONDecoder().decode(Vectors.self, from: data)
        else { return [] }
        return decoded.vectors
    }()

    static func bytes(_ hex: String) -> [UInt8] { HexCoding.decode(hex) ?? [] }

    @Test("the vectors are there") func present() { #expect(Self.vectors.count == 2) }

    @Test("redacting a token zeroes exactly its key; the holder's key makes it verify again", arguments: vectors)
    func redaction(_ v: Vectors.Vector) throws {
        let token = try #require(
            TokenVectorTests.vectors.tokens.first { $0.name == v.token }.map {
                try CapabilityToken(decoding: TokenVectorTests.bytes($0.encoded))
            })
        #expect(token.redacted.encoded == Self.bytes(v.redactedToken))
        let presented = try CapabilityToken(decoding: Self.bytes(v.redactedToken))
        #expect(!presented.isSignatureValid)
        #expect(presented.withDocumentKey(token.documentKey).isSignatureValid)
        #expect(!presented.withDocumentKey([UInt8](repeating: 7, count: 32)).isSignatureValid)
    }

    @Test("admit and refuse proofs match the reference; any other part fails", arguments: vectors)
    func proofs(_ v: Vectors.Vector) throws {
        let token = try CapabilityToken(decoding: Self.bytes(v.redactedToken))
        let key = try #require(
            TokenVectorTests.vectors.tokens.first { $0.name == v.token }.map {
                TokenVectorTests.bytes($0.fields.documentKey)
            })
        let joiner = try PublicKey(bytes: Self.bytes(v.joiner))
        let holder = try PublicKey(bytes: Self.bytes(v.holder))
        let owner = Self.bytes(v.owner)
        let nonce = Self.bytes(v.nonce)
        let admit = JoinProof.make(
            .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: joiner, holder: holder,
            owner: owner)
        #expect(admit == Self.bytes(v.admitProof))
        let refuse = JoinProof.make(
            .refuse, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: joiner, holder: holder,
            owner: nil)
        #expect(refuse == Self.bytes(v.refuseProof))
        #expect(
            JoinProof.verify(
                Self.bytes(v.admitProof), .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce,
                joiner: joiner, holder: holder, owner: owner))
        // A proof for another holder, owner, nonce, verdict or key does not verify.
        #expect(
            !JoinProof.verify(
                Self.bytes(v.admitProof), .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce,
                joiner: joiner, holder: joiner, owner: owner))
        #expect(
            !JoinProof.verify(
                Self.bytes(v.admitProof), .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce,
                joiner: joiner, holder: holder, owner: joiner.bytes))
        #expect(
            !JoinProof.verify(
                Self.bytes(v.admitProof), .admit, key: key, doc: token.doc, tokenID: token.tokenID,
                nonce: [UInt8](repeating: 0, count: 32), joiner: joiner, holder: holder, owner: owner))
        #expect(
            !JoinProof.verify(
                Self.bytes(v.admitProof), .refuse, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce,
                joiner: joiner, holder: holder, owner: owner))
        #expect(
            !JoinProof.verify(
                Self.bytes(v.admitProof), .admit, key: [UInt8](repeating: 0, count: 32), doc: token.doc,
                tokenID: token.tokenID, nonce: nonce, joiner: joiner, holder: holder, owner: owner))
        #expect(
            !JoinProof.verify(
                [], .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: joiner,
                holder: holder, owner: owner))
    }
}
