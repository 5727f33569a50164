import CSodium

/// Fixed-size secret bytes (a key, a chaining key) in memory this module owns, wiped with
/// `sodium_memzero` when the last reference goes away.
///
/// Swift arrays may be copied behind our back by copy-on-write, so a secret kept in an
/// `[UInt8]` cannot be wiped reliably. The bytes here are never mutated after `init`,
/// which is why sharing a reference between copies of a value type is safe.
final class NoiseSecretBytes: @unchecked Sendable {
    // @unchecked: the buffer is written only in `init` and read-only afterwards.
    private let storage: UnsafeMutablePointer<UInt8>

    /// Copies `bytes`; the caller should wipe its own copy with `noiseWipe`.
    init(_ bytes: some Collection<UInt8>) {
        // At least one byte so the allocation is never empty.
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        storage.initialize(repeating: 0, count: max(bytes.count, 1))
        for (index, byte) in bytes.enumerated() { storage[index] = byte }
        count = bytes.count
    }

    /// The number of secret bytes.
    let count: Int

    /// Gives `body` read access to the secret bytes; they must not escape it.
    func withUnsafePointer<R, E: Error>(_ body: (UnsafePointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(storage)
    }

    /// A copy as an array, for APIs that need one; wipe it after use.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    deinit {
        sodium_memzero(storage, max(count, 1))
        storage.deallocate()
    }
}

/// Overwrites the array's bytes with zeros (without changing its length).
func noiseWipe(_ bytes: inout [UInt8]) {
    let count = bytes.count
    guard count > 0 else { return }
    sodium_memzero(&bytes, count)
}
