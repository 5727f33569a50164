import Foundation
import PlacesModel
import PlacesRoutes
import Testing

@testable import PlacesStore

@Suite("Store: closing")
struct CloseTests {
    @Test("after a clean close the database file alone holds every op (the WAL is emptied)")
    func closeCheckpointsTheWAL() throws {
        let f = try Fixture()
        var rng = SplitMix64(seed: 5)
        let edits = (0..<20).map { i in Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: Int64(i)) }
        try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        let log = try f.store.ops(of: f.doc)
        try f.store.close()
        let wal = f.dir.appendingPathComponent("places.sqlite-wal").path
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walBytes == 0)
        // A copy of the database file without its WAL (a backup taken after shutdown).
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("places-close-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(
            at: f.dir.appendingPathComponent("places.sqlite"), to: copy.appendingPathComponent("places.sqlite"))
        let reopened = try Store(path: copy.appendingPathComponent("places.sqlite").path)
        #expect(try reopened.ops(of: f.doc) == log)
    }
}
