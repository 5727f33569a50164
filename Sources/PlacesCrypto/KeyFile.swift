import CSodium
import Foundation
import PlacesModel

/// The on-disk form of an identity's secret key, `DATA_DIR/identity.key` (JSON, mode 0600).
///
/// Sealed: the 64-byte Ed25519 secret key is encrypted with XChaCha20-Poly1305 under a key
/// derived from the passphrase with Argon2id (`crypto_pwhash`, libsodium's ALG_ARGON2ID13);
/// the public key is bound as associated data so a file cannot be spliced. Unsealed (for
/// headless devices): the secret key is stored in the clear and protected only by the
/// file mode. The format is specified in `Protocol/identity.md`.
public struct KeyFile: Codable, Sendable, Equatable {
    /// Argon2id parameters, stored so that they can be raised later without breaking old files.
    public struct KDF: Codable, Sendable, Equatable {
        public var algorithm: String
        public var opsLimit: UInt64
        public var memLimitBytes: Int
        public var salt: String
    }

    /// Format version; 1.
    public var version: Int
    /// Hex Ed25519 public key (lets the daemon know who it is while logged out).
    public var publicKey: String
    /// Present when sealed with a passphrase.
    public var kdf: KDF?
    /// Hex nonce ‖ ciphertext ‖ tag when sealed; hex secret key when unsealed.
    public var secret: String

    /// Whether a passphrase is needed to open the key.
    public var isSealed: Bool { kdf != nil }

    /// Argon2id limits: libsodium's "interactive" profile (2 passes, 64 MiB), which takes
    /// well under a second on the small devices Places runs on.
    public static let defaultOpsLimit = UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE)
    /// See `defaultOpsLimit`.
    public static let defaultMemLimit = Int(crypto_pwhash_MEMLIMIT_INTERACTIVE)

    /// Seals `identity` with `passphrase`.
    public static func sealed(_ identity: SigningKeyPair, passphrase: String) throws(CryptoError) -> KeyFile {
        try Sodium.ensureInitialized()
        guard !passphrase.isEmpty else {
            throw CryptoError(.invalidInput, "the passphrase is empty; choose one, or use --no-passphrase")
        }
        let salt = Sodium.randomBytes(Int(crypto_pwhash_SALTBYTES))
        let kdf = KDF(
            algorithm: "argon2id13", opsLimit: defaultOpsLimit, memLimitBytes: defaultMemLimit,
            salt: HexCoding.encode(salt))
        var key = try derive(passphrase: passphrase, kdf: kdf, salt: salt)
        defer { sodium_memzero(&key, key.count) }
        let sealed: [UInt8]
        do {
            sealed = try identity.withSecretKey {
                try SecretBox.seal($0, key: key, associatedData: identity.publicKey.bytes)
            }
        } catch let e as CryptoError { throw e } catch { throw CryptoError(.invalidInput, "sealing the key failed") }
        return KeyFile(version: 1, publicKey: identity.publicKey.hex, kdf: kdf, secret: HexCoding.encode(sealed))
    }

    /// Stores `identity` unsealed (headless devices).
    public static func unsealed(_ identity: SigningKeyPair) -> KeyFile {
        KeyFile(
            version: 1, publicKey: identity.publicKey.hex, kdf: nil,
            secret: identity.withSecretKey { HexCoding.encode($0) })
    }

    /// The public key recorded in the file.
    public func identityPublicKey() throws(CryptoError) -> PublicKey {
        guard let raw = HexCoding.decode(publicKey) else {
            throw CryptoError(.invalidInput, "the key file's public key is not hex")
        }
        return try PublicKey(bytes: raw)
    }

    /// Opens the key; `passphrase` is ignored for unsealed files. A wrong passphrase throws
    /// `.wrongPassphrase`.
    public func open(passphrase: String?) throws(CryptoError) -> SigningKeyPair {
        guard version == 1 else { throw CryptoError(.invalidInput, "unsupported key file version \(version)") }
        let pk = try identityPublicKey()
        guard let secretBytes = HexCoding.decode(secret) else {
            throw CryptoError(.invalidInput, "the key file's secret is not hex")
        }
        guard let kdf else {
            let pair = try SigningKeyPair(secretKey: secretBytes)
            guard pair.publicKey == pk else { throw CryptoError(.invalidInput, "the key file is inconsistent") }
            return pair
        }
        guard let passphrase, !passphrase.isEmpty else {
            throw CryptoError(.wrongPassphrase, "this identity is sealed: give its passphrase")
        }
        guard kdf.algorithm == "argon2id13", let salt = HexCoding.decode(kdf.salt),
            salt.count == Int(crypto_pwhash_SALTBYTES)
        else { throw CryptoError(.invalidInput, "the key file's KDF parameters are not supported") }
        var key = try KeyFile.derive(passphrase: passphrase, kdf: kdf, salt: salt)
        defer { sodium_memzero(&key, key.count) }
        var sk: [UInt8]
        do {
            sk = try SecretBox.open(secretBytes, key: key, associatedData: pk.bytes)
        } catch {
            throw CryptoError(.wrongPassphrase, "the passphrase is wrong")
        }
        defer { sodium_memzero(&sk, sk.count) }
        let pair = try SigningKeyPair(secretKey: sk)
        guard pair.publicKey == pk else { throw CryptoError(.invalidInput, "the key file is inconsistent") }
        return pair
    }

    private static func derive(passphrase: String, kdf: KDF, salt: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard kdf.memLimitBytes >= Int(crypto_pwhash_MEMLIMIT_MIN), kdf.memLimitBytes <= 1 << 30,
            kdf.opsLimit >= UInt64(crypto_pwhash_OPSLIMIT_MIN), kdf.opsLimit <= 16
        else { throw CryptoError(.invalidInput, "the key file's Argon2id limits are out of range") }
        var key = [UInt8](repeating: 0, count: SecretBox.keyBytes)
        let pass = Array(passphrase.utf8)
        let rc = passphrase.withCString { cp in
            crypto_pwhash(
                &key, UInt64(key.count), cp, UInt64(pass.count), salt, kdf.opsLimit,
                kdf.memLimitBytes, crypto_pwhash_ALG_ARGON2ID13)
        }
        guard rc == 0 else { throw CryptoError(.resourceExhausted, "Argon2id could not allocate its memory") }
        return key
    }
}
