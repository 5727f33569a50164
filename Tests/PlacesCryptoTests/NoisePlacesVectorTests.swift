import CSodium
import Foundation
import Testing

@testable import PlacesCrypto

/// `Protocol/vectors/noise/places-sync-1.json`: a whole Places handshake (prologue,
/// identity proofs, framing) produced by an independent Python implementation of
/// `Protocol/handshake.md` (`places_sync_1_reference.py` next to it).
struct NoisePlacesVector: Decodable {
    let prologue: String
    let initiatorSeed: String
    let responderSeed: String
    let initiatorEphemeral: String
    let responderEphemeral: String
    let transportPayloads: [String]
    let initiatorPublicKey: String
    let responderPublicKey: String
    let initiatorStatic: String
    let responderStatic: String
    let handshakeHash: String
    let frames: [String]

    enum CodingKeys: String, CodingKey {
        case prologue, frames
        case initiatorSeed = "initiator_ed25519_seed", responderSeed = "responder_ed25519_seed"
        case initiatorEphemeral = "initiator_ephemeral", responderEphemeral = "responder_ephemeral"
        case transportPayloads = "transport_payloads", handshakeHash = "handshake_hash"
        case initiatorPublicKey = "initiator_ed25519_public_key", responderPublicKey = "responder_ed25519_public_key"
        case initiatorStatic = "initiator_static_x25519_public_key"
        case responderStatic = "responder_static_x25519_public_key"
    }

    static func load() throws -> NoisePlacesVector {
        let url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/noise/places-sync-1.json")
        return try JSONDecoder().decode(NoisePlacesVector.self, from: Data(contentsOf: url))
    }
}

@Suite("Places sync/1 handshake vector")
struct NoisePlacesVectorTests {
    static func secretKey(seed: [UInt8]) -> [UInt8] {
        _ = sodium_init()
        var publicKey = [UInt8](repeating: 0, count: 32)
        var secretKey = [UInt8](repeating: 0, count: 64)
        _ = crypto_sign_ed25519_seed_keypair(&publicKey, &secretKey, seed)
        return secretKey
    }

    @Test func reproducesTheReferenceTranscriptByteForByte() throws {
        let vector = try NoisePlacesVector.load()
        #expect(noiseHexBytes(vector.prologue) == NoiseHandshake.placesPrologue)
        let aliceSecret = Self.secretKey(seed: noiseHexBytes(vector.initiatorSeed))
        let bobSecret = Self.secretKey(seed: noiseHexBytes(vector.responderSeed))
        let aliceStatic = try NoiseStaticKey(ed25519SecretKey: aliceSecret)
        let bobStatic = try NoiseStaticKey(ed25519SecretKey: bobSecret)
        #expect(aliceStatic.publicKey == noiseHexBytes(vector.initiatorStatic))
        #expect(bobStatic.publicKey == noiseHexBytes(vector.responderStatic))

        func places(_ role: NoiseHandshake.Role, _ key: NoiseStaticKey, _ ephemeral: String) throws -> NoiseHandshake {
            NoiseHandshake(
                role: role, pattern: .xx, hashFunction: NoiseBLAKE2b(), prologue: NoiseHandshake.placesPrologue,
                staticKey: key, fixedEphemeral: try NoiseKeyPair(secretKey: noiseHexBytes(ephemeral)),
                requiresEmptyFirstPayload: true)
        }
        let initiator = try places(.initiator, aliceStatic, vector.initiatorEphemeral)
        let responder = try places(.responder, bobStatic, vector.responderEphemeral)
        let expectedFrames = vector.frames.map(noiseHexBytes)

        // Both sides read from one decoder fed the whole reference byte stream.
        var wire = NoiseFrameDecoder()
        wire.append(expectedFrames.joined())
        var written: [[UInt8]] = []
        var seen: [[UInt8]] = []
        for (index, signer) in [(initiator, aliceSecret), (responder, bobSecret), (initiator, aliceSecret)].enumerated()
        {
            let (sender, secret) = signer
            let receiver = sender === initiator ? responder : initiator
            let number = UInt8(index + 1)
            let payload =
                index == 0
                ? []
                : try NoiseIdentityBinding.payload(
                    ed25519SecretKey: secret, handshakeHashBeforeMessage: sender.handshakeHash, messageNumber: number)
            written.append(try NoiseFraming.frame(try sender.writeMessage(payload: payload)))
            let hashBefore = receiver.handshakeHash
            let received = try receiver.readMessage(try #require(try wire.nextFrame()))
            if index > 0 {
                seen.append(
                    try NoiseIdentityBinding.verify(
                        payload: received, handshakeHashBeforeMessage: hashBefore, messageNumber: number,
                        remoteStaticKey: receiver.remoteStaticKey))
            }
        }
        #expect(seen == [noiseHexBytes(vector.responderPublicKey), noiseHexBytes(vector.initiatorPublicKey)])

        let aliceTransport = try initiator.finish()
        let bobTransport = try responder.finish()
        #expect(aliceTransport.handshakeHash == noiseHexBytes(vector.handshakeHash))
        let payloads = vector.transportPayloads.map(noiseHexBytes)
        written.append(try NoiseFraming.frame(try aliceTransport.encrypt(payloads[0])))
        #expect(try bobTransport.decrypt(try #require(try wire.nextFrame())) == payloads[0])
        written.append(try NoiseFraming.frame(try bobTransport.encrypt(payloads[1])))
        #expect(try aliceTransport.decrypt(try #require(try wire.nextFrame())) == payloads[1])

        #expect(written == expectedFrames)
        #expect(written.map(\.count) == [2 + 32, 2 + 192, 2 + 160, 2 + 24 + 16, 2 + 24 + 16])
        #expect(wire.bufferedByteCount == 0)
    }
}
