import GRDB

/// This device's settings (`preference` table): the discover sort, favorite sharing. They
/// are not ops and never leave the device.
extension Store {
    /// The value of a setting, nil when it was never set.
    public func preference(_ key: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM preference WHERE key = ?", arguments: [key]) }
    }

    /// Sets a setting (nil removes it).
    public func setPreference(_ key: String, _ value: String?) throws(StoreError) {
        try write { db in
            if let value {
                try db.execute(
                    sql: "INSERT INTO preference(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                    arguments: [key, value, value])
            } else {
                try db.execute(sql: "DELETE FROM preference WHERE key = ?", arguments: [key])
            }
        }
    }
}
