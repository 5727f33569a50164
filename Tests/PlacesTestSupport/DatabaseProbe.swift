import Foundation
import GRDB

/// Reads a daemon's SQLite file from the test, read-only: `PRAGMA integrity_check` and
/// plain queries. Safe while the daemon runs (WAL readers do not block the writer), and
/// after it stopped.
public struct DatabaseProbe {
    private let queue: DatabaseQueue

    /// Opens `path` (a data dir's places.sqlite) read-only.
    public init(path: String) throws {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(10)
        queue = try DatabaseQueue(path: path, configuration: config)
    }

    /// Copies the WAL of `path` into the database file and empties it (`PRAGMA
    /// wal_checkpoint(TRUNCATE)`), then removes the WAL and shared-memory files: the data dir
    /// is then one file with the same content. Only for a database no daemon has open.
    public static func checkpoint(path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        try queue.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The rows of `PRAGMA integrity_check`: `["ok"]` for a sound file.
    public func integrityCheck() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// Every row of `sql` with each column as text (NULL as "NULL"), in the query's order.
    public func rows(_ sql: String, arguments: [String] = []) throws -> [[String]] {
        try queue.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                (0..<row.count).map { i in
                    let value: DatabaseValue = row[i]
                    switch value.storage {
                    case .null: return "NULL"
                    case .int64(let v): return String(v)
                    case .double(let v): return String(v)
                    case .string(let v): return v
                    case .blob(let v): return v.map { String(format: "%02x", $0) }.joined()
                    }
                }
            }
        }
    }
}
