import CSodium

/// BLAKE2b-256 over bytes that arrive in pieces (`crypto_generichash_init/update/final`):
/// a blob is hashed chunk by chunk as it is received, so it never has to be in memory whole.
///
/// Not `Sendable`: the state is mutated in place. Keep one stream per hashing job, behind
/// whatever lock guards that job.
public final class Blake2bStream {
    /// The digest length: 32 bytes, the same as `Blake2b.hash256`.
    public static let digestBytes = 32

    // libsodium declares the state 64-byte aligned (CRYPTO_ALIGN(64)), which Swift cannot
    // import as a struct (the C functions take an OpaquePointer), so it lives in its own
    // allocation with that alignment.
    private let state: UnsafeMutableRawPointer
    private var finished = false

    /// A fresh stream; `update` it with the bytes in order, then call `finalize` once.
    public init() throws(CryptoError) {
        try Sodium.ensureInitialized()
        state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        let rc = crypto_generichash_init(
            OpaquePointer(state), nil, 0, Blake2bStream.digestBytes)
        guard rc == 0 else {
            state.deallocate()
            throw CryptoError(.unavailable, "BLAKE2b could not be initialised")
        }
    }

    deinit {
        // The state is derived from the hashed bytes (photos); wipe it like a key.
        sodium_memzero(state, crypto_generichash_statebytes())
        state.deallocate()
    }

    /// Feeds the next bytes. Throws `.invalidInput` after `finalize`.
    public func update(_ bytes: [UInt8]) throws(CryptoError) {
        try checkOpen()
        try check(bytes.withUnsafeBytes { feed($0) })
    }

    /// Feeds the next bytes. Throws `.invalidInput` after `finalize`.
    public func update(_ bytes: ArraySlice<UInt8>) throws(CryptoError) {
        try checkOpen()
        try check(bytes.withUnsafeBytes { feed($0) })
    }

    /// Feeds the next bytes without copying them. Throws `.invalidInput` after `finalize`.
    public func update(_ bytes: UnsafeRawBufferPointer) throws(CryptoError) {
        try checkOpen()
        try check(feed(bytes))
    }

    private func feed(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        crypto_generichash_update(
            OpaquePointer(state), bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    private func checkOpen() throws(CryptoError) {
        guard !finished else { throw CryptoError(.invalidInput, "the hash was already finalised") }
    }

    private func check(_ rc: Int32) throws(CryptoError) {
        guard rc == 0 else { throw CryptoError(.invalidInput, "BLAKE2b rejected its input") }
    }

    /// The 32-byte digest of everything fed so far; the stream cannot be used afterwards.
    public func finalize() throws(CryptoError) -> [UInt8] {
        try checkOpen()
        finished = true
        var out = [UInt8](repeating: 0, count: Blake2bStream.digestBytes)
        let rc = crypto_generichash_final(
            OpaquePointer(state), &out, out.count)
        guard rc == 0 else { throw CryptoError(.invalidInput, "BLAKE2b could not finish") }
        return out
    }
}
