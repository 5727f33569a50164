import Foundation

/// The cores this process may use (see `Pipeline.cores`); a generic type cannot hold it.
private let coreCount = ProcessInfo.processInfo.activeProcessorCount

/// Computes `work(0..<count)` ahead of a caller that takes the results in order: the
/// other cores work through the items in chunks while the caller does its sequential part
/// (SQLite) with the results already there, and the caller computes a chunk itself when the
/// one it needs is not ready. So signing or verifying a batch overlaps storing it.
///
/// The inputs may also become ready one by one (`published`, then `publish`): a chunk is
/// handed out once all its items are published, so signing starts while the caller is
/// still preparing the ops that follow.
final class Pipeline<T: Sendable>: @unchecked Sendable {
    private let count: Int
    private let chunk: Int
    private let work: @Sendable (Range<Int>) -> [T]
    // Guarded by `condition`.
    private var results: [T?]
    private var done: [Bool]
    private var nextChunk = 0
    private var published: Int
    private let condition = NSCondition()
    // The caller's side only: the chunk whose results it holds.
    private var takenChunk = -1
    private var taken: [T?] = []

    /// The cores this process may use, read once: `activeProcessorCount` reads the cgroup's
    /// quota files on each call (open, read, close), which cost a one-op append or ingest
    /// about a fifth of its time.
    private static var cores: Int { coreCount }

    /// Starts the background work on all cores but the caller's; with one core (or a small
    /// batch), everything is computed by the caller as it asks.
    convenience init(count: Int, chunk: Int = 32, published: Int? = nil, work: @escaping @Sendable (Int) -> T) {
        self.init(count: count, chunk: chunk, published: published, chunkWork: { range in range.map(work) })
    }

    /// As `init(count:chunk:published:work:)`, with the work done a chunk at a time
    /// (`chunkWork` returns one result per item of its range, in order).
    init(
        count: Int, chunk: Int = 32, published: Int? = nil,
        chunkWork work: @escaping @Sendable (Range<Int>) -> [T]
    ) {
        self.count = count
        self.chunk = max(1, chunk)
        self.published = published ?? count
        self.work = work
        results = Array(repeating: nil, count: count)
        done = Array(repeating: false, count: (count + self.chunk - 1) / self.chunk)
        let workers = done.count > 1 ? min(Pipeline.cores - 1, done.count - 1) : 0
        for _ in 0..<max(0, workers) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                while let c = claim(wait: true) { run(c) }
            }
        }
    }

    /// Marks the inputs of items `0..<count` ready. Only a whole chunk (or the last item)
    /// is handed out, so the lock is taken only then: a call per item costs the caller a
    /// lock it shares with the workers.
    func publish(upTo count: Int) {
        guard count % chunk == 0 || count >= self.count else { return }
        condition.lock()
        let before = published
        published = max(published, count)
        // Workers wait for whole chunks: wake them only when one is complete.
        if published / chunk != before / chunk || published == self.count { condition.broadcast() }
        condition.unlock()
    }

    /// The result for item `i` (computed by now, or computed here). Item `i` must be published.
    /// The caller's results are taken a chunk at a time (one lock per chunk); only the one
    /// caller may ask.
    func result(_ i: Int) -> T {
        let needed = i / chunk
        if needed == takenChunk, let value = taken[i - needed * chunk] { return value }
        while true {
            condition.lock()
            if done[needed] {
                let range = (needed * chunk)..<min(count, (needed + 1) * chunk)
                taken = Array(results[range])
                takenChunk = needed
                condition.unlock()
                return taken[i - needed * chunk]!
            }
            condition.unlock()
            if let c = claim() {
                run(c)
            } else {
                condition.lock()
                while !done[needed] { condition.wait() }
                condition.unlock()
            }
        }
    }

    /// Stops handing out chunks (the caller needs no more results).
    func cancel() {
        condition.lock()
        nextChunk = done.count
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk whose inputs are all published, waiting for them when `wait` (the
    /// background workers) and nil when there is none (all handed out or, without `wait`,
    /// not yet published).
    private func claim(wait: Bool = false) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while nextChunk < done.count && min(count, (nextChunk + 1) * chunk) > published {
            guard wait else { return nil }
            condition.wait()
        }
        guard nextChunk < done.count else { return nil }
        nextChunk += 1
        return nextChunk - 1
    }

    private func run(_ c: Int) {
        let range = (c * chunk)..<min(count, (c + 1) * chunk)
        let values = work(range)
        condition.lock()
        for (i, value) in zip(range, values) { results[i] = value }
        done[c] = true
        condition.broadcast()
        condition.unlock()
    }
}
