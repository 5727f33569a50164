import GRDB

/// The device's cache of answers fetched from outside the documents (the weather's
/// forecasts, docs/destinations.md): the `local_cache` table, never mirrored to the person's
/// other devices, and written quietly (`CommitGenerations`): a forecast kept every hour does
/// not empty the read caches of everything else.
///
/// Only this file writes the table, and a quiet write touches nothing else: a cache keyed
/// on the generation never derives from it.
extension Store {
    /// The longest value kept (a 16-day forecast is about 2 KiB).
    public static let maxLocalCacheValue = 64 * 1_024

    static func createLocalCache(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE local_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                INSERT OR IGNORE INTO local_cache(key, value)
                    SELECT 'weather.' || substr(key, 15), value FROM preference WHERE key LIKE 'local.weather.%';
                DELETE FROM preference WHERE key LIKE 'local.weather.%';
                """)
    }

    /// The kept value of `key`; nil when none.
    public func localCache(_ key: String) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM local_cache WHERE key = ?", arguments: [key])
        }
    }

    /// Every kept value whose key starts with `prefix`, by key.
    public func localCache(prefix: String) throws(StoreError) -> [String: String] {
        try read { db in
            var out = [String: String]()
            let rows = try Row.fetchCursor(
                db, sql: "SELECT key, value FROM local_cache WHERE substr(key, 1, ?) = ?",
                arguments: [prefix.count, prefix])
            while let row = try rows.next() { out[row[0]] = row[1] }
            return out
        }
    }

    /// Keeps `value` under `key` (nil removes it), without moving the commit generation. A
    /// value over `maxLocalCacheValue` bytes is not kept.
    public func setLocalCache(_ key: String, _ value: String?) throws(StoreError) {
        if let value, value.utf8.count > Self.maxLocalCacheValue {
            throw StoreError(.invalidOp, "a cached value over \(Self.maxLocalCacheValue) bytes")
        }
        try write { db in
            if let value {
                try db.execute(
                    sql: "INSERT INTO local_cache(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                    arguments: [key, value, value])
            } else {
                try db.execute(sql: "DELETE FROM local_cache WHERE key = ?", arguments: [key])
            }
            generations.absorb(db)
        }
    }
}
