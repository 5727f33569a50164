import CSodium
import Testing

@testable import PlacesCrypto

@Suite("Noise transport")
struct NoiseTransportTests {
    static func transports() throws -> (initiator: NoiseTransport, responder: NoiseTransport) {
        let pair = try noiseCompletedPair(initiatorKey: try .random(), responderKey: try .random())
        return (try pair.initiator.finish(), try pair.responder.finish())
    }

    @Test func roundTripsBothWaysAtEverySize() throws {
        let (initiator, responder) = try Self.transports()
        #expect(initiator.handshakeHash == responder.handshakeHash)
        for size in [0, 1, 100, NoiseTransport.maxPlaintextLength] {
            let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let toResponder = try initiator.encrypt(plaintext)
            #expect(toResponder.count == size + 16)
            if size > 0 {
                #expect(Array(toResponder.prefix(size)) != plaintext, "the ciphertext must not be the plaintext")
            }
            #expect(try responder.decrypt(toResponder) == plaintext)
            #expect(try initiator.decrypt(try responder.encrypt(plaintext)) == plaintext)
        }
    }

    @Test func theTwoDirectionsUseDifferentKeys() throws {
        let (initiator, responder) = try Self.transports()
        let message = try initiator.encrypt(Array("to responder".utf8))
        // Reflecting a message back at its sender must not decrypt.
        #expect(throws: CryptoError.self) { try initiator.decrypt(message) }
        #expect(try responder.decrypt(message) == Array("to responder".utf8))
    }

    @Test func replayedMessageIsRejected() throws {
        let (initiator, responder) = try Self.transports()
        let first = try initiator.encrypt([1])
        #expect(try responder.decrypt(first) == [1])
        expectNoiseError(.decryptionFailed) { try responder.decrypt(first) }
    }

    @Test func reorderedMessagesAreRejectedAndTheStreamStaysClosed() throws {
        let (initiator, responder) = try Self.transports()
        let first = try initiator.encrypt([1])
        let second = try initiator.encrypt([2])
        expectNoiseError(.decryptionFailed) { try responder.decrypt(second) }
        // After a failure nothing more is accepted, not even the message that was due.
        expectNoiseError(.decryptionFailed) { try responder.decrypt(first) }
    }

    @Test func tamperedTruncatedOrForeignMessagesAreRejected() throws {
        let (initiator, responder) = try Self.transports()
        var flipped = try initiator.encrypt(Array("pay 12.50 EUR".utf8))
        flipped[3] ^= 0x04
        expectNoiseError(.decryptionFailed) { try responder.decrypt(flipped) }

        let (other, otherPeer) = try Self.transports()
        expectNoiseError(.decryptionFailed) { try otherPeer.decrypt(Array((try other.encrypt([7])).prefix(15))) }
        let (third, thirdPeer) = try Self.transports()
        _ = thirdPeer
        expectNoiseError(.decryptionFailed) { try otherPeer.decrypt(try third.encrypt([7])) }
    }

    @Test func oversizeMessagesAreRejectedBothWays() throws {
        let (initiator, responder) = try Self.transports()
        #expect(NoiseTransport.maxPlaintextLength == 65_519)
        expectNoiseError(.invalidInput) { try initiator.encrypt([UInt8](repeating: 0, count: 65_520)) }
        // The refused plaintext used no nonce: the next message still decrypts.
        #expect(try responder.decrypt(try initiator.encrypt([5])) == [5])
        expectNoiseError(.decryptionFailed) { try responder.decrypt([UInt8](repeating: 0, count: 65_536)) }
    }

    @Test func nonceExhaustionStopsBothDirections() throws {
        let (initiator, responder) = try Self.transports()
        // Jump to the last usable nonce, 2^64-2; 2^64-1 is reserved by the Noise spec.
        initiator.sendCipher.nonce = UInt64.max - 1
        responder.receiveCipher.nonce = UInt64.max - 1
        let last = try initiator.encrypt([42])
        #expect(try responder.decrypt(last) == [42])
        #expect(initiator.sendCipher.nonce == UInt64.max)
        expectNoiseError(.nonceExhausted) { try initiator.encrypt([43]) }
        expectNoiseError(.nonceExhausted) { try responder.decrypt(last) }
    }

    @Test func nonceIsFourZeroBytesThenTheLittleEndianCounter() throws {
        let key = [UInt8](repeating: 7, count: 32)
        var cipher = NoiseCipherState(key: key)
        cipher.nonce = 0x0102_0304_0506_0708
        let ciphertext = try cipher.encrypt(ad: [9], plaintext: [1, 2, 3])
        // The same message straight from libsodium with the nonce spelled out by hand.
        let nonce: [UInt8] = [0, 0, 0, 0, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]
        var expected = [UInt8](repeating: 0, count: 3 + 16)
        var length: UInt64 = 0
        _ = crypto_aead_chacha20poly1305_ietf_encrypt(&expected, &length, [1, 2, 3], 3, [9], 1, nil, nonce, key)
        #expect(ciphertext == expected)
        #expect(cipher.nonce == 0x0102_0304_0506_0709)
    }
}

@Suite("Noise static keys from Ed25519 identities")
struct NoiseStaticKeyTests {
    @Test func conversionGivesMatchingSharedSecrets() throws {
        let alice = noiseEd25519KeyPair()
        let bob = noiseEd25519KeyPair()
        let aliceStatic = try NoiseStaticKey(ed25519SecretKey: alice.secretKey)
        let bobStatic = try NoiseStaticKey(ed25519SecretKey: bob.secretKey)
        let alicePublic = try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: alice.publicKey)
        let bobPublic = try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: bob.publicKey)
        #expect(aliceStatic.publicKey == alicePublic)
        #expect(bobStatic.publicKey == bobPublic)
        let aliceShared = try NoiseDH.dh(aliceStatic.keyPair, bobPublic)
        let bobShared = try NoiseDH.dh(bobStatic.keyPair, alicePublic)
        #expect(aliceShared == bobShared)
        #expect(aliceShared != [UInt8](repeating: 0, count: 32))
    }

    @Test func derivedHandshakeRevealsEachSidesIdentityKey() throws {
        let alice = noiseEd25519KeyPair()
        let bob = noiseEd25519KeyPair()
        let pair = try noiseCompletedPair(
            initiatorKey: try NoiseStaticKey(ed25519SecretKey: alice.secretKey),
            responderKey: try NoiseStaticKey(ed25519SecretKey: bob.secretKey))
        #expect(
            pair.initiator.remoteStaticKey == (try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: bob.publicKey)))
        #expect(
            pair.responder.remoteStaticKey
                == (try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: alice.publicKey)))
    }

    @Test func malformedKeysAreRejected() {
        expectNoiseError(.invalidInput) { try NoiseStaticKey(ed25519SecretKey: [UInt8](repeating: 1, count: 32)) }
        expectNoiseError(.invalidInput) { try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: [1, 2, 3]) }
        // The identity point (a low-order point) has no usable X25519 form.
        expectNoiseError(.invalidInput) {
            try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: [1] + [UInt8](repeating: 0, count: 31))
        }
    }
}

@Suite("Noise identity binding")
struct NoiseIdentityBindingTests {
    /// Runs XX where the responder claims `responderClaim` (signing with its secret key).
    static func handshake(
        responderSigningKey: [UInt8]? = nil,
        tamperHash: Bool = false
    ) throws -> (initiatorSees: [UInt8], responderSees: [UInt8], alice: [UInt8], bob: [UInt8]) {
        let alice = noiseEd25519KeyPair()
        let bob = noiseEd25519KeyPair()
        let initiator = NoiseHandshake.initiator(staticKey: try NoiseStaticKey(ed25519SecretKey: alice.secretKey))
        let responder = NoiseHandshake.responder(staticKey: try NoiseStaticKey(ed25519SecretKey: bob.secretKey))
        _ = try responder.readMessage(try initiator.writeMessage())

        var signedHash = responder.handshakeHash
        if tamperHash { signedHash[0] ^= 1 }
        let payload2 = try NoiseIdentityBinding.payload(
            ed25519SecretKey: responderSigningKey ?? bob.secretKey, handshakeHashBeforeMessage: signedHash,
            messageNumber: 2)
        #expect(payload2.count == NoiseIdentityBinding.payloadLength)
        let hashBefore2 = initiator.handshakeHash
        let read2 = try initiator.readMessage(try responder.writeMessage(payload: payload2))
        let bobSeen = try NoiseIdentityBinding.verify(
            payload: read2, handshakeHashBeforeMessage: hashBefore2, messageNumber: 2,
            remoteStaticKey: initiator.remoteStaticKey)

        let payload3 = try NoiseIdentityBinding.payload(
            ed25519SecretKey: alice.secretKey, handshakeHashBeforeMessage: initiator.handshakeHash, messageNumber: 3)
        let hashBefore3 = responder.handshakeHash
        let read3 = try responder.readMessage(try initiator.writeMessage(payload: payload3))
        let aliceSeen = try NoiseIdentityBinding.verify(
            payload: read3, handshakeHashBeforeMessage: hashBefore3, messageNumber: 3,
            remoteStaticKey: responder.remoteStaticKey)
        return (bobSeen, aliceSeen, alice.publicKey, bob.publicKey)
    }

    @Test func bothSidesLearnTheOthersVerifiedIdentity() throws {
        let result = try Self.handshake()
        #expect(result.initiatorSees == result.bob)
        #expect(result.responderSees == result.alice)
    }

    @Test func claimingAnotherIdentityFails() throws {
        // The responder's static key is Bob's, but it presents (and signs as) Carol.
        let carol = noiseEd25519KeyPair()
        expectNoiseError(.handshakeFailed) { try Self.handshake(responderSigningKey: carol.secretKey) }
    }

    @Test func signatureOverAnotherTranscriptFails() throws {
        expectNoiseError(.handshakeFailed) { try Self.handshake(tamperHash: true) }
    }

    @Test func wrongMessageNumberOrLengthFails() throws {
        let bob = noiseEd25519KeyPair()
        let hash = [UInt8](repeating: 3, count: 64)
        let remote = try NoiseStaticKey.x25519PublicKey(fromEd25519PublicKey: bob.publicKey)
        let payload = try NoiseIdentityBinding.payload(
            ed25519SecretKey: bob.secretKey, handshakeHashBeforeMessage: hash, messageNumber: 2)
        #expect(
            try NoiseIdentityBinding.verify(
                payload: payload, handshakeHashBeforeMessage: hash, messageNumber: 2, remoteStaticKey: remote)
                == bob.publicKey)
        #expect(throws: CryptoError.self) {
            try NoiseIdentityBinding.verify(
                payload: payload, handshakeHashBeforeMessage: hash, messageNumber: 3, remoteStaticKey: remote)
        }
        #expect(throws: CryptoError.self) {
            try NoiseIdentityBinding.verify(
                payload: payload + [0], handshakeHashBeforeMessage: hash, messageNumber: 2, remoteStaticKey: remote)
        }
        #expect(throws: CryptoError.self) {
            try NoiseIdentityBinding.verify(
                payload: payload, handshakeHashBeforeMessage: hash, messageNumber: 2, remoteStaticKey: nil)
        }
    }
}
