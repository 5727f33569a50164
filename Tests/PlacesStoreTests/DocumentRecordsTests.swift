import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// Document rows kept in memory (`DocumentRecords`): a lookup answers what the database
/// holds, before and after the document is created, and after it is purged.
@Suite("Document rows kept in memory")
struct DocumentRecordsTests {
    @Test("a document looked up before it exists is found once created, and gone once purged")
    func createdAndPurged() throws {
        let f = try Fixture()
        let other = DocumentID(bytes: SecureRandom.bytes(16))!
        // Not there yet: nothing is kept for it.
        #expect(try f.store.document(other) == nil)
        #expect(try f.store.currentRole(of: f.identity.publicKey, in: other) == nil)
        try f.store.createDocument(
            other, kind: .itinerary, owner: f.identity.publicKey,
            sealedKey: try SealedBox.seal(try SecretBox.randomKey(), to: f.identity.publicKey), timeMs: 5)
        let record = try #require(try f.store.document(other))
        #expect(record.owner == f.identity.publicKey.bytes && record.kind == .itinerary && record.createdMs == 5)
        // Kept now: looked up twice, the same row; the owner's role comes from it.
        #expect(try f.store.document(other) == record)
        #expect(try f.store.currentRole(of: f.identity.publicKey, in: other) == "owner")
        #expect(try f.store.currentRole(of: try SigningKeyPair().publicKey, in: other) == nil)
        try f.store.purgeDocument(other)
        #expect(try f.store.document(other) == nil)
        #expect(try f.store.currentRole(of: f.identity.publicKey, in: other) == nil)
        // The fixture's own document is untouched.
        #expect(try f.store.document(f.doc)?.owner == f.identity.publicKey.bytes)
    }

    @Test("a row registered a second time keeps the first (INSERT OR IGNORE): the kept row stays true")
    func registeredTwice() throws {
        let f = try Fixture()
        let doc = DocumentID(bytes: SecureRandom.bytes(16))!
        let first = try SigningKeyPair().publicKey.bytes, second = try SigningKeyPair().publicKey.bytes
        try f.store.registerDocument(doc, kind: .itinerary, owner: first, timeMs: 1)
        #expect(try f.store.document(doc)?.owner == first)
        try f.store.registerDocument(doc, kind: .outbox, owner: second, timeMs: 2)
        let kept = try #require(try f.store.document(doc))
        let stored = try f.store.documents().first { $0.id == doc }
        #expect(kept == stored && kept.owner == first && kept.kind == .itinerary)
    }
}
