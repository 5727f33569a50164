import Testing

@testable import PlacesCrypto

@Suite("Noise handshake")
struct NoiseHandshakeTests {
    @Test func placesPrologueIsTheVersionString() {
        #expect(NoiseHandshake.placesPrologue == Array("places/sync/1".utf8))
    }

    @Test func completesWithRandomEphemeralsAndAgreesOnEverything() throws {
        let (initiatorKey, responderKey) = (try NoiseStaticKey.random(), try NoiseStaticKey.random())
        let initiator = NoiseHandshake.initiator(staticKey: initiatorKey)
        let responder = NoiseHandshake.responder(staticKey: responderKey)
        #expect(initiator.isLocalTurn && !responder.isLocalTurn)

        let message1 = try initiator.writeMessage()
        #expect(message1.count == 32)
        #expect(try responder.readMessage(message1) == [])
        let message2 = try responder.writeMessage(payload: Array("hello".utf8))
        #expect(message2.count == 32 + 48 + 5 + 16)
        #expect(try initiator.readMessage(message2) == Array("hello".utf8))
        #expect(initiator.remoteStaticKey == responderKey.publicKey)
        let message3 = try initiator.writeMessage(payload: Array("hi".utf8))
        #expect(message3.count == 48 + 2 + 16)
        #expect(try responder.readMessage(message3) == Array("hi".utf8))

        #expect(initiator.isComplete && responder.isComplete)
        #expect(responder.remoteStaticKey == initiatorKey.publicKey)
        #expect(initiator.handshakeHash == responder.handshakeHash)
        #expect(initiator.handshakeHash.count == 64)

        // Two runs with the same static keys still differ: the ephemerals are random.
        let again = try noiseCompletedPair(initiatorKey: initiatorKey, responderKey: responderKey)
        #expect(again.initiator.handshakeHash != initiator.handshakeHash)
    }

    @Test func differentProloguesFailAtMessageTwo() throws {
        let initiator = NoiseHandshake.initiator(staticKey: try .random(), prologue: Array("places/sync/2".utf8))
        let responder = NoiseHandshake.responder(staticKey: try .random())
        _ = try responder.readMessage(try initiator.writeMessage())
        let message2 = try responder.writeMessage()
        #expect(
            throws: CryptoError(
                .handshakeFailed, "A Noise handshake message failed authentication; close the connection")
        ) {
            try initiator.readMessage(message2)
        }
    }

    @Test func outOfTurnCallsAndEarlyFinishAreRejected() throws {
        let initiator = NoiseHandshake.initiator(staticKey: try .random())
        let responder = NoiseHandshake.responder(staticKey: try .random())
        expectNoiseError(.handshakeFailed) { try responder.writeMessage() }
        expectNoiseError(.handshakeFailed) { try initiator.finish() }
        expectNoiseError(.handshakeFailed) { try initiator.readMessage([UInt8](repeating: 9, count: 32)) }
    }

    @Test func aFailedHandshakeStaysFailed() throws {
        let initiator = NoiseHandshake.initiator(staticKey: try .random())
        let responder = NoiseHandshake.responder(staticKey: try .random())
        _ = try responder.readMessage(try initiator.writeMessage())
        var message2 = try responder.writeMessage()
        let good = message2
        message2[40] ^= 1
        #expect(throws: CryptoError.self) { try initiator.readMessage(message2) }
        // Even the genuine message is refused now, and no key leaks out.
        #expect(throws: CryptoError.self) { try initiator.readMessage(good) }
        #expect(initiator.remoteStaticKey == nil)
        #expect(!initiator.isComplete)
        #expect(throws: CryptoError.self) { try initiator.finish() }
    }

    @Test func messageOnePayloadMustBeEmpty() throws {
        let initiator = NoiseHandshake.initiator(staticKey: try .random())
        expectNoiseError(.invalidInput) { try initiator.writeMessage(payload: [1]) }
        let responder = NoiseHandshake.responder(staticKey: try .random())
        let sneaky = NoiseHandshake(
            role: .initiator, pattern: .xx, hashFunction: NoiseBLAKE2b(), prologue: NoiseHandshake.placesPrologue,
            staticKey: try .random())
        expectNoiseError(.handshakeFailed) { try responder.readMessage(try sneaky.writeMessage(payload: [1])) }
    }

    @Test func truncatedMessagesAreRejected() throws {
        let initiator = NoiseHandshake.initiator(staticKey: try .random())
        let responder = NoiseHandshake.responder(staticKey: try .random())
        let message1 = try initiator.writeMessage()
        expectNoiseError(.handshakeFailed) { try responder.readMessage(Array(message1.prefix(31))) }
    }

    @Test func lowOrderEphemeralIsRejected() throws {
        // An all-zero public key gives an all-zero X25519 secret: the responder must refuse
        // to continue rather than derive keys an attacker can predict.
        let responder = NoiseHandshake.responder(staticKey: try .random())
        _ = try responder.readMessage([UInt8](repeating: 0, count: 32))
        expectNoiseError(.handshakeFailed) { try responder.writeMessage() }
    }

    @Test func finishIsOneShot() throws {
        let pair = try noiseCompletedPair(initiatorKey: try .random(), responderKey: try .random())
        let transport = try pair.initiator.finish()
        #expect(transport.handshakeHash == pair.initiator.handshakeHash)
        #expect(pair.initiator.remoteStaticKey != nil)
        expectNoiseError(.handshakeFailed) { try pair.initiator.finish() }
    }
}

/// Tamper tests: for every byte of each XX message, flipping it must stop the handshake.
@Suite("Noise handshake tampering")
struct NoiseTamperTests {
    struct Outcome {
        /// The index of the message whose reading (or the reply to it) failed, if any.
        var failedAtMessage: Int?
        var initiatorComplete: Bool
        var responderComplete: Bool
    }

    /// Runs an identity-binding XX handshake, applying `tamper` to message `target` in flight.
    static func run(target: Int, tamper: (inout [UInt8]) -> Void) throws -> Outcome {
        let alice = noiseEd25519KeyPair()
        let bob = noiseEd25519KeyPair()
        let initiator = NoiseHandshake.initiator(staticKey: try NoiseStaticKey(ed25519SecretKey: alice.secretKey))
        let responder = NoiseHandshake.responder(staticKey: try NoiseStaticKey(ed25519SecretKey: bob.secretKey))
        let secrets = [alice.secretKey, bob.secretKey]
        for index in 0..<3 {
            let (sender, receiver) = index % 2 == 0 ? (initiator, responder) : (responder, initiator)
            do {
                let hashBefore = sender.handshakeHash
                let payload =
                    index == 0
                    ? []
                    : try NoiseIdentityBinding.payload(
                        ed25519SecretKey: secrets[index % 2], handshakeHashBeforeMessage: hashBefore,
                        messageNumber: UInt8(index + 1))
                var message = try sender.writeMessage(payload: payload)
                if index == target { tamper(&message) }
                let receiverHashBefore = receiver.handshakeHash
                let received = try receiver.readMessage(message)
                if index > 0 {
                    _ = try NoiseIdentityBinding.verify(
                        payload: received, handshakeHashBeforeMessage: receiverHashBefore,
                        messageNumber: UInt8(index + 1), remoteStaticKey: receiver.remoteStaticKey)
                }
            } catch {
                return Outcome(
                    failedAtMessage: index, initiatorComplete: initiator.isComplete,
                    responderComplete: responder.isComplete)
            }
        }
        return Outcome(
            failedAtMessage: nil, initiatorComplete: initiator.isComplete, responderComplete: responder.isComplete)
    }

    @Test func untamperedRunCompletes() throws {
        let outcome = try Self.run(target: -1) { _ in }
        #expect(outcome.failedAtMessage == nil && outcome.initiatorComplete && outcome.responderComplete)
    }

    @Test("Flipping any byte of any message stops the handshake", arguments: [0, 1, 2])
    func everyByteFlipFails(target: Int) throws {
        // Message sizes with 96-byte identity payloads: 32, 32 + 48 + 112, 48 + 112.
        let length = [32, 192, 160][target]
        for position in 0..<length {
            for mask: UInt8 in [0x01, 0x80] {
                let outcome = try Self.run(target: target) { $0[position] ^= mask }
                let failedAt = try #require(
                    outcome.failedAtMessage, "flip \(mask) at \(position) of message \(target + 1) went unnoticed")
                // Message 1 is a bare ephemeral key: its receiver cannot tell, but the
                // transcripts then differ and the very next message fails. Later messages
                // fail where they are read.
                #expect(failedAt == max(target, 1), "message \(target + 1) byte \(position)")
                #expect(!(outcome.initiatorComplete && outcome.responderComplete))
                #expect(!outcome.responderComplete)
            }
        }
    }

    @Test func appendedOrDroppedBytesFail() throws {
        for target in 1...2 {
            #expect(try Self.run(target: target) { $0.append(0) }.failedAtMessage == target)
            #expect(try Self.run(target: target) { $0.removeLast() }.failedAtMessage == target)
        }
        // Extra bytes after message 1's key would be a cleartext payload: Places requires
        // it empty, so the responder refuses message 1 itself.
        #expect(try Self.run(target: 0) { $0.append(0) }.failedAtMessage == 0)
    }
}
