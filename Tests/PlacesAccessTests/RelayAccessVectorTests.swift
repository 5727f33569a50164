import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess

/// The `access` part of `Protocol/vectors/relay/relay-vectors.json`, written by the independent
/// Python reference (`Protocol/relay.md` §4.1): the Swift code reads every valid access list to
/// the same fields, signs the same bytes from the same key, and refuses every invalid one for
/// the same reason.
@Suite("Relay access list vectors")
struct RelayAccessVectorTests {
    struct File: Decodable { var access: Vectors }
    struct Vectors: Decodable {
        struct Valid: Decodable {
            var name, record, doc, owner: String
            var epoch: UInt32
            var issuedMs: Int64
            var keys: [String]
        }
        struct Invalid: Decodable { var name, record, error: String }
        var ownerSeed, ownerKey: String
        var valid: [Valid]
        var invalid: [Invalid]
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/relay/relay-vectors.json")
        do { return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).access } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    @Test("valid lists read to the reference's fields, and signing them again gives the same bytes")
    func valid() throws {
        let v = Self.vectors
        let owner = try SigningKeyPair(
            secretKey: RelayLinkVectorTests.bytes(v.ownerSeed) + RelayLinkVectorTests.bytes(v.ownerKey))
        for vector in v.valid {
            let access = try RelayAccess(decoding: RelayLinkVectorTests.bytes(vector.record))
            #expect(access.doc.hex == vector.doc && access.epoch == vector.epoch, "\(vector.name)")
            #expect(access.issuedMs == vector.issuedMs && access.owner.hex == vector.owner)
            #expect(access.keys.map(\.hex) == vector.keys)
            #expect(access.allows(owner.publicKey) && access.allows(access.keys[0]))
            let again = try RelayAccess.issue(
                doc: access.doc, epoch: access.epoch, issuedMs: access.issuedMs, keys: Set(access.keys), by: owner)
            #expect(again.encoded == access.encoded, "\(vector.name)")
        }
    }

    @Test("invalid lists are refused for the reference's reason")
    func invalid() {
        for vector in Self.vectors.invalid {
            do {
                _ = try RelayAccess(decoding: RelayLinkVectorTests.bytes(vector.record))
                Issue.record("\(vector.name) was read")
            } catch {
                let expected: AccessError.Code = vector.error == "badSignature" ? .badSignature : .malformed
                #expect(error.code == expected, "\(vector.name): \(error)")
            }
        }
    }

    @Test("a later epoch, or the same epoch signed later, supersedes")
    func ordering() throws {
        let owner = try SigningKeyPair()
        let doc = DocumentID(bytes: SecureRandom.bytes(16))!
        let a = try RelayAccess.issue(doc: doc, epoch: 1, issuedMs: 5, keys: [owner.publicKey], by: owner)
        let b = try RelayAccess.issue(doc: doc, epoch: 1, issuedMs: 6, keys: [owner.publicKey], by: owner)
        let c = try RelayAccess.issue(doc: doc, epoch: 2, issuedMs: 1, keys: [owner.publicKey], by: owner)
        #expect(b.supersedes(a) && c.supersedes(b) && !a.supersedes(c) && !a.supersedes(a))
    }
}
