import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// A second store holding the same document (as a member would), to receive ops.
func replica(of f: Fixture) throws -> Store {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-replica-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let store = try Store(path: dir.appendingPathComponent("places.sqlite").path)
    try store.createDocument(f.doc, kind: .itinerary, owner: f.identity.publicKey, sealedKey: [], timeMs: 0)
    return store
}

@Suite("Store: ingesting ops from another daemon")
struct IngestTests {
    func authoredOps(_ f: Fixture, count: Int, seed: UInt64) throws -> [SignedOp] {
        var rng = SplitMix(state: seed)
        return try f.store.append(
            (0..<count).map { i in Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: Int64(i)) },
            identity: f.identity, keyring: f.keyring)
    }

    @Test("a replica that ingests the log shows byte-identical materialized state; replays are skipped")
    func replicaConverges() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 40, seed: 7)
        let b = try replica(of: f)
        let result = try b.ingest(ops.map(\.encoded), keyring: f.keyring)
        #expect(result.stored.count == 40 && result.rejected == nil)
        #expect(try b.materializedDump() == f.store.materializedDump())
        let again = try b.ingest(ops.map(\.encoded), keyring: f.keyring)
        #expect(again.stored.isEmpty && again.duplicates == 40)
        #expect(try b.materializedDump() == f.store.materializedDump())
    }

    @Test("a tampered op is refused and nothing is stored")
    func tamperedRefused() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 3, seed: 1)
        let b = try replica(of: f)
        // A byte of the author key, of the header clocks, of the ciphertext, of the signature.
        for position in [30, 62, ops[0].encoded.count - 70, ops[0].encoded.count - 1] {
            var bytes = ops[0].encoded
            bytes[position] ^= 0x01
            let result = try b.ingest([bytes], keyring: f.keyring)
            #expect(result.stored.isEmpty)
            #expect(result.rejected?.reason == .badSignature, "flipping byte \(position)")
        }
        var otherDoc = ops[0].encoded
        otherDoc[10] ^= 0x01
        #expect(try b.ingest([otherDoc], keyring: f.keyring).rejected?.reason == .unknownDocument)
        #expect(try b.opCount() == 0 && b.materializedDump().isEmpty)
    }

    @Test("gaps, missing dependencies, equivocation and a wrong key are refused")
    func orderingRules() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 3, seed: 2)
        let b = try replica(of: f)
        #expect(
            try b.ingest([ops[1].encoded], keyring: f.keyring).rejected?.reason == .sequenceGap(expected: 1, got: 2))
        #expect(try b.ingest([ops[0].encoded], keyring: Keyring()).rejected?.reason == .undecryptable)
        #expect(try b.ingest([ops[0].encoded], keyring: f.keyring).stored.count == 1)

        // The same author signs a different op with seq 2: kept first, refused second.
        let header = OpHeader(
            doc: f.doc, author: f.identity.publicKey.bytes, seq: 2, deps: [Blake2b.hash256(ops[0].signedBytes)],
            lamport: 2, epoch: 0)
        let body = OpBody(timeMs: 5, changes: [.create(entity: "evil", kind: .stop)]).jsonBytes()
        let ciphertext = try SecretBox.seal(
            body, key: f.keyring.key(f.doc, epoch: 0)!, associatedData: OpCrypto.associatedData(header))
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: ciphertext)
        let twin = SignedOp(
            header: header, ciphertext: ciphertext, signature: f.identity.sign(signed).bytes, signedBytes: signed)
        #expect(try b.ingest([ops[1].encoded], keyring: f.keyring).stored.count == 1)
        let refused = try b.ingest([twin.encoded], keyring: f.keyring)
        #expect(refused.rejected?.reason == .equivocation(author: f.identity.publicKey.hex, seq: 2))

        // An op whose dependency was never seen.
        let orphanHeader = OpHeader(
            doc: f.doc, author: f.identity.publicKey.bytes, seq: 3, deps: [Array(repeating: 9, count: 32)], lamport: 9,
            epoch: 0)
        let orphanCipher = try SecretBox.seal(
            body, key: f.keyring.key(f.doc, epoch: 0)!, associatedData: OpCrypto.associatedData(orphanHeader))
        let orphanSigned = SignedOp.encodeSignedBytes(header: orphanHeader, ciphertext: orphanCipher)
        let orphan = SignedOp(
            header: orphanHeader, ciphertext: orphanCipher, signature: f.identity.sign(orphanSigned).bytes,
            signedBytes: orphanSigned)
        #expect(try b.ingest([orphan.encoded], keyring: f.keyring).rejected?.reason == .missingDependency)
        #expect(try b.opCount() == 2)
    }

    @Test("an op the authorization rule refuses is not stored")
    func unauthorizedRefused() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 1, seed: 3)
        let b = try replica(of: f)
        let result = try b.ingest([ops[0].encoded], keyring: f.keyring) { _, _ in "viewers cannot edit" }
        #expect(result.rejected?.reason == .unauthorized("viewers cannot edit"))
        #expect(try b.opCount() == 0)
    }
}
