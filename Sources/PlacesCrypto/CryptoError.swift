/// The one error type of `PlacesCrypto`: a stable code, a message that says what to do
/// next, and an optional underlying cause.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on.
    public enum Code: String, Sendable, Equatable {
        /// libsodium could not be initialised.
        case unavailable
        /// A key, nonce or other input had the wrong length or form.
        case invalidInput
        /// A signature did not verify.
        case badSignature
        /// Authenticated decryption failed: wrong key, or the bytes were altered.
        case decryptionFailed
        /// A passphrase did not open a sealed key file.
        case wrongPassphrase
        /// Argon2id could not allocate its memory, or a similar resource limit was hit.
        case resourceExhausted
        /// A Noise handshake or transport message was rejected.
        case handshakeFailed
        /// A Noise cipher state used every nonce; the session must be re-established.
        case nonceExhausted
        /// A human-readable id was mistyped or malformed.
        case invalidID
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
