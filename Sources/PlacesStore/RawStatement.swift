import Foundation
import GRDB
import GRDBSQLite

/// Direct binding and stepping of a cached GRDB statement, for the few statements every op
/// append runs (op insert, heads, entity upsert, field stamps, activity). GRDB's generic
/// `StatementArguments` cost more than SQLite itself on this path; these helpers bind
/// values with the C API and reset the statement when done. Reads of long entity lists use
/// it too. Only for statements taken from `Database.cachedStatement` inside a transaction
/// (`Store.read` or `Store.write`).
struct RawStatement {
    private let statement: SQLiteStatement
    private var index: Int32 = 0

    /// libsodium-style "copy the bytes now" destructor (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    mutating func bind(_ value: Int64) {
        index += 1
        sqlite3_bind_int64(statement, index, value)
    }

    mutating func bind(_ value: Int) { bind(Int64(value)) }

    mutating func bind(_ value: Double) {
        index += 1
        sqlite3_bind_double(statement, index, value)
    }

    mutating func bind(_ value: String) {
        index += 1
        sqlite3_bind_text(statement, index, value, -1, RawStatement.transient)
    }

    mutating func bind(_ value: [UInt8]) {
        index += 1
        value.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), RawStatement.transient)
        }
    }

    mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }

    mutating func bind(_ value: Int64?) {
        if let value { bind(value) } else { bindNull() }
    }

    mutating func bind(_ value: SQLValue) {
        switch value {
        case .int(let v): bind(v)
        case .double(let v): bind(v)
        case .text(let v): bind(v)
        case .blob(let v): bind(v)
        case .null: bindNull()
        }
    }

    mutating func bindNull() {
        index += 1
        sqlite3_bind_null(statement, index)
    }

    /// Runs a statement that returns no rows.
    func execute(_ db: Database) throws {
        let rc = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard rc == SQLITE_DONE else {
            throw StoreError(.database, "SQLite: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    /// Steps through rows, handing each to `row` (columns read with the accessors below).
    func forEachRow(_ db: Database, _ row: (Row) throws -> Void) throws {
        try forRows(db) { r in
            try row(r)
            return true
        }
    }

    /// Steps through rows while `row` returns true.
    func forRows(_ db: Database, _ row: (Row) throws -> Bool) throws {
        defer { sqlite3_reset(statement) }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else {
                throw StoreError(.database, "SQLite: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
            }
            guard try row(Row(statement: statement)) else { return }
        }
    }

    /// The first column of the first row, nil when there is no row or it is NULL.
    func firstInt64(_ db: Database) throws -> Int64? {
        var value: Int64?
        try forRows(db) { row in
            value = row.optionalInt64(0)
            return false
        }
        return value
    }

    /// Column access on the current row.
    struct Row {
        let statement: SQLiteStatement
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
        func string(_ column: Int32) -> String { withText(column) { String(decoding: $0, as: UTF8.self) } }
        func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
        /// Size in bytes of a blob or text column.
        func byteCount(_ column: Int32) -> Int { Int(sqlite3_column_bytes(statement, column)) }
        func blob(_ column: Int32) -> [UInt8] {
            // The bytes first, then their count (the order SQLite documents).
            guard let bytes = sqlite3_column_blob(statement, column) else { return [] }
            let count = Int(sqlite3_column_bytes(statement, column))
            return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
        }
        /// The bytes of a text column, valid only inside `body`.
        func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            // The text first, then its length (the order SQLite documents).
            let text = sqlite3_column_text(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            return body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
        }
    }
}

/// A value for a statement parameter, for statements planned on one thread and run on
/// the writer's (`Materializer.Plan`).
enum SQLValue: Sendable {
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null

    init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    init(_ value: Int64?) { self = value.map { .int($0) } ?? .null }
}
