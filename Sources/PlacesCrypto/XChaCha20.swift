import CSodium

/// The XChaCha20 stream cipher (libsodium's `crypto_stream_xchacha20_xor_ic`), without
/// authentication: for a key that encrypts exactly one plaintext whose integrity is checked
/// another way (a relay's copy of a photo, checked against the photo's hash by its reader:
/// `Protocol/relay.md` §8).
public enum XChaCha20 {
    /// Key length.
    public static let keyBytes = 32
    /// Nonce length.
    public static let nonceBytes = 24
    /// Bytes of keystream per block (the block counter counts these).
    static let blockBytes = 64

    /// `bytes` XOR the keystream of `key` and `nonce` from byte `offset` of the stream on: the
    /// same call encrypts and decrypts, and any range of a message can be done on its own.
    /// Throws for a key or nonce of another length.
    public static func xor(_ bytes: [UInt8], at offset: UInt64, key: [UInt8], nonce: [UInt8]) throws(CryptoError)
        -> [UInt8]
    {
        try Sodium.ensureInitialized()
        guard key.count == keyBytes, nonce.count == nonceBytes else {
            throw CryptoError(.invalidInput, "an XChaCha20 key is 32 bytes and its nonce 24")
        }
        guard !bytes.isEmpty else { return [] }
        // The stream starts at a block boundary: the bytes before `offset` within its block are
        // padded with zeros, encrypted and dropped. `skip` < 64, so the sum cannot overflow
        // for a message of any size an array holds.
        let skip = Int(offset % UInt64(blockBytes))
        let input = [UInt8](repeating: 0, count: skip) + bytes
        var out = [UInt8](repeating: 0, count: input.count)
        // `input.count` is an array's count (never negative, so `UInt64(_:)` cannot trap), and
        // `offset / 64` fits any 64-bit counter.
        let counter = offset / UInt64(blockBytes)
        _ = crypto_stream_xchacha20_xor_ic(&out, input, UInt64(input.count), nonce, counter, key)
        return Array(out[skip...])
    }
}
