import PlacesModel
import Synchronization

/// The document rows read so far, kept in memory: every received batch and most requests
/// look a document up (the replicator, the engine's checks, photos to fetch, the members),
/// several times each, and a lookup through the reader pool costs about 40 µs where this
/// costs well under one. A document row never changes once written (`INSERT OR IGNORE`
/// keeps the first), and is deleted only by `purgeDocument`, which forgets it here after
/// its commit. A read that raced a purge is not kept: the generation it started from has
/// moved on. Absent documents are not kept (one created later must be found).
final class DocumentRecords: Sendable {
    private struct State {
        var records: [DocumentID: Store.DocumentRecord] = [:]
        var generation: UInt64 = 0
    }
    private let state = Mutex(State())

    /// The record if kept, with the generation a read started now must present to keep it.
    func lookup(_ id: DocumentID) -> (record: Store.DocumentRecord?, generation: UInt64) {
        state.withLock { ($0.records[id], $0.generation) }
    }

    /// Keeps a record read from the database, unless a purge came since `generation`.
    func keep(_ record: Store.DocumentRecord, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.records[record.id] = record
        }
    }

    /// Forgets a purged document (called after the purge committed).
    func forget(_ id: DocumentID) {
        state.withLock { state in
            state.generation &+= 1
            state.records[id] = nil
        }
    }
}
