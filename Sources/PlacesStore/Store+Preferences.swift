import GRDB

/// The person's settings (`preference` table): the discover sort, favorite sharing, … Not
/// ops: each change is marked and mirrored into the library document for the person's other
/// devices (`Store+PersonState`), but for names starting `local.`, which stay on the device.
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
            if !key.hasPrefix(Self.localSettingPrefix) { try Self.markPerson(db, .setting, key) }
        }
        notePersonMarked()
    }
}
