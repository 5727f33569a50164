import Foundation
import GRDB
import GRDBSQLite

/// Copies the write-ahead log back into the database file on a background thread, so that
/// the thread that stores ops never pays for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold: with a
/// 32 MiB threshold, about one batch of ops in ten paid for copying every page of the WAL
/// and an fsync (about a tenth of the writer's time in the append benchmark). Here the
/// writer's connection only reports the WAL's size after each commit (`sqlite3_wal_hook`);
/// past `backgroundBytes` a passive checkpoint runs on a low-priority thread through a
/// connection of its own, while the writer goes on appending (WAL mode allows one
/// checkpoint next to readers and the writer). Should the WAL still grow past
/// `writerBytes` (a checkpoint that cannot keep up with sustained writes), the writer
/// checkpoints it itself, as SQLite would.
final class Checkpointer: @unchecked Sendable {
    private let path: String
    private let backgroundBytes: Int
    private let writerBytes: Int
    /// The thresholds in pages of the database, set by `install` before the first commit.
    private var backgroundPages: Int32 = .max
    private var writerPages: Int32 = .max
    /// Set while a checkpoint thread runs; guarded by `condition`.
    private var running = false
    private let condition = NSCondition()

    init(path: String, backgroundBytes: Int, writerBytes: Int) {
        self.path = path
        self.backgroundBytes = backgroundBytes
        self.writerBytes = max(writerBytes, backgroundBytes)
    }

    /// Installs the commit report on the writer's connection (replacing SQLite's automatic
    /// checkpoint). The connection must not outlive `self`.
    func install(on db: Database) throws {
        let pageSize = max(512, try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        backgroundPages = Int32(clamping: max(1, backgroundBytes / pageSize))
        writerPages = Int32(clamping: max(1, writerBytes / pageSize))
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, connection, _, pages in
                Unmanaged<Checkpointer>.fromOpaque(context!).takeUnretainedValue().committed(connection, pages: pages)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Waits for a checkpoint in progress (before the database is closed).
    func drain() {
        condition.lock()
        while running { condition.wait() }
        condition.unlock()
    }

    private func committed(_ connection: OpaquePointer?, pages: Int32) {
        if pages >= writerPages {
            sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if pages >= backgroundPages {
            schedule()
        }
    }

    /// Starts a checkpoint unless one is running. Each runs on a thread of its own (they are
    /// rare: one per 32 MiB of WAL) so that its low priority never sticks to a pooled thread
    /// that later runs other work.
    private func schedule() {
        condition.lock()
        defer { condition.unlock() }
        guard !running else { return }
        running = true
        let thread = Thread { [self] in
            Checkpointer.lowerPriority()
            checkpoint()
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "places.store.checkpoint"
        thread.start()
    }

    /// Runs the calling thread at the lowest CPU priority (nice 19; Linux applies it to the
    /// one thread): a checkpoint uses idle CPU and does not slow the requests being served.
    /// If it cannot keep up, the writer checkpoints itself past `writerBytes`.
    private static func lowerPriority() {
        #if os(Linux)
            // On Linux, `who` 0 with PRIO_PROCESS is the calling thread, not the process.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }

    /// One passive checkpoint through a short-lived connection (opened per checkpoint, which
    /// is rare, so that an idle store holds no extra file handles).
    private func checkpoint() {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK
        else { return }
        sqlite3_busy_timeout(connection, 1_000)
        // The same durability as the writer's: the database file is synced after the copy.
        sqlite3_exec(connection, "PRAGMA synchronous = NORMAL", nil, nil, nil)
        sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }
}
