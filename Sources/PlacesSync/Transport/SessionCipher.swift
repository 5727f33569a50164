import PlacesCrypto
import Synchronization

/// The Noise transport of one session, shared by its reader (decrypt) and writer (encrypt)
/// tasks.
///
/// `NoiseTransport` is deliberately not Sendable (its nonces must never be used twice);
/// the mutex makes the single object per session safe to share. The reader only decrypts
/// and the writer only encrypts, so each direction's nonces stay in order.
final class SessionCipher: Sendable {
    private let transport: Mutex<NoiseTransport>

    init(_ transport: sending NoiseTransport) {
        self.transport = Mutex(transport)
    }

    func encrypt(_ plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transport.withLock { (transport) throws(CryptoError) -> [UInt8] in try transport.encrypt(plaintext) }
    }

    func decrypt(_ ciphertext: [UInt8]) throws(CryptoError) -> [UInt8] {
        try transport.withLock { (transport) throws(CryptoError) -> [UInt8] in try transport.decrypt(ciphertext) }
    }
}
