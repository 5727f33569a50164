import Synchronization

/// The bounded queue of serialized messages waiting to be written to one session.
///
/// Enqueueing never waits, so a slow peer never blocks the caller (or other peers): when
/// the queue would pass its limits, `enqueue` reports an overflow and the caller
/// disconnects that peer. One writer task takes messages with `next()`.
final class SessionOutbox: Sendable {
    enum EnqueueResult: Equatable {
        case enqueued
        /// The limits would be passed; nothing was queued.
        case overflow
        /// The session is closing; nothing was queued.
        case closed
    }

    private struct State {
        var items: [[UInt8]] = []
        var head = 0
        var queuedBytes = 0
        var finished = false
        var waiter: CheckedContinuation<[UInt8]?, Never>?
    }

    private let maxBytes: Int
    private let maxMessages: Int
    private let state = Mutex(State())

    init(maxBytes: Int, maxMessages: Int) {
        self.maxBytes = maxBytes
        self.maxMessages = maxMessages
    }

    /// Queues one serialized message, or hands it straight to a waiting writer.
    func enqueue(_ message: [UInt8]) -> EnqueueResult {
        let (result, waiter): (EnqueueResult, CheckedContinuation<[UInt8]?, Never>?) = state.withLock {
            state in
            if state.finished { return (.closed, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (.enqueued, waiter)
            }
            guard state.items.count - state.head < maxMessages, state.queuedBytes + message.count <= maxBytes
            else { return (.overflow, nil) }
            state.items.append(message)
            state.queuedBytes += message.count
            return (.enqueued, nil)
        }
        waiter?.resume(returning: message)
        return result
    }

    /// Stops accepting messages. With `discardPending` the queued ones are dropped; `last`
    /// (a `Bye`) is written after whatever remains. The writer's `next()` returns nil once
    /// the queue is empty.
    func finish(last: [UInt8]? = nil, discardPending: Bool) {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            if discardPending {
                state.items = []
                state.head = 0
                state.queuedBytes = 0
            }
            if let last { state.items.append(last) }
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        // A waiting writer has an empty queue: give it `last`, or the end.
        if let waiter {
            waiter.resume(returning: takeNext())
        }
    }

    /// The next message to write; waits while the queue is empty; nil once finished and
    /// drained, or when the task is cancelled.
    func next() async -> [UInt8]? {
        if let message = takeNext() { return message }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
                let ready: [UInt8]?? = state.withLock { state in
                    if state.head < state.items.count { return .some(Self.popFirst(&state)) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    private func takeNext() -> [UInt8]? {
        state.withLock { state in
            state.head < state.items.count ? Self.popFirst(&state) : nil
        }
    }

    private static func popFirst(_ state: inout State) -> [UInt8] {
        let message = state.items[state.head]
        state.items[state.head] = []
        state.head += 1
        state.queuedBytes -= message.count
        // Compact once the consumed prefix dominates, keeping pops O(1) amortized.
        if state.head == state.items.count {
            state.items.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head > 64 && state.head * 2 > state.items.count {
            state.items.removeFirst(state.head)
            state.head = 0
        }
        return message
    }
}
