import Foundation
import GRDB
import PlacesModel

/// A person's own state kept in tables, not documents (friends, contacts, saved trips,
/// settings), and its mirror in the library document (`Protocol/devices.md` §4.4): every write
/// through the store's API marks the row in `person_dirty` in the same transaction; the
/// daemon takes the marks and writes the rows' values into the library; what another device
/// of the person wrote there is applied with `adoptPersonState`, which marks nothing.
extension Store {
    /// Which table a mirrored row is in.
    public enum PersonTable: String, Sendable, CaseIterable {
        case friend, contact, saved, setting
    }

    /// A mirrored row: its table and key (a key or document id in hex, or a setting's name).
    public struct PersonRow: Hashable, Sendable {
        public var table: PersonTable
        public var key: String

        public init(_ table: PersonTable, _ key: String) {
            self.table = table
            self.key = key
        }
    }

    /// A mirrored row's value; a row that is absent has none.
    public enum PersonValue: Hashable, Sendable {
        case friend(state: FriendState, name: String, sinceMs: Int64)
        case contact(name: String, addedMs: Int64)
        case saved(savedMs: Int64)
        case setting(String)
    }

    /// Settings whose names start with this stay on the device (never mirrored).
    public static let localSettingPrefix = "local."

    static func createPersonDirty(_ db: Database) throws {
        try db.execute(
            sql:
                "CREATE TABLE person_dirty (tbl TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID"
        )
    }

    /// Marks a row as changed here (inside the write that changed it).
    static func markPerson(_ db: Database, _ table: PersonTable, _ key: String) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO person_dirty(tbl, key) VALUES (?, ?)", arguments: [table.rawValue, key])
    }

    /// Whether rows may be marked (a cheap check before `takePersonChanges`).
    public var personStateMarked: Bool { personMarked.withLock { $0 } }

    func notePersonMarked() { personMarked.withLock { $0 = true } }

    /// The marked rows with their current values (nil: the row is gone), up to `limit`.
    public func markedPersonRows(limit: Int) throws(StoreError) -> [(row: PersonRow, value: PersonValue?)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT tbl, key FROM person_dirty LIMIT ?", arguments: [limit])
                .compactMap { r -> (PersonRow, PersonValue?)? in
                    guard let table = PersonTable(rawValue: r[0]) else { return nil }
                    let row = PersonRow(table, r[1])
                    return (row, try Self.personValue(db, row))
                }
        }
    }

    /// Clears the marks of rows written into the library (a row marked again since keeps
    /// its mark only if it was re-marked after `rows` were read: the caller reads and
    /// clears on one actor, so nothing interleaves).
    public func clearPersonMarks(_ rows: [PersonRow]) throws(StoreError) {
        let remaining = try write { db -> Bool in
            for row in rows {
                try db.execute(
                    sql: "DELETE FROM person_dirty WHERE tbl = ? AND key = ?", arguments: [row.table.rawValue, row.key])
            }
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM person_dirty)") ?? false
        }
        personMarked.withLock { $0 = remaining }
    }

    /// A row's value in its table.
    public func personValue(_ row: PersonRow) throws(StoreError) -> PersonValue? {
        try read { db in try Self.personValue(db, row) }
    }

    private static func personValue(_ db: Database, _ row: PersonRow) throws -> PersonValue? {
        switch row.table {
        case .friend:
            guard let bytes = HexCoding.decode(row.key),
                let r = try Row.fetchOne(
                    db, sql: "SELECT state, name, since_ms FROM friend WHERE key = ?", arguments: [Data(bytes)]),
                let state = FriendState(rawValue: r[0])
            else { return nil }
            return .friend(state: state, name: r[1], sinceMs: r[2])
        case .contact:
            guard let bytes = HexCoding.decode(row.key),
                let r = try Row.fetchOne(
                    db, sql: "SELECT name, added_ms FROM contact WHERE key = ?", arguments: [Data(bytes)])
            else { return nil }
            return .contact(name: r[0], addedMs: r[1])
        case .saved:
            guard let bytes = HexCoding.decode(row.key),
                let ms = try Int64.fetchOne(
                    db, sql: "SELECT saved_ms FROM trip_saved WHERE doc = ?", arguments: [Data(bytes)])
            else { return nil }
            return .saved(savedMs: ms)
        case .setting:
            return try String.fetchOne(db, sql: "SELECT value FROM preference WHERE key = ?", arguments: [row.key])
                .map { .setting($0) }
        }
    }

    /// Applies what another device of this person wrote: each row set to its value, or
    /// removed (nil). Marks nothing, so it is not written back. Returns the rows that changed.
    @discardableResult
    public func adoptPersonState(_ entries: [(row: PersonRow, value: PersonValue?)]) throws(StoreError) -> [PersonRow] {
        try write { db in
            var changed = [PersonRow]()
            for (row, value) in entries {
                guard try Self.personValue(db, row) != value else { continue }
                if row.table == .setting, row.key.hasPrefix(Self.localSettingPrefix) { continue }
                let key = row.table == .setting ? nil : HexCoding.decode(row.key).map { Data($0) }
                if row.table != .setting, key == nil { continue }
                switch (row.table, value) {
                case (.friend, .friend(let state, let name, let since)):
                    try db.execute(
                        sql: """
                            INSERT INTO friend(key, state, name, since_ms) VALUES (?, ?, ?, ?)
                            ON CONFLICT(key) DO UPDATE SET state = excluded.state, name = excluded.name,
                                since_ms = excluded.since_ms
                            """, arguments: [key, state.rawValue, name, since])
                case (.friend, nil): try db.execute(sql: "DELETE FROM friend WHERE key = ?", arguments: [key])
                case (.contact, .contact(let name, let added)):
                    try db.execute(
                        sql: """
                            INSERT INTO contact(key, name, added_ms) VALUES (?, ?, ?)
                            ON CONFLICT(key) DO UPDATE SET name = excluded.name, added_ms = excluded.added_ms
                            """, arguments: [key, name, added])
                case (.contact, nil): try db.execute(sql: "DELETE FROM contact WHERE key = ?", arguments: [key])
                case (.saved, .saved(let ms)):
                    try db.execute(
                        sql:
                            "INSERT INTO trip_saved(doc, saved_ms) VALUES (?, ?) ON CONFLICT(doc) DO UPDATE SET saved_ms = ?",
                        arguments: [key, ms, ms])
                case (.saved, nil): try db.execute(sql: "DELETE FROM trip_saved WHERE doc = ?", arguments: [key])
                case (.setting, .setting(let text)):
                    try db.execute(
                        sql:
                            "INSERT INTO preference(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                        arguments: [row.key, text, text])
                case (.setting, nil): try db.execute(sql: "DELETE FROM preference WHERE key = ?", arguments: [row.key])
                default: continue  // a value of another table's shape: not applied
                }
                changed.append(row)
            }
            return changed
        }
    }
}
