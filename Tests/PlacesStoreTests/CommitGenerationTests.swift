import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

@Suite("Store: commit generations move with every committed write")
struct CommitGenerationTests {
    /// Runs `write` and says which generations it moved: `doc`'s, the global one.
    func moves(_ store: Store, _ doc: DocumentID, _ write: () throws -> Void) rethrows -> [String] {
        let doc0 = store.generations.generation(of: doc)
        let global0 = store.generations.global
        try write()
        return (store.generations.generation(of: doc) != doc0 ? ["doc"] : [])
            + (store.generations.global != global0 ? ["global"] : [])
    }

    @Test("every Store write of a document's ops, entities, members or keys moves its generation")
    func everyWriteMoves() throws {
        let f = try Fixture()
        #expect(f.store.generations.generation(of: f.doc) > 0)  // createDocument
        var rng = SplitMix(state: 3)
        let edit = { Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: 1) }
        #expect(
            try moves(f.store, f.doc) { _ = try f.store.append([edit()], identity: f.identity, keyring: f.keyring) }
                == ["doc", "global"])
        let member = try SigningKeyPair()
        #expect(try moves(f.store, f.doc) { _ = try share(f, with: member, role: "editor") } == ["doc", "global"])
        #expect(
            try moves(f.store, f.doc) { try f.store.addDocumentKey(f.doc, epoch: 1, sealed: [1, 2, 3]) } == [
                "doc", "global",
            ])
        #expect(try moves(f.store, f.doc) { try f.store.rebuildMaterialized(keyring: f.keyring) } == ["doc", "global"])

        // The rebuild dropped and created the materialized tables again: their triggers too.
        let triggers = try f.store.write { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger'")
        }
        #expect(triggers == CommitGenerations.watched.count * 3)

        // Ops ingested from another daemon (the raw-statement append path).
        _ = try f.store.append([edit(), edit()], identity: f.identity, keyring: f.keyring)
        let ops = try f.store.ops(of: f.doc)
        let b = try replica(of: f)
        #expect(
            try moves(b, f.doc) { _ = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring) } == [
                "doc", "global",
            ])
        // A replay stores nothing and moves nothing.
        #expect(try moves(b, f.doc) { _ = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring) } == [])

        #expect(try moves(f.store, f.doc) { try f.store.purgeDocument(f.doc) } == ["doc", "global"])
    }

    @Test("reads, other documents' writes, unwatched tables and rolled-back writes leave a generation alone")
    func othersDoNotMove() throws {
        let f = try Fixture()
        let other = try #require(DocumentID(bytes: SecureRandom.bytes(16)))
        #expect(try moves(f.store, f.doc) { _ = try f.store.entities(in: f.doc, kind: .stop) } == [])
        #expect(try moves(f.store, f.doc) { _ = try f.store.versionVector(of: f.doc) } == [])
        #expect(
            try moves(f.store, f.doc) {
                try f.store.registerDocument(other, kind: .itinerary, owner: f.identity.publicKey.bytes, timeMs: 0)
            } == ["global"])
        #expect(f.store.generations.generation(of: other) == f.store.generations.global)
        #expect(
            try moves(f.store, f.doc) {
                try f.store.rememberPeer(key: f.identity.publicKey.bytes, name: "me", address: nil, timeMs: 0)
            } == [])
        // A write transaction that fails after writing rows of `other` rolls back: the next
        // commit (of an unwatched table) must not publish them.
        let before = f.store.generations.generation(of: other)
        #expect(throws: StoreError.self) {
            try f.store.write { db in
                try db.execute(
                    sql: "INSERT INTO doc_key(doc, epoch, sealed) VALUES (?, 9, x'00')", arguments: [Data(other.bytes)])
                throw StoreError(.database, "fails on purpose")
            }
        }
        try f.store.rememberPeer(key: f.identity.publicKey.bytes, name: "again", address: nil, timeMs: 1)
        #expect(f.store.generations.generation(of: other) == before)
    }
}
