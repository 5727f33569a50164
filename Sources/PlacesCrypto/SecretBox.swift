import CSodium

/// Symmetric authenticated encryption with XChaCha20-Poly1305 (IETF), used for op bodies
/// and sealed key files. A fresh random 24-byte nonce is drawn per message and stored in
/// front of the ciphertext.
public enum SecretBox {
    /// Key length in bytes.
    public static let keyBytes = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    /// Nonce length in bytes.
    public static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    /// Authentication tag length in bytes.
    public static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// A new random key.
    public static func randomKey() throws(CryptoError) -> [UInt8] {
        try Sodium.ensureInitialized()
        return Sodium.randomBytes(keyBytes)
    }

    /// Encrypts `plaintext`, binding `associatedData`; returns nonce ‖ ciphertext ‖ tag.
    /// `nonce` is drawn here unless given: a caller sealing many messages at once draws
    /// their random nonces in one call (`SecureRandom.nonces`). Never pass a nonce that was
    /// used before with the same key.
    public static func seal(
        _ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = [], nonce: ArraySlice<UInt8>? = nil
    ) throws(CryptoError) -> [UInt8] {
        try Sodium.ensureInitialized()
        guard key.count == keyBytes else { throw CryptoError(.invalidInput, "an XChaCha20 key is 32 bytes") }
        guard nonce == nil || nonce!.count == nonceBytes else {
            throw CryptoError(.invalidInput, "an XChaCha20 nonce is 24 bytes")
        }
        let nonce = nonce.map(Array.init) ?? Sodium.randomBytes(nonceBytes)
        var out = nonce + [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var outLen: UInt64 = 0
        out.withUnsafeMutableBufferPointer { buf in
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                buf.baseAddress! + nonceBytes, &outLen, plaintext, UInt64(plaintext.count),
                associatedData, UInt64(associatedData.count), nil, nonce, key)
        }
        return out
    }

    /// Opens nonce ‖ ciphertext ‖ tag; throws `.decryptionFailed` for a wrong key or altered bytes.
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        try Sodium.ensureInitialized()
        guard key.count == keyBytes else { throw CryptoError(.invalidInput, "an XChaCha20 key is 32 bytes") }
        guard sealed.count >= nonceBytes + tagBytes else {
            throw CryptoError(.decryptionFailed, "the ciphertext is shorter than its nonce and tag")
        }
        var out = [UInt8](repeating: 0, count: sealed.count - nonceBytes - tagBytes)
        var outLen: UInt64 = 0
        let rc = sealed.withUnsafeBufferPointer { buf in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                &out, &outLen, nil, buf.baseAddress! + nonceBytes, UInt64(sealed.count - nonceBytes),
                associatedData, UInt64(associatedData.count), buf.baseAddress!, key)
        }
        guard rc == 0 else { throw CryptoError(.decryptionFailed, "the ciphertext does not open with this key") }
        return out
    }
}

/// Anonymous public-key encryption (`crypto_box_seal`) to an identity's X25519 key: how a
/// document key is handed to a member (and to oneself, for local storage).
public enum SealedBox {
    /// Seals `plaintext` so that only the holder of `recipient`'s secret key can open it.
    public static func seal(_ plaintext: [UInt8], to recipient: PublicKey) throws(CryptoError) -> [UInt8] {
        let pk = try recipient.curve25519PublicKey()
        var out = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_box_sealbytes()))
        _ = crypto_box_seal(&out, plaintext, UInt64(plaintext.count), pk)
        return out
    }

    /// Opens a sealed box addressed to `identity`.
    public static func open(_ sealed: [UInt8], with identity: SigningKeyPair) throws(CryptoError) -> [UInt8] {
        guard sealed.count >= Int(crypto_box_sealbytes()) else {
            throw CryptoError(.decryptionFailed, "the sealed box is too short")
        }
        let pk = try identity.publicKey.curve25519PublicKey()
        var sk = identity.curve25519SecretKey()
        defer { sodium_memzero(&sk, sk.count) }
        var out = [UInt8](repeating: 0, count: sealed.count - Int(crypto_box_sealbytes()))
        guard crypto_box_seal_open(&out, sealed, UInt64(sealed.count), pk, sk) == 0 else {
            throw CryptoError(.decryptionFailed, "the sealed box is not addressed to this identity or was altered")
        }
        return out
    }
}

/// BLAKE2b hashing (`crypto_generichash`).
public enum Blake2b {
    /// The 32-byte BLAKE2b-256 digest of `bytes`: op ids.
    public static func hash256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&out, 32, bytes, UInt64(bytes.count), nil, 0)
        return out
    }

    /// The 32-byte keyed BLAKE2b-256 of `bytes` (`crypto_generichash` with a key of 16 to 64
    /// bytes): a MAC. Nil for a key of another length.
    public static func mac256(key: [UInt8], _ bytes: [UInt8]) -> [UInt8]? {
        guard (16...64).contains(key.count) else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&out, 32, bytes, UInt64(bytes.count), key, key.count)
        return out
    }

    /// Whether two byte strings are equal, in time that depends only on their length.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return sodium_memcmp(a, b, a.count) == 0
    }
}

/// Random bytes for ids and keys.
public enum SecureRandom {
    /// `count` bytes from libsodium's CSPRNG.
    public static func bytes(_ count: Int) -> [UInt8] {
        _ = try? Sodium.ensureInitialized()
        return Sodium.randomBytes(count)
    }

    /// `count` random `SecretBox` nonces drawn in one call (one system call instead of one
    /// per message), as consecutive slices.
    public static func nonces(_ count: Int) -> [ArraySlice<UInt8>] {
        guard count > 0 else { return [] }
        let all = bytes(count * SecretBox.nonceBytes)
        return (0..<count).map { all[($0 * SecretBox.nonceBytes)..<(($0 + 1) * SecretBox.nonceBytes)] }
    }
}
