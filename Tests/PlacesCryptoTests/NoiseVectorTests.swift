import Foundation
import Testing

@testable import PlacesCrypto

/// One entry of `Protocol/vectors/noise/xx-25519-chachapoly.json` (the common Noise vector format).
struct NoiseVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Message: Decodable, Sendable {
        let payload: String
        let ciphertext: String
    }

    let protocolName: String
    let initPrologue: String
    let respPrologue: String
    let initStatic: String?
    let respStatic: String?
    let initEphemeral: String
    let respEphemeral: String
    let handshakeHash: String?
    let messages: [Message]
    let source: String

    enum CodingKeys: String, CodingKey {
        case protocolName = "protocol_name", initPrologue = "init_prologue", respPrologue = "resp_prologue"
        case initStatic = "init_static", respStatic = "resp_static", initEphemeral = "init_ephemeral"
        case respEphemeral = "resp_ephemeral", handshakeHash = "handshake_hash", messages, source
    }

    var testDescription: String { "\(protocolName) [\(source.prefix(while: { $0 != " " }))]" }

    /// The vectors, read from the repository's `Protocol/` directory relative to this file
    /// (symlinks resolved, so it also works from a scratch package that links the sources).
    static let all: [NoiseVector] = {
        let url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/noise/xx-25519-chachapoly.json")
        struct File: Decodable { let vectors: [NoiseVector] }
        // Test-only: a missing or malformed vector file should stop the run loudly.
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors
    }()
}

@Suite("Noise test vectors")
struct NoiseVectorTests {
    static func hashFunction(named protocolName: String) -> (any NoiseHashFunction)? {
        switch protocolName.split(separator: "_").last {
        case "BLAKE2b": NoiseBLAKE2b()
        case "BLAKE2s": NoiseTestBLAKE2s()
        case "SHA256": NoiseSHA256()
        case "SHA512": NoiseSHA512()
        default: nil
        }
    }

    static func pattern(named protocolName: String) -> NoiseHandshakePattern? {
        switch protocolName.split(separator: "_").dropFirst().first {
        case "NN": .nn
        case "XX": .xx
        default: nil
        }
    }

    @Test func vectorFileHoldsTheExpectedProtocols() {
        let names = Set(NoiseVector.all.map(\.protocolName))
        #expect(NoiseVector.all.count == 10)
        #expect(names.contains("Noise_XX_25519_ChaChaPoly_BLAKE2b"))
        #expect(names.contains("Noise_XX_25519_ChaChaPoly_SHA256"))
        #expect(names.contains("Noise_NN_25519_ChaChaPoly_BLAKE2b"))
        #expect(NoiseHandshake.protocolName == "Noise_XX_25519_ChaChaPoly_BLAKE2b")
    }

    @Test func blake2sMatchesRFC7693() {
        #expect(
            NoiseTestBLAKE2s().hash(Array("abc".utf8))
                == noiseHexBytes("508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"))
        // Two blocks plus a partial one, and the empty input.
        #expect(
            NoiseTestBLAKE2s().hash([])
                == noiseHexBytes("69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9"))
    }

    @Test("Every vector, both roles, byte for byte", arguments: NoiseVector.all)
    func vector(_ vector: NoiseVector) throws {
        let hash = try #require(Self.hashFunction(named: vector.protocolName))
        let pattern = try #require(Self.pattern(named: vector.protocolName))
        let initiator = NoiseHandshake(
            role: .initiator, pattern: pattern, hashFunction: hash, prologue: noiseHexBytes(vector.initPrologue),
            staticKey: try vector.initStatic.map { try NoiseStaticKey(x25519SecretKey: noiseHexBytes($0)) },
            fixedEphemeral: try NoiseKeyPair(secretKey: noiseHexBytes(vector.initEphemeral)))
        let responder = NoiseHandshake(
            role: .responder, pattern: pattern, hashFunction: hash, prologue: noiseHexBytes(vector.respPrologue),
            staticKey: try vector.respStatic.map { try NoiseStaticKey(x25519SecretKey: noiseHexBytes($0)) },
            fixedEphemeral: try NoiseKeyPair(secretKey: noiseHexBytes(vector.respEphemeral)))

        var transports: (initiator: NoiseTransport, responder: NoiseTransport)?
        var transportMessages = 0
        for (index, message) in vector.messages.enumerated() {
            let payload = noiseHexBytes(message.payload)
            let expected = noiseHexBytes(message.ciphertext)
            // Messages alternate initiator, responder, ... through the handshake and beyond.
            let initiatorSends = index % 2 == 0
            if let transports {
                let (sender, receiver) =
                    initiatorSends
                    ? (transports.initiator, transports.responder) : (transports.responder, transports.initiator)
                let ciphertext = try sender.encrypt(payload)
                #expect(ciphertext == expected, "transport message \(index)")
                #expect(try receiver.decrypt(ciphertext) == payload, "transport message \(index)")
                transportMessages += 1
            } else {
                let (sender, receiver) = initiatorSends ? (initiator, responder) : (responder, initiator)
                #expect(sender.isLocalTurn && !receiver.isLocalTurn)
                let ciphertext = try sender.writeMessage(payload: payload)
                #expect(ciphertext == expected, "handshake message \(index)")
                #expect(try receiver.readMessage(ciphertext) == payload, "handshake message \(index)")
                #expect(sender.handshakeHash == receiver.handshakeHash)
                if initiator.isComplete && responder.isComplete {
                    let respStaticPublic = try vector.respStatic.map {
                        try NoiseStaticKey(x25519SecretKey: noiseHexBytes($0)).publicKey
                    }
                    let initStaticPublic = try vector.initStatic.map {
                        try NoiseStaticKey(x25519SecretKey: noiseHexBytes($0)).publicKey
                    }
                    #expect(initiator.remoteStaticKey == respStaticPublic)
                    #expect(responder.remoteStaticKey == initStaticPublic)
                    transports = (try initiator.finish(), try responder.finish())
                }
            }
        }
        let finished = try #require(transports, "the handshake did not complete")
        #expect(transportMessages >= 1)
        #expect(finished.initiator.handshakeHash == finished.responder.handshakeHash)
        #expect(initiator.handshakeHash == finished.initiator.handshakeHash)
        if let handshakeHash = vector.handshakeHash {
            #expect(finished.initiator.handshakeHash == noiseHexBytes(handshakeHash))
        }
    }
}
