import GRDB
import GRDBSQLite
import Synchronization

/// The commit generation of a store: a number that moves whenever a write transaction
/// that changed at least one row commits, whichever `Store` API made it (appends, ingest,
/// joins, purges, rebuilds, …), and never for reads, for writes that change nothing or
/// for transactions that roll back.
///
/// A cache of something derived from the database (an encoded response, a version
/// vector, the participants) reads `current` *before* computing its value and keeps the
/// two together; the value is current while the generation has not moved. No write path
/// has to remember to empty the cache.
///
/// Driven by the database itself: a GRDB `TransactionObserver` on the writer connection
/// compares SQLite's count of rows changed on that connection (`sqlite3_total_changes`,
/// which also counts the statements `RawStatement` steps without GRDB) at each commit
/// with the count at the previous one. That is one call per commit and nothing per row.
/// The generation is global, not per document or table: per-document generations need
/// per-row triggers, and TEMP triggers made every statement of the append path open the
/// temp database (+40 % CPU per appended op), far over the append budget.
///
/// A write to the device's cache of answers fetched from outside (`Store+LocalCache`) is
/// quiet: it does not move the generation (nothing derived from the documents changed, and a
/// forecast kept every hour per destination would otherwise empty every read cache). It
/// ends with `absorb`, which counts its rows as already seen.
public final class CommitGenerations: Sendable {
    private let generation = Mutex<UInt64>(0)
    /// SQLite's count of changed rows on the writer connection at the last commit or
    /// rollback (or the last `absorb`).
    private let seen = Mutex<Int32>(0)

    init() {}

    /// Moves (by one) on every commit of a transaction that changed a row.
    public var current: UInt64 { generation.withLock { $0 } }

    /// Installs the observer on the writer connection.
    func install(on db: Database) {
        absorb(db)
        db.add(transactionObserver: Observer(self), extent: .databaseLifetime)
    }

    /// Counts the rows changed so far on the writer connection as seen: called at the end of
    /// a quiet write's transaction, its commit then moves nothing (the writer runs one
    /// transaction at a time; a rollback recounts anyway).
    func absorb(_ db: Database) {
        let now = sqlite3_total_changes(db.sqliteConnection)
        seen.withLock { $0 = now }
    }

    /// At a commit: moves the generation when rows changed since the last count.
    private func committed(_ db: Database) {
        let now = sqlite3_total_changes(db.sqliteConnection)
        let changed = seen.withLock { seen in
            defer { seen = now }; return seen != now
        }
        if changed { generation.withLock { $0 += 1 } }
    }

    /// GRDB's side: only commits and rollbacks matter (changed rows are counted by SQLite,
    /// including those of statements GRDB did not run).
    private final class Observer: TransactionObserver {
        let generations: CommitGenerations

        init(_ generations: CommitGenerations) { self.generations = generations }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}

        func databaseDidCommit(_ db: Database) { generations.committed(db) }

        // The count includes the rows of the rolled-back transaction: they never happened.
        func databaseDidRollback(_ db: Database) { generations.absorb(db) }
    }
}
