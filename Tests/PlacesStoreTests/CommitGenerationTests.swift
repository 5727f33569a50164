import Foundation
import PlacesCrypto
import PlacesRoutes
import Testing

@testable import PlacesModel
@testable import PlacesStore

@Suite("Store: the commit generation moves with every committed write")
struct CommitGenerationTests {
    /// Runs `write` and says whether it moved the store's commit generation.
    func moves(_ store: Store, _ write: () throws -> Void) rethrows -> Bool {
        let before = store.generations.current
        try write()
        return store.generations.current != before
    }

    @Test("every Store write that changes rows moves it: appends, shares, keys, rebuilds, ingest, purges")
    func everyWriteMoves() throws {
        let f = try Fixture()
        #expect(f.store.generations.current > 0)  // createDocument
        var rng = SplitMix64(seed: 3)
        let edit = { Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: 1) }
        #expect(try moves(f.store) { _ = try f.store.append([edit()], identity: f.identity, keyring: f.keyring) })
        let member = try SigningKeyPair()
        #expect(try moves(f.store) { _ = try share(f, with: member, role: "editor") })
        #expect(try moves(f.store) { try f.store.addDocumentKey(f.doc, epoch: 1, sealed: [1, 2, 3]) })
        #expect(try moves(f.store) { try f.store.rebuildMaterialized(keyring: f.keyring) })
        #expect(
            try moves(f.store) {
                try f.store.rememberPeer(key: member.publicKey.bytes, name: "m", address: nil, timeMs: 0)
            })

        // Ops ingested from another daemon (stored with statements GRDB does not run).
        _ = try f.store.append([edit(), edit()], identity: f.identity, keyring: f.keyring)
        let ops = try f.store.ops(of: f.doc)
        let b = try replica(of: f)
        #expect(try moves(b) { _ = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring) })
        // A replay stores nothing and moves nothing.
        #expect(try !moves(b) { _ = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring) })

        #expect(try moves(f.store) { try f.store.purgeDocument(f.doc) })
    }

    @Test("reads, writes that change nothing and rolled-back writes leave it alone")
    func othersDoNotMove() throws {
        let f = try Fixture()
        #expect(try !moves(f.store) { _ = try f.store.entities(in: f.doc, kind: .stop) })
        #expect(try !moves(f.store) { _ = try f.store.versionVector(of: f.doc) })
        #expect(try !moves(f.store) { try f.store.write { db in try db.execute(sql: "DELETE FROM peer WHERE 0") } })
        // A write transaction that fails after changing rows rolls back; the next commit
        // that changes nothing must not count them.
        let before = f.store.generations.current
        #expect(throws: StoreError.self) {
            try f.store.write { db in
                try db.execute(
                    sql: "INSERT INTO doc_key(doc, epoch, sealed) VALUES (?, 9, x'00')", arguments: [Data(f.doc.bytes)])
                throw StoreError(.database, "fails on purpose")
            }
        }
        try f.store.write { db in try db.execute(sql: "DELETE FROM peer WHERE 0") }
        #expect(f.store.generations.current == before)
    }

    @Test("the device's cache of fetched answers is written quietly; the next real write still moves it")
    func localCacheIsQuiet() throws {
        let f = try Fixture()
        #expect(try !moves(f.store) { try f.store.setLocalCache("weather.city:1", #"{"t":1}"#) })
        #expect(try !moves(f.store) { try f.store.setLocalCache("weather.city:1", #"{"t":2}"#) })
        #expect(try f.store.localCache("weather.city:1") == #"{"t":2}"#)
        #expect(try f.store.localCache(prefix: "weather.") == ["weather.city:1": #"{"t":2}"#])
        #expect(try !moves(f.store) { try f.store.setLocalCache("weather.city:1", nil) })
        #expect(try f.store.localCache("weather.city:1") == nil)
        // A setting right after is no cache: it moves the generation, once.
        #expect(try moves(f.store) { try f.store.setPreference("local.here", "x") })
        #expect(try !moves(f.store) { try f.store.write { db in try db.execute(sql: "DELETE FROM peer WHERE 0") } })
        // Over the size bound: refused, nothing kept.
        #expect(throws: StoreError.self) {
            try f.store.setLocalCache("weather.big", String(repeating: "x", count: Store.maxLocalCacheValue + 1))
        }
        #expect(try f.store.localCache("weather.big") == nil)
    }
}
