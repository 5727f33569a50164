/// One side of the Places sync handshake, `Noise_XX_25519_ChaChaPoly_BLAKE2b` with the
/// prologue `places/sync/1` (see `Protocol/handshake.md`).
///
/// XX takes three messages: the initiator writes 1 and 3, the responder writes 2. Call
/// `writeMessage(payload:)` or `readMessage(_:)` as `isLocalTurn` says, then `finish()` to
/// get the transport. Any error leaves the handshake failed: every later call throws
/// `.handshakeFailed` and the caller closes the connection.
///
/// A class, not a struct, so a handshake and the cipher keys it yields are never copied and
/// then used twice with the same nonces; it is deliberately not `Sendable`.
public final class NoiseHandshake {
    /// The prologue Places mixes into every handshake: the ASCII bytes `places/sync/1`.
    /// Peers with a different prologue fail the handshake at message 2.
    public static let placesPrologue: [UInt8] = Array("places/sync/1".utf8)

    /// The Noise protocol name Places uses.
    public static let protocolName = "Noise_XX_25519_ChaChaPoly_BLAKE2b"

    /// Which side of the handshake this is.
    public enum Role: Sendable, Equatable {
        /// The side that opened the connection and writes message 1.
        case initiator
        /// The side that accepted the connection and writes message 2.
        case responder
    }

    private enum Phase {
        case running(NoiseHandshakeState)
        case failed
        case finished
    }

    private var phase: Phase
    /// The side of the handshake this object plays.
    public let role: Role
    /// The handshake hash once finished, kept for `handshakeHash`.
    private var finalHash: [UInt8] = []
    private var finalRemoteStaticKey: [UInt8]?
    /// Places sends message 1 in clear with an empty payload; the vector tests do not.
    private let requiresEmptyFirstPayload: Bool

    /// Starts the initiator side of a Places handshake.
    public static func initiator(staticKey: NoiseStaticKey, prologue: [UInt8] = placesPrologue) -> NoiseHandshake {
        NoiseHandshake(
            role: .initiator, pattern: .xx, hashFunction: NoiseBLAKE2b(), prologue: prologue, staticKey: staticKey,
            requiresEmptyFirstPayload: true)
    }

    /// Starts the responder side of a Places handshake.
    public static func responder(staticKey: NoiseStaticKey, prologue: [UInt8] = placesPrologue) -> NoiseHandshake {
        NoiseHandshake(
            role: .responder, pattern: .xx, hashFunction: NoiseBLAKE2b(), prologue: prologue, staticKey: staticKey,
            requiresEmptyFirstPayload: true)
    }

    /// Any supported pattern and hash, with an optional fixed ephemeral: for test vectors.
    init(
        role: Role,
        pattern: NoiseHandshakePattern,
        hashFunction: any NoiseHashFunction,
        prologue: [UInt8],
        staticKey: NoiseStaticKey?,
        fixedEphemeral: NoiseKeyPair? = nil,
        requiresEmptyFirstPayload: Bool = false
    ) {
        self.role = role
        self.requiresEmptyFirstPayload = requiresEmptyFirstPayload
        phase = .running(
            NoiseHandshakeState(
                pattern: pattern, hashFunction: hashFunction, isInitiator: role == .initiator, prologue: prologue,
                localStatic: staticKey?.keyPair, fixedEphemeral: fixedEphemeral))
    }

    /// Whether every handshake message has been written or read successfully.
    public var isComplete: Bool {
        switch phase {
        case .running(let state): state.isComplete
        case .finished: true
        case .failed: false
        }
    }

    /// Whether the next step is `writeMessage(payload:)` (otherwise `readMessage(_:)`, or
    /// `finish()` once `isComplete`).
    public var isLocalTurn: Bool {
        if case .running(let state) = phase { return state.isLocalTurn }
        return false
    }

    /// The peer's 32-byte X25519 static public key, once the message carrying it has been
    /// read and authenticated (message 2 for the initiator, message 3 for the responder).
    ///
    /// It proves only that the peer holds the matching private key; check it against the
    /// Ed25519 identity the peer claims with `NoiseIdentityBinding`.
    public var remoteStaticKey: [UInt8]? {
        switch phase {
        case .running(let state): state.remoteStatic
        case .finished: finalRemoteStaticKey
        case .failed: nil
        }
    }

    /// The handshake hash `h` as it stands now: before a message is written or read it
    /// commits to the whole transcript so far; once complete it is the session's unique
    /// channel binding (Noise spec section 11.2). Empty after a failure.
    public var handshakeHash: [UInt8] {
        switch phase {
        case .running(let state): state.symmetricState.handshakeHash
        case .finished: finalHash
        case .failed: []
        }
    }

    /// Writes the next handshake message carrying `payload` (encrypted from message 2 on).
    /// Message 1 travels in clear, so its payload must be empty (`.invalidInput` otherwise).
    public func writeMessage(payload: [UInt8] = []) throws(CryptoError) -> [UInt8] {
        try step { (state: inout NoiseHandshakeState) throws(CryptoError) in
            if requiresEmptyFirstPayload, state.messageIndex == 0, !payload.isEmpty {
                throw CryptoError(
                    .invalidInput, "Message 1 of the Places handshake is sent in clear; its payload must be empty")
            }
            return try state.writeMessage(payload: payload)
        }
    }

    /// Reads the peer's next handshake message and returns its decrypted payload. Throws
    /// `.handshakeFailed` if the message is malformed or does not authenticate.
    public func readMessage(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try step { (state: inout NoiseHandshakeState) throws(CryptoError) in
            let isFirst = state.messageIndex == 0
            let payload = try state.readMessage(message)
            if requiresEmptyFirstPayload, isFirst, !payload.isEmpty {
                throw CryptoError(.handshakeFailed, "Message 1 of the Places handshake must have an empty payload")
            }
            return payload
        }
    }

    /// Ends a complete handshake and returns the transport cipher states for this side.
    /// Can be called once; the handshake's ephemeral keys are released.
    public func finish() throws(CryptoError) -> NoiseTransport {
        guard case .running(let state) = phase, state.isComplete else {
            throw CryptoError(.handshakeFailed, "finish() needs a complete handshake that was not finished yet")
        }
        let (send, receive) = try state.split()
        finalHash = state.symmetricState.handshakeHash
        finalRemoteStaticKey = state.remoteStatic
        phase = .finished
        return NoiseTransport(send: send, receive: receive, handshakeHash: finalHash)
    }

    /// Runs one message on a copy of the state, so a failed message changes nothing but
    /// marks the handshake failed.
    private func step(
        _ body: (inout NoiseHandshakeState) throws(CryptoError) -> [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard case .running(var state) = phase else {
            throw CryptoError(
                .handshakeFailed, "This Noise handshake already failed or finished; open a new connection")
        }
        do {
            let result = try body(&state)
            phase = .running(state)
            return result
        } catch {
            phase = .failed
            throw error
        }
    }
}

@available(*, unavailable, message: "A handshake belongs to one connection; do not share it across tasks")
extension NoiseHandshake: Sendable {}
