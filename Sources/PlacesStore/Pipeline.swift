import Foundation

/// Computes `work(0..<count)` ahead of a caller that takes the results in order: the
/// other cores work through the items in chunks while the caller does its sequential part
/// (SQLite) with the results already there, and the caller computes a chunk itself when the
/// one it needs is not ready. So signing or verifying a batch overlaps storing it.
final class Pipeline<T: Sendable>: @unchecked Sendable {
    private let count: Int
    private let chunk: Int
    private let work: @Sendable (Int) -> T
    // Guarded by `condition`.
    private var results: [T?]
    private var done: [Bool]
    private var nextChunk = 0
    private let condition = NSCondition()

    /// Starts the background work on all cores but the caller's; with one core (or a small
    /// batch), everything is computed by the caller as it asks.
    init(count: Int, chunk: Int = 32, work: @escaping @Sendable (Int) -> T) {
        self.count = count
        self.chunk = max(1, chunk)
        self.work = work
        results = Array(repeating: nil, count: count)
        done = Array(repeating: false, count: (count + self.chunk - 1) / self.chunk)
        let workers = min(ProcessInfo.processInfo.activeProcessorCount - 1, done.count - 1)
        for _ in 0..<max(0, workers) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                while let c = claim() { run(c) }
            }
        }
    }

    /// The result for item `i` (computed by now, or computed here).
    func result(_ i: Int) -> T {
        let needed = i / chunk
        while true {
            condition.lock()
            if done[needed] {
                let value = results[i]!
                condition.unlock()
                return value
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
        condition.unlock()
    }

    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard nextChunk < done.count else { return nil }
        nextChunk += 1
        return nextChunk - 1
    }

    private func run(_ c: Int) {
        let range = (c * chunk)..<min(count, (c + 1) * chunk)
        let values = range.map(work)
        condition.lock()
        for (i, value) in zip(range, values) { results[i] = value }
        done[c] = true
        condition.broadcast()
        condition.unlock()
    }
}
