/// The two cipher states of a finished Places Noise session: one to encrypt what this side
/// sends, one to decrypt what it receives.
///
/// Every transport message is at most `maxMessageLength` bytes including its 16-byte tag;
/// the application splits larger payloads. After a message fails to decrypt, the receiving
/// direction stays failed (the caller must close the connection): Places runs over TCP, so a
/// bad message means an attack or a bug, never loss or reordering.
///
/// A class so the nonces cannot be duplicated by copying; deliberately not `Sendable`.
public final class NoiseTransport {
    /// The largest transport message (ciphertext plus tag), as the Noise spec allows.
    public static let maxMessageLength = 65_535
    /// The largest plaintext that fits in one transport message.
    public static let maxPlaintextLength = maxMessageLength - NoiseCipherState.tagLength

    var sendCipher: NoiseCipherState
    var receiveCipher: NoiseCipherState
    private var receiveFailed = false

    /// The final handshake hash, a unique id for this session (channel binding).
    public let handshakeHash: [UInt8]

    init(send: NoiseCipherState, receive: NoiseCipherState, handshakeHash: [UInt8]) {
        sendCipher = send
        receiveCipher = receive
        self.handshakeHash = handshakeHash
    }

    /// Encrypts one message of at most `maxPlaintextLength` bytes. Throws `.invalidInput`
    /// for a larger one and `.nonceExhausted` after 2^64-1 messages (reconnect).
    public func encrypt(_ plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard plaintext.count <= Self.maxPlaintextLength else {
            throw CryptoError(
                .invalidInput,
                "A Noise transport message holds at most \(Self.maxPlaintextLength) plaintext bytes, not \(plaintext.count); split the payload"
            )
        }
        return try sendCipher.encrypt(ad: [], plaintext: plaintext)
    }

    /// Decrypts the next message from the peer. Throws `.decryptionFailed` if it is too long,
    /// too short, altered, replayed or out of order, or if an earlier one failed;
    /// `.nonceExhausted` after 2^64-1 messages. Either way, close the connection.
    public func decrypt(_ ciphertext: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !receiveFailed else {
            throw CryptoError(.decryptionFailed, "An earlier Noise message failed to decrypt; close the connection")
        }
        guard ciphertext.count <= Self.maxMessageLength else {
            receiveFailed = true
            throw CryptoError(
                .decryptionFailed,
                "A Noise transport message of \(ciphertext.count) bytes exceeds \(Self.maxMessageLength); close the connection"
            )
        }
        do {
            return try receiveCipher.decrypt(ad: [], ciphertext: ciphertext)
        } catch {
            receiveFailed = true
            throw error
        }
    }
}

@available(*, unavailable, message: "A transport belongs to one connection; do not share it across tasks")
extension NoiseTransport: Sendable {}
