import CSodium
import PlacesModel

/// An Ed25519 identity keypair (libsodium `crypto_sign`). The secret key is 64 bytes
/// (seed ‖ public key, libsodium's layout); it is wiped from memory when the last copy
/// of the owning `SigningKeyPair` is released.
public final class SigningKeyPair: @unchecked Sendable {
    // @unchecked: `secretKey` is immutable after init and only read; the class exists so
    // that deinit can wipe the secret bytes.
    /// The 32-byte Ed25519 public key.
    public let publicKey: PublicKey
    private var secretKey: [UInt8]

    /// Generates a fresh random keypair.
    public init() throws(CryptoError) {
        try Sodium.ensureInitialized()
        var pk = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var sk = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
        crypto_sign_keypair(&pk, &sk)
        self.publicKey = PublicKey(unchecked: pk)
        self.secretKey = sk
    }

    /// Rebuilds a keypair from a 64-byte libsodium secret key, checking that it is consistent.
    public init(secretKey: [UInt8]) throws(CryptoError) {
        try Sodium.ensureInitialized()
        guard secretKey.count == Int(crypto_sign_SECRETKEYBYTES) else {
            throw CryptoError(.invalidInput, "an Ed25519 secret key is 64 bytes, got \(secretKey.count)")
        }
        var pk = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var sk = secretKey
        crypto_sign_ed25519_sk_to_pk(&pk, &sk)
        sodium_memzero(&sk, sk.count)
        guard Array(secretKey[32..<64]) == pk else {
            throw CryptoError(.invalidInput, "the secret key's embedded public key does not match its seed")
        }
        self.publicKey = PublicKey(unchecked: pk)
        self.secretKey = secretKey
    }

    deinit {
        secretKey.withUnsafeMutableBytes { sodium_memzero($0.baseAddress!, $0.count) }
    }

    /// Signs `message` (detached signature, 64 bytes).
    public func sign(_ message: [UInt8]) -> Signature {
        message.withUnsafeBufferPointer { sign(UnsafeRawBufferPointer($0)) }
    }

    /// Signs the bytes in `message` without copying them.
    public func sign(_ message: UnsafeRawBufferPointer) -> Signature {
        var sig = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = crypto_sign_detached(
            &sig, nil, message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count), secretKey)
        return Signature(unchecked: sig)
    }

    /// Gives scoped access to the 64-byte secret key, for sealing it into a key file or
    /// deriving the Noise static key. Do not let the bytes escape the closure.
    public func withSecretKey<R>(_ body: ([UInt8]) throws -> R) rethrows -> R {
        try body(secretKey)
    }

    /// The X25519 secret key derived from this identity (for opening sealed boxes addressed
    /// to it). Callers should wipe it after use.
    public func curve25519SecretKey() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(crypto_scalarmult_curve25519_BYTES))
        _ = crypto_sign_ed25519_sk_to_curve25519(&out, secretKey)
        return out
    }
}

/// A 32-byte Ed25519 public key: the identity of a person's device.
public struct PublicKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The raw key bytes.
    public let bytes: [UInt8]

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// Wraps 32 raw bytes; throws when the length is wrong.
    public init(bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == 32 else {
            throw CryptoError(.invalidInput, "an Ed25519 public key is 32 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Checks a detached signature over `message`.
    public func verify(_ signature: Signature, for message: [UInt8]) -> Bool {
        message.withUnsafeBufferPointer { verify(signature, for: UnsafeRawBufferPointer($0)) }
    }

    /// Checks a detached signature over the bytes in `message`.
    public func verify(_ signature: Signature, for message: UnsafeRawBufferPointer) -> Bool {
        guard (try? Sodium.ensureInitialized()) != nil else { return false }
        return crypto_sign_verify_detached(
            signature.bytes, message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count), bytes)
            == 0
    }

    /// The X25519 public key derived from this Ed25519 key (for sealed boxes and Noise).
    public func curve25519PublicKey() throws(CryptoError) -> [UInt8] {
        try Sodium.ensureInitialized()
        var out = [UInt8](repeating: 0, count: Int(crypto_scalarmult_curve25519_BYTES))
        let rc = crypto_sign_ed25519_pk_to_curve25519(&out, bytes)
        guard rc == 0 else { throw CryptoError(.invalidInput, "the public key is not a valid Ed25519 point") }
        return out
    }

    /// Lowercase hex of the key, as stored in the database.
    public var hex: String { HexCoding.encode(bytes) }

    /// The human-readable id with check characters (see `HumanID`).
    public var humanID: String { HumanID.encode(self) }

    public var description: String { humanID }

    public static func < (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// Hashes the key's bytes in one call: the synthesized hash feeds `[UInt8]` to the hasher
    /// byte by byte, and sets of participants are consulted for every shared document of a
    /// peer list or a session's opening (10,000 at a time).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Equal bytes, compared a word at a time for keys of 32 bytes.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.bytes.withUnsafeBytes { a in
            rhs.bytes.withUnsafeBytes { b in
                guard a.count == 32, b.count == 32 else { return a.elementsEqual(b) }
                return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                    && a.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    && a.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                    && a.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            }
        }
    }
}

/// A 64-byte Ed25519 detached signature.
public struct Signature: Hashable, Sendable {
    /// The raw signature bytes.
    public let bytes: [UInt8]

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// Wraps 64 raw bytes; throws when the length is wrong.
    public init(bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == 64 else {
            throw CryptoError(.invalidInput, "an Ed25519 signature is 64 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }
}
