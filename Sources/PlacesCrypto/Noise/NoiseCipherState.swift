import CSodium

/// Noise `CipherState` (spec section 5.1) with ChaChaPoly: IETF ChaCha20-Poly1305, the
/// 96-bit nonce being 4 zero bytes followed by the 64-bit counter in little-endian order.
struct NoiseCipherState: Sendable {
    /// The length of the Poly1305 tag appended to every ciphertext.
    static let tagLength = 16
    /// The length of a cipher key.
    static let keyLength = 32
    /// Nonce 2^64-1 is reserved by the spec (for rekeying), so it is never used to encrypt.
    static let reservedNonce = UInt64.max

    /// `k`, or `nil` while empty (before the first `MixKey`).
    private(set) var key: NoiseSecretBytes?
    /// `n`: the next nonce. Internal so tests can jump close to exhaustion.
    var nonce: UInt64 = 0

    /// `InitializeKey(key)`: sets `k` (copying it) and resets the nonce.
    init(key: [UInt8]? = nil) {
        self.key = key.map { NoiseSecretBytes($0) }
    }

    /// `InitializeKey` from the first 32 bytes of an HKDF output, without an unwiped copy.
    init(keyFromPrefixOf material: [UInt8]) {
        key = NoiseSecretBytes(material.prefix(Self.keyLength))
    }

    /// `HasKey()`.
    var hasKey: Bool { key != nil }

    /// `EncryptWithAd(ad, plaintext)`: returns the plaintext unchanged while there is no key.
    mutating func encrypt(ad: [UInt8], plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let key else { return plaintext }
        guard nonce != Self.reservedNonce else {
            throw CryptoError(.nonceExhausted, "This Noise session used all its nonces; reconnect to start a new one")
        }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Self.tagLength)
        let nonceBytes = Self.nonceBytes(nonce)
        var length: UInt64 = 0
        let status = key.withUnsafePointer { keyPointer in
            crypto_aead_chacha20poly1305_ietf_encrypt(
                &ciphertext, &length, plaintext, UInt64(plaintext.count), ad, UInt64(ad.count),
                nil, nonceBytes, keyPointer)
        }
        guard status == 0 else {
            throw CryptoError(.invalidInput, "ChaCha20-Poly1305 refused to encrypt \(plaintext.count) bytes")
        }
        nonce += 1
        return ciphertext
    }

    /// `DecryptWithAd(ad, ciphertext)`: returns the ciphertext unchanged while there is no key.
    /// On failure the nonce is not advanced and `.decryptionFailed` is thrown.
    mutating func decrypt(ad: [UInt8], ciphertext: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let key else { return ciphertext }
        guard nonce != Self.reservedNonce else {
            throw CryptoError(.nonceExhausted, "This Noise session used all its nonces; reconnect to start a new one")
        }
        guard ciphertext.count >= Self.tagLength else {
            throw CryptoError(
                .decryptionFailed,
                "A Noise ciphertext of \(ciphertext.count) bytes is shorter than its tag; close the connection")
        }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - Self.tagLength)
        let nonceBytes = Self.nonceBytes(nonce)
        var length: UInt64 = 0
        let status = key.withUnsafePointer { keyPointer in
            crypto_aead_chacha20poly1305_ietf_decrypt(
                &plaintext, &length, nil, ciphertext, UInt64(ciphertext.count), ad, UInt64(ad.count),
                nonceBytes, keyPointer)
        }
        guard status == 0 else {
            throw CryptoError(
                .decryptionFailed,
                "A Noise message failed authentication (altered, replayed or reordered); close the connection")
        }
        nonce += 1
        return plaintext
    }

    private static func nonceBytes(_ counter: UInt64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 {
            bytes[4 + index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index)))
        }
        return bytes
    }
}
