import GRDB
import GRDBSQLite
import PlacesModel
import Synchronization

/// Commit generations: numbers that move whenever a committed transaction wrote a
/// document's row, keys, ops, materialized entities or member events, whichever `Store`
/// API wrote them (appends, ingest, joins, purges, rebuilds, …).
///
/// A cache of something derived from a document (an encoded response, a version vector,
/// the participants) reads `generation(of:)` *before* computing its value and keeps the
/// two together; the value is current while the generation has not moved. No write path
/// has to remember to empty the cache.
///
/// Driven by the database itself: TEMP triggers on the writer connection (they live in
/// that connection's temp schema, never in the database file) call `places_touch(doc)` for
/// each row written, which collects the documents of the open transaction; a GRDB
/// `TransactionObserver` publishes them when the transaction commits and forgets them
/// when it rolls back. Reads cost a lock and a dictionary lookup.
public final class CommitGenerations: Sendable {
    private struct State {
        /// Moves by one on every commit that wrote a watched row.
        var global: UInt64 = 0
        /// The global generation of the last commit that wrote each document.
        var documents: [DocumentID: UInt64] = [:]
    }

    private let state = Mutex(State())
    /// Documents written by the open write transaction (writer connection only).
    private let pending = Mutex(Pending())

    private struct Pending {
        var documents: Set<[UInt8]> = []
        /// The last document touched, to skip the set for the rows of one document.
        var last: [UInt8] = []
    }

    /// The tables whose writes move generations, with the column naming the document.
    static let watched: [(table: String, doc: String)] = [
        ("document", "id"), ("doc_key", "doc"), ("op", "doc"), ("entity", "doc"), ("member_event", "doc"),
    ]

    init() {}

    /// Moves on every commit that wrote any watched row (of any document).
    public var global: UInt64 { state.withLock { $0.global } }

    /// The generation of `doc`: moves on every commit that wrote one of its watched rows
    /// (0 until the first such commit since the store was opened).
    public func generation(of doc: DocumentID) -> UInt64 {
        state.withLock { $0.documents[doc] ?? 0 }
    }

    /// Installs the function, the triggers and the observer on the writer connection.
    func install(on db: Database) throws {
        let observer = Observer(self)
        db.add(transactionObserver: observer, extent: .databaseLifetime)
        let context = Unmanaged.passUnretained(observer).toOpaque()
        let rc = sqlite3_create_function_v2(
            db.sqliteConnection, "places_touch", 1, SQLITE_UTF8, context,
            { context, count, values in
                guard let observer = sqlite3_user_data(context), count == 1, let value = values?[0] else { return }
                let bytes = Int(sqlite3_value_bytes(value))
                guard bytes > 0, let blob = sqlite3_value_blob(value) else { return }
                let doc = [UInt8](UnsafeRawBufferPointer(start: blob, count: bytes))
                Unmanaged<Observer>.fromOpaque(observer).takeUnretainedValue().generations.touch(doc)
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw StoreError(.database, "cannot register places_touch (SQLite \(rc))") }
        try installTriggers(db)
    }

    /// Creates the triggers that are missing: all of them at first, and those of the tables
    /// a rebuild dropped and created again (dropping a table drops its triggers).
    func installTriggers(_ db: Database) throws {
        for (table, column) in Self.watched {
            for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
                try db.execute(
                    sql: """
                        CREATE TEMP TRIGGER IF NOT EXISTS places_generation_\(table)_\(event.lowercased())
                        AFTER \(event) ON main.\(table)
                        BEGIN SELECT places_touch(\(row).\(column)); END
                        """)
            }
        }
    }

    private func touch(_ doc: [UInt8]) {
        pending.withLock { pending in
            guard doc != pending.last else { return }
            pending.last = doc
            pending.documents.insert(doc)
        }
    }

    private func committed() {
        let written = pending.withLock { pending in
            defer { pending = Pending() }
            return pending.documents
        }
        guard !written.isEmpty else { return }
        state.withLock { state in
            state.global += 1
            for bytes in written {
                guard let doc = DocumentID(bytes: bytes) else { continue }
                state.documents[doc] = state.global
            }
        }
    }

    private func rolledBack() {
        pending.withLock { $0 = Pending() }
    }

    /// GRDB's side: only commits and rollbacks matter (rows arrive through the triggers,
    /// which also see the statements `RawStatement` steps without GRDB).
    private final class Observer: TransactionObserver {
        let generations: CommitGenerations

        init(_ generations: CommitGenerations) { self.generations = generations }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { generations.committed() }
        func databaseDidRollback(_ db: Database) { generations.rolledBack() }
    }
}
