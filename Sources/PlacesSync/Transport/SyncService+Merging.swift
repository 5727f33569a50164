import PlacesCrypto
import Synchronization

/// A fresh sync's bulk batches handed to the delegate together (`readLoop`): the store then
/// writes a round of ops in one transaction.
extension SyncService {
    /// A batch of ops handed to the delegate at once when it is smaller than this (a live
    /// edit); a bulk batch waits for the next one (`mergingOps`).
    static let mergeFromBytes = Replicator.maxBatchBytes / 2

    /// Appends to the ops of `message`, a bulk batch, those of the messages read ahead that
    /// are batches of the same document and arrive within `SyncLimits.bulkMergeWait` of each other, up to
    /// `maxMessageBytes` in all (as much as one message of the peer could hold). Returns the
    /// read ahead still pending: the first message that was not merged (or whose reading
    /// failed, to be met by the loop after this batch is handled), or the next read.
    nonisolated func mergingOps(
        into message: inout SyncMessage, ahead: Task<(SyncInbound?, VerifiedOps.Ahead?), any Error>?,
        reader: InboundReader, session: SyncSession
    ) async -> Task<(SyncInbound?, VerifiedOps.Ahead?), any Error>? {
        guard case .ops(var batch) = message.kind else { return ahead }
        var bytes = batch.ops.reduce(0) { $0 + $1.count }
        guard bytes >= Self.mergeFromBytes else { return ahead }
        var ahead = ahead
        while let pending = ahead, let read = await Self.arrival(of: pending, within: limits.bulkMergeWait),
            case .message(let next)? = read.0, case .ops(let more) = next.kind, more.doc == batch.doc
        {
            let moreBytes = more.ops.reduce(0) { $0 + $1.count }
            guard bytes + moreBytes <= limits.maxMessageBytes else { break }
            // Its batch reaches the store now, which verifies what is left itself.
            read.1?.cancel()
            session.noteReceived(ops: Self.opFingerprints([next]))
            batch.ops += more.ops
            bytes += moreBytes
            ahead = Task { try await reader.nextVerifyingOps() }
        }
        message.ops = batch
        return ahead
    }

    /// The outcome of `task` if it ends within `wait`; nil otherwise, or if it failed (the
    /// task is left to be awaited again). Never waits longer than `wait`.
    private static func arrival<T: Sendable>(of task: Task<T, any Error>, within wait: Duration) async -> T? {
        let first = FirstAnswer<T?>()
        return await withCheckedContinuation { continuation in
            first.set(continuation)
            Task { first.answer(try? await task.value) }
            Task {
                try? await Task.sleep(for: wait)
                first.answer(nil)
            }
        }
    }
}

/// A continuation resumed by the first of several racing answers; the later ones are dropped.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, Never>?>(nil)

    func set(_ waiting: CheckedContinuation<T, Never>) { continuation.withLock { $0 = waiting } }

    func answer(_ value: T) {
        continuation.withLock { waiting in
            waiting?.resume(returning: value)
            waiting = nil
        }
    }
}
