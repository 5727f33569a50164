import CSodium

/// Binds a Places Ed25519 identity to a Noise handshake: the payload of XX messages 2 and 3
/// (see `Protocol/handshake.md`, "Identity binding").
///
/// Payload = Ed25519 public key (32 bytes) ‖ Ed25519 signature (64 bytes) over
/// `"places/sync/1 identity"` ‖ 0x00 ‖ message number (0x02 or 0x03) ‖ `h`, where `h` is
/// the handshake hash just before that message was written (equally: just before the
/// receiver reads it). The receiver accepts the identity only if the public key converts
/// to exactly the remote static key and the signature verifies.
public enum NoiseIdentityBinding {
    /// The exact length of an identity payload.
    public static let payloadLength = 96

    /// The domain-separation prefix of the signed message (ASCII, followed by a 0x00 byte),
    /// so this signature can never be confused with anything else the identity key signs.
    public static let signatureContext: [UInt8] = Array("places/sync/1 identity".utf8) + [0x00]

    /// Makes the payload for XX message `messageNumber` (2 for the responder, 3 for the
    /// initiator). Read `handshakeHash` from the handshake just before `writeMessage`.
    public static func payload(
        ed25519SecretKey: [UInt8],
        handshakeHashBeforeMessage: [UInt8],
        messageNumber: UInt8
    ) throws(CryptoError) -> [UInt8] {
        try Sodium.ensureInitialized()
        guard ed25519SecretKey.count == Int(crypto_sign_ed25519_SECRETKEYBYTES) else {
            throw CryptoError(
                .invalidInput, "An Ed25519 secret key must be \(crypto_sign_ed25519_SECRETKEYBYTES) bytes")
        }
        try checkMessageNumber(messageNumber)
        let message = signedMessage(handshakeHashBeforeMessage, messageNumber)
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_ed25519_BYTES))
        // Detached signing with a correctly sized key cannot fail.
        _ = crypto_sign_ed25519_detached(&signature, nil, message, UInt64(message.count), ed25519SecretKey)
        // libsodium's secret key is seed ‖ public key, so the public key is its second half.
        return Array(ed25519SecretKey[32..<64]) + signature
    }

    /// Checks the payload read from XX message `messageNumber` against the peer's static key
    /// and returns the peer's verified Ed25519 public key. Read `handshakeHash` just before
    /// `readMessage`. Throws `.handshakeFailed` if the payload does not prove the identity.
    public static func verify(
        payload: [UInt8],
        handshakeHashBeforeMessage: [UInt8],
        messageNumber: UInt8,
        remoteStaticKey: [UInt8]?
    ) throws(CryptoError) -> [UInt8] {
        try Sodium.ensureInitialized()
        try checkMessageNumber(messageNumber)
        guard payload.count == payloadLength else {
            throw CryptoError(
                .handshakeFailed, "A Places identity payload must be \(payloadLength) bytes, not \(payload.count)")
        }
        guard let remoteStaticKey, remoteStaticKey.count == NoiseDH.keyLength else {
            throw CryptoError(.handshakeFailed, "The peer's Noise static key is not known yet")
        }
        let ed25519PublicKey = Array(payload[0..<32])
        let signature = Array(payload[32..<96])
        let derived: [UInt8]
        do {
            derived = try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: ed25519PublicKey)
        } catch {
            throw CryptoError(.handshakeFailed, "The peer claims an Ed25519 key that is not a valid point")
        }
        guard sodium_memcmp(derived, remoteStaticKey, NoiseDH.keyLength) == 0 else {
            throw CryptoError(.handshakeFailed, "The peer's Noise static key does not belong to the identity it claims")
        }
        let message = signedMessage(handshakeHashBeforeMessage, messageNumber)
        guard crypto_sign_ed25519_verify_detached(signature, message, UInt64(message.count), ed25519PublicKey) == 0
        else {
            throw CryptoError(.handshakeFailed, "The peer's identity signature over the handshake does not verify")
        }
        return ed25519PublicKey
    }

    private static func checkMessageNumber(_ messageNumber: UInt8) throws(CryptoError) {
        guard messageNumber == 2 || messageNumber == 3 else {
            throw CryptoError(.invalidInput, "Identity payloads travel in XX messages 2 and 3, not \(messageNumber)")
        }
    }

    private static func signedMessage(_ handshakeHash: [UInt8], _ messageNumber: UInt8) -> [UInt8] {
        signatureContext + [messageNumber] + handshakeHash
    }
}
