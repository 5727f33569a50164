import Synchronization

/// Verifies the signatures of ops, keeping the precomputed multiples (`Ed25519KeyTable`) of
/// the keys that sign most: a trip's ops come from a few authors, thousands each, and a key
/// with a table verifies in less than half of libsodium's time. Every answer is libsodium's
/// (`PublicKey.verify`), whichever way it is computed.
///
/// A key gets a table once `verifiedBeforeTable` of its signatures have verified (a table
/// takes about two verifications' time to build). What a peer can make this hold is bounded
/// (`Protocol/sync.md` §7, "Bounds"): at most `maxTables` tables (30 KB each), the least
/// recently used one replaced, and at most `maxCounted` keys counted, forgotten all at once
/// when full. Keys that a peer makes up therefore cost it three valid signatures each, and
/// the daemon at most one table built per three verifications.
public final class SignatureVerifier: Sendable {
    /// The one the store's ingest and relay paths use.
    public static let shared = SignatureVerifier()

    public static let maxTables = 64
    public static let maxCounted = 1_024
    public static let verifiedBeforeTable = 3

    private struct State {
        var tables: [PublicKey: (table: Ed25519KeyTable, used: UInt64)] = [:]
        var verified: [PublicKey: Int] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Exactly `key.verify(signature, for: message)`.
    public func verify(_ signature: Signature, by key: PublicKey, for message: [UInt8]) -> Bool {
        message.withUnsafeBytes { verify(signature, by: key, for: $0) }
    }

    /// Exactly `key.verify(signature, for: message)`.
    public func verify(_ signature: Signature, by key: PublicKey, for message: UnsafeRawBufferPointer) -> Bool {
        if let table = table(for: key) { return table.verify(signature, for: message) }
        return verifyCounting(signature, by: key, for: message)
    }

    /// Exactly `key.verify(signature, for: message)` for each item, in order. Those whose key
    /// has a table are verified together, with one field inversion for all of them
    /// (`Ed25519KeyTable.verifyAll`): a chunk of a batch of ops costs less than one by one.
    public func verifyAll(_ items: [(signature: Signature, key: PublicKey, message: [UInt8])]) -> [Bool] {
        var results = [Bool](repeating: false, count: items.count)
        var tabled = [(table: Ed25519KeyTable, signature: Signature, message: [UInt8])]()
        var positions = [Int]()
        for (i, item) in items.enumerated() {
            if let table = table(for: item.key) {
                tabled.append((table, item.signature, item.message))
                positions.append(i)
            } else {
                results[i] = item.message.withUnsafeBytes { verifyCounting(item.signature, by: item.key, for: $0) }
            }
        }
        for (valid, i) in zip(Ed25519KeyTable.verifyAll(tabled), positions) { results[i] = valid }
        return results
    }

    /// The table of `key`, marked as used; nil when it has none.
    private func table(for key: PublicKey) -> Ed25519KeyTable? {
        state.withLock { state -> Ed25519KeyTable? in
            guard var entry = state.tables[key] else { return nil }
            state.clock &+= 1
            entry.used = state.clock
            state.tables[key] = entry
            return entry.table
        }
    }

    /// libsodium's answer for a key without a table, counting the key's valid signatures and
    /// building its table at the count.
    private func verifyCounting(_ signature: Signature, by key: PublicKey, for message: UnsafeRawBufferPointer)
        -> Bool
    {
        guard key.verify(signature, for: message) else { return false }
        let build = state.withLock { state -> Bool in
            if state.verified[key] == nil, state.verified.count >= Self.maxCounted { state.verified.removeAll() }
            let count = (state.verified[key] ?? 0) &+ 1
            state.verified[key] = count
            return count == Self.verifiedBeforeTable
        }
        // Built outside the lock (about 75 µs); only the verification that reached the count builds.
        if build, let table = Ed25519KeyTable(key) {
            state.withLock { state in
                state.verified[key] = nil
                if state.tables.count >= Self.maxTables,
                    let oldest = state.tables.min(by: { $0.value.used < $1.value.used })?.key
                {
                    state.tables[oldest] = nil
                }
                state.clock &+= 1
                state.tables[key] = (table, state.clock)
            }
        }
        return true
    }

    /// How many keys have a table (for tests).
    public var tableCount: Int { state.withLock { $0.tables.count } }

    /// Whether `key` has a table (for tests).
    public func hasTable(for key: PublicKey) -> Bool { state.withLock { $0.tables[key] != nil } }
}
