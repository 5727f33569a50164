import CSodium

/// An X25519 key pair as Noise's `DH` functions use it (Noise spec section 4.1).
struct NoiseKeyPair: Sendable {
    /// The 32-byte private scalar (wiped when the last copy goes away).
    let secretKey: NoiseSecretBytes
    /// The 32-byte public key.
    let publicKey: [UInt8]

    /// Derives the public key from a 32-byte X25519 private key.
    init(secretKey bytes: [UInt8]) throws(CryptoError) {
        try Sodium.ensureInitialized()
        guard bytes.count == NoiseDH.keyLength else {
            throw CryptoError(
                .invalidInput, "An X25519 private key must be \(NoiseDH.keyLength) bytes, not \(bytes.count)")
        }
        var publicKey = [UInt8](repeating: 0, count: NoiseDH.keyLength)
        let status = crypto_scalarmult_curve25519_base(&publicKey, bytes)
        guard status == 0 else {
            throw CryptoError(.invalidInput, "The X25519 private key gives an unusable public key; generate a new one")
        }
        self.secretKey = NoiseSecretBytes(bytes)
        self.publicKey = publicKey
    }

    /// `GENERATE_KEYPAIR()`: a fresh random key pair.
    static func generate() throws(CryptoError) -> NoiseKeyPair {
        try Sodium.ensureInitialized()
        var secret = Sodium.randomBytes(NoiseDH.keyLength)
        defer { noiseWipe(&secret) }
        return try NoiseKeyPair(secretKey: secret)
    }
}

/// Noise's `DH` function for Curve25519.
enum NoiseDH {
    /// `DHLEN`: the length of public keys and shared secrets.
    static let keyLength = 32

    /// `DH(key_pair, public_key)`: the X25519 shared secret, which the caller must wipe.
    ///
    /// An all-zero result (the peer sent a low-order point) is rejected, as Noise allows, so
    /// a malicious peer cannot force a known shared secret.
    static func dh(_ keyPair: NoiseKeyPair, _ publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard publicKey.count == keyLength else {
            throw CryptoError(
                .handshakeFailed, "The peer's X25519 public key has \(publicKey.count) bytes, not \(keyLength)")
        }
        var shared = [UInt8](repeating: 0, count: keyLength)
        let status = keyPair.secretKey.withUnsafePointer { secret in
            crypto_scalarmult_curve25519(&shared, secret, publicKey)
        }
        // libsodium already returns -1 for an all-zero output; the explicit check keeps the
        // rule visible and independent of the library version.
        let isZero = sodium_is_zero(shared, shared.count) == 1
        guard status == 0, !isZero else {
            noiseWipe(&shared)
            throw CryptoError(
                .handshakeFailed, "The peer's X25519 public key is a low-order point; close the connection")
        }
        return shared
    }
}
