import CSodium

/// A Places peer's Noise static key: the X25519 key pair derived from its Ed25519 identity,
/// so a peer's Noise key is a function of its public id and needs no separate certificate.
public struct NoiseStaticKey: Sendable {
    let keyPair: NoiseKeyPair

    /// The 32-byte X25519 public key the handshake sends as `s`.
    public var publicKey: [UInt8] { keyPair.publicKey }

    /// Derives the static key from a libsodium Ed25519 secret key (64 bytes: seed then
    /// public key) with `crypto_sign_ed25519_sk_to_curve25519`.
    public init(ed25519SecretKey: [UInt8]) throws(CryptoError) {
        try Sodium.ensureInitialized()
        guard ed25519SecretKey.count == Int(crypto_sign_ed25519_SECRETKEYBYTES) else {
            throw CryptoError(
                .invalidInput,
                "An Ed25519 secret key must be \(crypto_sign_ed25519_SECRETKEYBYTES) bytes, not \(ed25519SecretKey.count)"
            )
        }
        var secret = [UInt8](repeating: 0, count: NoiseDH.keyLength)
        defer { noiseWipe(&secret) }
        let status = crypto_sign_ed25519_sk_to_curve25519(&secret, ed25519SecretKey)
        guard status == 0 else {
            throw CryptoError(.invalidInput, "The Ed25519 secret key cannot be converted to X25519")
        }
        keyPair = try NoiseKeyPair(secretKey: secret)
    }

    /// Wraps a raw X25519 private key (test vectors, and tests that need no identity).
    init(x25519SecretKey: [UInt8]) throws(CryptoError) {
        keyPair = try NoiseKeyPair(secretKey: x25519SecretKey)
    }

    /// A random static key not tied to any identity; for tests.
    static func random() throws(CryptoError) -> NoiseStaticKey {
        var secret = Sodium.randomBytes(NoiseDH.keyLength)
        defer { noiseWipe(&secret) }
        return try NoiseStaticKey(x25519SecretKey: secret)
    }

    /// The X25519 public key that the holder of `ed25519PublicKey` uses as its Noise static
    /// key (`crypto_sign_ed25519_pk_to_curve25519`). Compare it with
    /// `NoiseHandshake.remoteStaticKey` to check that a peer owns the identity it claims.
    ///
    /// Throws `.invalidInput` for a key of the wrong length, a low-order point or a point not
    /// on the curve's main subgroup.
    public static func x25519PublicKey(fromEd25519PublicKey ed25519PublicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try Sodium.ensureInitialized()
        guard ed25519PublicKey.count == Int(crypto_sign_ed25519_PUBLICKEYBYTES) else {
            throw CryptoError(
                .invalidInput,
                "An Ed25519 public key must be \(crypto_sign_ed25519_PUBLICKEYBYTES) bytes, not \(ed25519PublicKey.count)"
            )
        }
        var publicKey = [UInt8](repeating: 0, count: NoiseDH.keyLength)
        let status = crypto_sign_ed25519_pk_to_curve25519(&publicKey, ed25519PublicKey)
        guard status == 0 else {
            throw CryptoError(.invalidInput, "The Ed25519 public key is not a valid curve point and has no X25519 form")
        }
        return publicKey
    }
}
