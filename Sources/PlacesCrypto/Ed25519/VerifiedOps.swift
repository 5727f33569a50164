import Foundation
import PlacesModel
import Synchronization

/// Signatures of received ops verified before their batch is stored: while a daemon stores
/// one batch of a peer's ops, the next one (already read from the connection) is verified on
/// a core the store leaves idle, and the store's ingest then skips the verification of the
/// ops found here. A fresh sync's batches follow each other, so the cores stay busy across
/// each batch's commit.
///
/// An entry is an op id (BLAKE2b-256 of the signed bytes, which hold the author key) and the
/// signature that verified over those bytes; the ingest takes it only with the same id and
/// signature, and once. At most `capacity` entries are kept, the oldest dropped first
/// (`Protocol/sync.md` §7, "Bounds"): an entry that is never taken costs only its 96 bytes.
public final class VerifiedOps: Sendable {
    /// The one the sync transport fills and the store's ingest reads.
    public static let shared = VerifiedOps()

    public static let defaultCapacity = 16_384
    public static let maxQueued = IdleWorker.maxQueued

    /// A verification of a batch under way, which stops at the next chunk of `chunk` ops once
    /// cancelled (its batch reached the store, which verifies the rest itself).
    public final class Ahead: Sendable {
        private let cancelled = Atomic(false)
        public init() {}
        public func cancel() { cancelled.store(true, ordering: .relaxed) }
        public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    private struct State {
        var signatures: [[UInt8]: [UInt8]] = [:]
        /// Insertion order of `signatures`' keys, a ring of `capacity`.
        var order: [[UInt8]] = []
        var next = 0
    }

    public let capacity: Int
    private let state = Mutex(State())
    private let verifier: SignatureVerifier

    public init(capacity: Int = defaultCapacity, verifier: SignatureVerifier = .shared) {
        self.capacity = max(1, capacity)
        self.verifier = verifier
    }

    /// Verifies `encodedOps` in order on this process's idle-time thread, remembering each op
    /// whose bytes decode and whose signature holds; stops when `ahead` is cancelled. At most
    /// `maxQueued` batches wait; a batch past that is not verified ahead (its ingest does it).
    /// `done`, when given, is called once the batch is verified or dropped (for tests).
    public func verifyInBackground(
        _ encodedOps: [[UInt8]], ahead: Ahead, done: (@Sendable () -> Void)? = nil
    ) {
        let queued = IdleWorker.shared.submit { [self] in
            defer { done?() }
            var start = 0
            while start < encodedOps.count {
                if ahead.isCancelled { return }
                let end = min(encodedOps.count, start + Self.chunk)
                verify(encodedOps[start..<end])
                start = end
            }
        }
        if !queued { done?() }
    }

    /// Ops verified together (one field inversion for all, `SignatureVerifier.verifyAll`),
    /// and how many more a cancelled verification may go on for.
    public static let chunk = 16

    /// Verifies one encoded op and remembers it when its signature holds.
    public func verify(_ bytes: [UInt8]) { verify([bytes][...]) }

    /// Verifies encoded ops together and remembers each whose signature holds.
    public func verify(_ encodedOps: ArraySlice<[UInt8]>) {
        var items = [(signature: Signature, key: PublicKey, message: [UInt8])]()
        var ops = [SignedOp]()
        for bytes in encodedOps {
            guard let op = try? SignedOp(decoding: bytes), let author = try? PublicKey(bytes: op.header.author),
                let signature = try? Signature(bytes: op.signature)
            else { continue }
            items.append((signature, author, op.signedBytes))
            ops.append(op)
        }
        for (valid, op) in zip(verifier.verifyAll(items), ops) where valid {
            insert(id: Blake2b.hash256(op.signedBytes), signature: op.signature)
        }
    }

    /// Whether the op with `id` (computed by the caller from the bytes it holds) and
    /// `signature` was verified here; forgets it.
    public func take(id: [UInt8], signature: [UInt8]) -> Bool {
        state.withLock { state in
            guard let held = state.signatures[id], held == signature else { return false }
            state.signatures[id] = nil
            return true
        }
    }

    /// Whether the op with `id` and `signature` is held, without taking it (for tests).
    public func holds(id: [UInt8], signature: [UInt8]) -> Bool {
        state.withLock { $0.signatures[id] == signature }
    }

    /// How many entries are held (for tests).
    public var count: Int { state.withLock { $0.signatures.count } }

    private func insert(id: [UInt8], signature: [UInt8]) {
        state.withLock { state in
            guard state.signatures.updateValue(signature, forKey: id) == nil else { return }
            if state.order.count < capacity {
                state.order.append(id)
                return
            }
            // The ring is full: the oldest key makes room (it may have been taken already).
            let oldest = state.order[state.next]
            if oldest != id { state.signatures[oldest] = nil }
            state.order[state.next] = id
            state.next = (state.next + 1) % capacity
        }
    }
}

/// One thread that runs only when no other thread of the machine wants a core (Linux
/// `SCHED_IDLE`): verifying ahead must not slow the store's writer, the ingest's bound. The
/// locks it shares with other threads are `Mutex`es, which lend a waiter's priority to the
/// holder (priority-inheritance futexes), so a preempted holder does not stall them.
final class IdleWorker: Sendable {
    static let shared = IdleWorker()
    static let maxQueued = 8
    /// Linux `SCHED_IDLE` (glibc declares it only with `_GNU_SOURCE`).
    static let schedIdle: Int32 = 5

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    /// Counts the jobs queued.
    private let queued = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            var param = sched_param()
            // Best effort: without the policy the thread still works, at normal priority.
            _ = pthread_setschedparam(pthread_self(), IdleWorker.schedIdle, &param)
            while true {
                queued.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
        thread.name = "places-verify-ahead"
        thread.start()
    }

    /// Queues `job`; false (dropped) when `maxQueued` jobs already wait.
    @discardableResult
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = jobs.withLock { jobs in
            guard jobs.count < Self.maxQueued else { return false }
            jobs.append(job)
            return true
        }
        if accepted { queued.signal() }
        return accepted
    }
}
