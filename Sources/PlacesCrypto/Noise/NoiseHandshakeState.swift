/// A Noise handshake pattern without pre-messages: the tokens of each message, the
/// first message sent by the initiator and the rest alternating.
struct NoiseHandshakePattern: Sendable {
    /// A token of a message pattern (Noise spec section 7.1).
    enum Token: Sendable { case e, s, ee, es, se, ss }

    /// The name in a protocol name, e.g. `XX`.
    let name: String
    /// The message patterns in order.
    let messages: [[Token]]

    /// `NN`: `-> e`, `<- e, ee`.
    static let nn = NoiseHandshakePattern(name: "NN", messages: [[.e], [.e, .ee]])
    /// `XX`: `-> e`, `<- e, ee, s, es`, `-> s, se`.
    static let xx = NoiseHandshakePattern(name: "XX", messages: [[.e], [.e, .ee, .s, .es], [.s, .se]])
}

/// Noise `HandshakeState` (spec section 5.3) for `25519` + `ChaChaPoly` + a pluggable hash.
///
/// A struct with mutating methods; `NoiseHandshake` wraps it in a class so a handshake is
/// never duplicated by accident.
struct NoiseHandshakeState: Sendable {
    let pattern: NoiseHandshakePattern
    let isInitiator: Bool
    private(set) var symmetricState: NoiseSymmetricState
    private let localStatic: NoiseKeyPair?
    private var localEphemeral: NoiseKeyPair?
    /// A fixed ephemeral for test vectors; `nil` means a fresh random one.
    private let fixedEphemeral: NoiseKeyPair?
    private(set) var remoteStatic: [UInt8]?
    private(set) var remoteEphemeral: [UInt8]?
    /// The index of the next message pattern to process.
    private(set) var messageIndex = 0

    /// The maximum size of any Noise message (spec section 3).
    static let maxMessageLength = 65_535

    /// `Initialize(...)` for patterns without pre-messages.
    init(
        pattern: NoiseHandshakePattern,
        hashFunction: any NoiseHashFunction,
        isInitiator: Bool,
        prologue: [UInt8],
        localStatic: NoiseKeyPair?,
        fixedEphemeral: NoiseKeyPair? = nil
    ) {
        let protocolName = "Noise_\(pattern.name)_25519_ChaChaPoly_\(hashFunction.name)"
        symmetricState = NoiseSymmetricState(protocolName: protocolName, hashFunction: hashFunction)
        symmetricState.mixHash(prologue)
        self.pattern = pattern
        self.isInitiator = isInitiator
        self.localStatic = localStatic
        self.fixedEphemeral = fixedEphemeral
    }

    /// Whether every message pattern has been processed.
    var isComplete: Bool { messageIndex >= pattern.messages.count }

    /// Whether the next message is ours to write.
    var isLocalTurn: Bool { !isComplete && (messageIndex % 2 == 0) == isInitiator }

    /// `WriteMessage(payload, message_buffer)`.
    mutating func writeMessage(payload: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard isLocalTurn else {
            throw CryptoError(.handshakeFailed, "It is not this side's turn to write a Noise handshake message")
        }
        var message: [UInt8] = []
        for token in pattern.messages[messageIndex] {
            switch token {
            case .e:
                let ephemeral: NoiseKeyPair
                if let fixedEphemeral { ephemeral = fixedEphemeral } else { ephemeral = try NoiseKeyPair.generate() }
                localEphemeral = ephemeral
                message += ephemeral.publicKey
                symmetricState.mixHash(ephemeral.publicKey)
            case .s:
                let keyPair = try requireLocalStatic()
                message += try symmetricState.encryptAndHash(keyPair.publicKey)
            default:
                try mixDH(token)
            }
        }
        message += try symmetricState.encryptAndHash(payload)
        guard message.count <= Self.maxMessageLength else {
            throw CryptoError(
                .invalidInput,
                "A Noise handshake message would be \(message.count) bytes; the limit is \(Self.maxMessageLength)")
        }
        messageIndex += 1
        return message
    }

    /// `ReadMessage(message, payload_buffer)`: returns the decrypted payload.
    mutating func readMessage(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !isComplete, !isLocalTurn else {
            throw CryptoError(.handshakeFailed, "A Noise handshake message arrived when none was expected")
        }
        guard message.count <= Self.maxMessageLength else {
            throw CryptoError(
                .handshakeFailed, "A Noise handshake message of \(message.count) bytes exceeds \(Self.maxMessageLength)"
            )
        }
        var offset = 0
        func take(_ count: Int) throws(CryptoError) -> [UInt8] {
            guard message.count - offset >= count else {
                throw CryptoError(.handshakeFailed, "A Noise handshake message is truncated (\(message.count) bytes)")
            }
            defer { offset += count }
            return Array(message[offset..<(offset + count)])
        }
        for token in pattern.messages[messageIndex] {
            switch token {
            case .e:
                let ephemeral = try take(NoiseDH.keyLength)
                remoteEphemeral = ephemeral
                symmetricState.mixHash(ephemeral)
            case .s:
                let length = NoiseDH.keyLength + (symmetricState.cipherState.hasKey ? NoiseCipherState.tagLength : 0)
                remoteStatic = try decryptHandshake(try take(length))
            default:
                try mixDH(token)
            }
        }
        let payload = try decryptHandshake(Array(message[offset...]))
        messageIndex += 1
        return payload
    }

    /// `Split()`, once the handshake is complete: (send, receive) for this side.
    func split() throws(CryptoError) -> (send: NoiseCipherState, receive: NoiseCipherState) {
        guard isComplete else {
            throw CryptoError(.handshakeFailed, "The Noise handshake is not complete yet")
        }
        let (initiatorToResponder, responderToInitiator) = symmetricState.split()
        return isInitiator
            ? (initiatorToResponder, responderToInitiator)
            : (responderToInitiator, initiatorToResponder)
    }

    /// During the handshake an authentication failure means the transcripts differ: report it
    /// as a failed handshake rather than a failed transport message.
    private mutating func decryptHandshake(_ ciphertext: [UInt8]) throws(CryptoError) -> [UInt8] {
        do {
            return try symmetricState.decryptAndHash(ciphertext)
        } catch  where error.code == .decryptionFailed {
            throw CryptoError(.handshakeFailed, "A Noise handshake message failed authentication; close the connection")
        }
    }

    private func requireLocalStatic() throws(CryptoError) -> NoiseKeyPair {
        guard let localStatic else {
            throw CryptoError(.invalidInput, "The \(pattern.name) handshake needs a static key")
        }
        return localStatic
    }

    private mutating func mixDH(_ token: NoiseHandshakePattern.Token) throws(CryptoError) {
        let missing = CryptoError(.handshakeFailed, "A Noise handshake key is missing for token \(token)")
        // For "es" the initiator uses its ephemeral and the responder's static; the
        // responder mirrors it. "se" is the opposite.
        let localKey: NoiseKeyPair?
        let remoteKey: [UInt8]?
        switch token {
        case .ee:
            (localKey, remoteKey) = (localEphemeral, remoteEphemeral)
        case .es:
            (localKey, remoteKey) = isInitiator ? (localEphemeral, remoteStatic) : (localStatic, remoteEphemeral)
        case .se:
            (localKey, remoteKey) = isInitiator ? (localStatic, remoteEphemeral) : (localEphemeral, remoteStatic)
        case .ss:
            (localKey, remoteKey) = (localStatic, remoteStatic)
        case .e, .s:
            return
        }
        guard let localKey, let remoteKey else { throw missing }
        var shared = try NoiseDH.dh(localKey, remoteKey)
        symmetricState.mixKey(shared)
        noiseWipe(&shared)
    }
}
