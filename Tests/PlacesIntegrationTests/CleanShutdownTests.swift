import Foundation
import PlacesTestSupport
import Testing

/// What a clean shutdown leaves on disk.
@Suite("Clean shutdown", .serialized)
struct CleanShutdownTests {
    /// `Store.close()` checkpoints and empties the WAL before closing the pool: GRDB's
    /// `DatabasePool.close()` closes the writer before the read-only readers, so without it
    /// the last connection to close could not checkpoint (groue/GRDB.swift#739) and, after
    /// SIGTERM, every op was still only in places.sqlite-wal — a copy of places.sqlite alone,
    /// made after stopping the daemon, was an empty database.
    @Test("after SIGTERM the ops are in places.sqlite itself, not only in its WAL")
    func shutdownCheckpoints() throws {
        let node = try PeerNode("Ana")
        try node.json("POST", "/v1/places", #"{"name":"Belém","latitude":38.69,"longitude":-9.21}"#)
        node.stop()
        let database = node.dir.path + "/places.sqlite"
        let copy = TempDir()
        defer { copy.remove() }
        try FileManager.default.copyItem(atPath: database, toPath: copy.path + "/places.sqlite")
        let ops = try DatabaseProbe(path: copy.path + "/places.sqlite").rows("SELECT count(*) FROM op")
        #expect((Int(ops.first?.first ?? "") ?? 0) > 0)
    }
}
