import Foundation
import PlacesTestSupport
import Testing

/// What a clean shutdown leaves on disk.
@Suite("Clean shutdown", .serialized)
struct CleanShutdownTests {
    /// `Store.close()` says it checkpoints the WAL, but GRDB's `DatabasePool.close()` closes
    /// the writer before the read-only readers, so the last connection to close cannot
    /// checkpoint (GRDB's own comment cites groue/GRDB.swift#739), and `Daemon.run` ignores
    /// the error of `try? store.close()`. After SIGTERM every op is still only in
    /// places.sqlite-wal: nothing is lost (SQLite replays the WAL at the next open), but a
    /// copy of places.sqlite alone, made after stopping the daemon, is an empty database.
    /// Recorded as a known issue: the test fails once shutdown checkpoints, to be turned
    /// into a plain expectation then.
    @Test("after SIGTERM the ops are in places.sqlite itself, not only in its WAL")
    func shutdownCheckpoints() throws {
        let node = try PeerNode("Ana")
        try node.json("POST", "/v1/places", #"{"name":"Belém","latitude":38.69,"longitude":-9.21}"#)
        node.stop()
        let database = node.dir.path + "/places.sqlite"
        let copy = TempDir()
        defer { copy.remove() }
        try FileManager.default.copyItem(atPath: database, toPath: copy.path + "/places.sqlite")
        withKnownIssue("placesd does not checkpoint its WAL at a clean shutdown") {
            // Without the WAL the file may not even hold the schema yet: a thrown error counts too.
            let ops = try DatabaseProbe(path: copy.path + "/places.sqlite").rows("SELECT count(*) FROM op")
            #expect((Int(ops.first?.first ?? "") ?? 0) > 0)
        }
    }
}
