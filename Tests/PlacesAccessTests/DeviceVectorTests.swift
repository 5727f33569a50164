import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

/// Device certificates, revocations, pairing codes and pairing proofs against
/// `Protocol/vectors/devices/device-vectors.json`, which the independent Python reference
/// `devices_reference.py` generated from `Protocol/devices.md`.
@Suite("Device vectors")
struct DeviceVectorTests {
    struct Vectors: Decodable {
        struct Key: Decodable {
            var name: String
            var seed: String
            var publicKey: String
        }
        struct Certificate: Decodable {
            var name: String
            var person: String
            var device: String
            var admin: Bool
            var issuedMs: Int64
            var signedBytes: String
            var signature: String
            var encoded: String
            var base64url: String
        }
        struct Revocation: Decodable {
            var name: String
            var person: String
            var device: String
            var revokedMs: Int64
            var signedBytes: String
            var signature: String
            var encoded: String
            var base64url: String
        }
        struct InvalidRecord: Decodable {
            var name: String
            var encoded: String
            var reason: String
        }
        struct Code: Decodable {
            var name: String
            var person: String
            var secret: String
            var expiresMs: Int64
            var hints: [String]
            var payload: String
            var checksum: String
            var text: String
        }
        struct CodeVariant: Decodable {
            var name: String
            var text: String
            var canonical: String
        }
        struct InvalidCode: Decodable {
            var name: String
            var text: String
            var reason: String
        }
        struct Proof: Decodable {
            var name: String
            var code: String
            var device: String
            var handshakeHash: String
            var proof: String
            var checkCode: String
        }
        var certificateContext: String
        var revocationContext: String
        var keys: [Key]
        var certificates: [Certificate]
        var revocations: [Revocation]
        var invalidCertificates: [InvalidRecord]
        var invalidRevocations: [InvalidRecord]
        var pairingCodes: [Code]
        var pairingCodeVariants: [CodeVariant]
        var invalidPairingCodes: [InvalidCode]
        var pairingProofs: [Proof]
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/devices/device-vectors.json")
        do {
            return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    static func bytes(_ hex: String) -> [UInt8] {
        guard let raw = HexCoding.decode(hex) else { fatalError("bad hex in the vectors: \(hex.prefix(16))…") }
        return raw
    }

    static func keyPair(_ name: String) throws -> SigningKeyPair {
        let key = try #require(vectors.keys.first { $0.name == name }, "no key \(name) in the vectors")
        let pair = try SigningKeyPair(secretKey: bytes(key.seed) + bytes(key.publicKey))
        #expect(pair.publicKey.hex == key.publicKey)
        return pair
    }

    static func publicKey(_ name: String) throws -> PublicKey {
        try keyPair(name).publicKey
    }

    @Test func theVectorsAreThere() {
        let v = Self.vectors
        #expect(v.certificates.count == 4 && v.revocations.count == 2 && v.pairingCodes.count == 3)
        #expect(v.invalidCertificates.count >= 20 && v.invalidRevocations.count >= 15)
        #expect(v.invalidPairingCodes.count >= 30 && v.pairingProofs.count == 2)
        #expect(v.certificateContext == HexCoding.encode(Array("places/device-cert/1".utf8) + [0]))
        #expect(v.revocationContext == HexCoding.encode(Array("places/device-revoke/1".utf8) + [0]))
    }

    // MARK: Certificates and revocations

    @Test(arguments: vectors.certificates.map(\.name))
    func issuingACertificateReproducesTheVector(_ name: String) throws {
        let v = try #require(Self.vectors.certificates.first { $0.name == name })
        let cert = try DeviceCertificate.issue(
            device: try Self.publicKey(v.device), admin: v.admin, issuedMs: v.issuedMs, by: try Self.keyPair(v.person))
        #expect(HexCoding.encode(cert.signedBytes) == v.signedBytes)
        #expect(HexCoding.encode(cert.signature.bytes) == v.signature)
        #expect(HexCoding.encode(cert.encoded) == v.encoded)
        #expect(cert.base64url == v.base64url)
        #expect(cert.base64url.count == 184)
    }

    @Test(arguments: vectors.certificates.map(\.name))
    func decodingACertificateReproducesTheFields(_ name: String) throws {
        let v = try #require(Self.vectors.certificates.first { $0.name == name })
        let cert = try DeviceCertificate(decoding: Self.bytes(v.encoded))
        #expect(cert.person == (try Self.publicKey(v.person)))
        #expect(cert.device == (try Self.publicKey(v.device)))
        #expect(cert.admin == v.admin)
        #expect(cert.issuedMs == v.issuedMs)
        #expect(HexCoding.encode(cert.encoded) == v.encoded)
        #expect(try DeviceCertificate(base64url: v.base64url) == cert)
    }

    @Test(arguments: vectors.revocations.map(\.name))
    func issuingARevocationReproducesTheVector(_ name: String) throws {
        let v = try #require(Self.vectors.revocations.first { $0.name == name })
        let revocation = try DeviceRevocation.issue(
            device: try Self.publicKey(v.device), revokedMs: v.revokedMs, by: try Self.keyPair(v.person))
        #expect(HexCoding.encode(revocation.signedBytes) == v.signedBytes)
        #expect(HexCoding.encode(revocation.signature.bytes) == v.signature)
        #expect(HexCoding.encode(revocation.encoded) == v.encoded)
        #expect(revocation.base64url == v.base64url)
        #expect(revocation.base64url.count == 183)
    }

    @Test(arguments: vectors.revocations.map(\.name))
    func decodingARevocationReproducesTheFields(_ name: String) throws {
        let v = try #require(Self.vectors.revocations.first { $0.name == name })
        let revocation = try DeviceRevocation(decoding: Self.bytes(v.encoded))
        #expect(revocation.person == (try Self.publicKey(v.person)))
        #expect(revocation.device == (try Self.publicKey(v.device)))
        #expect(revocation.revokedMs == v.revokedMs)
        #expect(HexCoding.encode(revocation.encoded) == v.encoded)
        #expect(try DeviceRevocation(base64url: v.base64url) == revocation)
    }

    @Test(arguments: vectors.invalidCertificates.map(\.name))
    func invalidCertificateIsRefused(_ name: String) throws {
        let v = try #require(Self.vectors.invalidCertificates.first { $0.name == name })
        let error = try #require(throws: DeviceRecordError.self) {
            try DeviceCertificate(decoding: Self.bytes(v.encoded))
        }
        #expect(error.code == v.reason, "\(name): \(error)")
        // The base64url text form refuses it for the same reason.
        let viaText = try #require(throws: DeviceRecordError.self) {
            try DeviceCertificate(base64url: Data(Self.bytes(v.encoded)).base64URL)
        }
        #expect(viaText == error)
    }

    @Test(arguments: vectors.invalidRevocations.map(\.name))
    func invalidRevocationIsRefused(_ name: String) throws {
        let v = try #require(Self.vectors.invalidRevocations.first { $0.name == name })
        let error = try #require(throws: DeviceRecordError.self) {
            try DeviceRevocation(decoding: Self.bytes(v.encoded))
        }
        #expect(error.code == v.reason, "\(name): \(error)")
    }

    // MARK: Pairing codes

    @Test(arguments: vectors.pairingCodes.map(\.name))
    func makingACodeReproducesTheVector(_ name: String) throws {
        let v = try #require(Self.vectors.pairingCodes.first { $0.name == name })
        let code = try PairingCode(
            person: try Self.publicKey(v.person), secret: Self.bytes(v.secret), expiresMs: v.expiresMs, hints: v.hints)
        #expect(HexCoding.encode(code.payload) == v.payload)
        #expect(code.text == v.text)
        #expect(HexCoding.encode(Blake2b.hash256(code.payload).prefix(4)) == v.checksum)
    }

    @Test(arguments: vectors.pairingCodes.map(\.name))
    func parsingACodeReproducesTheFields(_ name: String) throws {
        let v = try #require(Self.vectors.pairingCodes.first { $0.name == name })
        let code = try PairingCode(parsing: v.text)
        #expect(code.person == (try Self.publicKey(v.person)))
        #expect(HexCoding.encode(code.secret) == v.secret)
        #expect(code.expiresMs == v.expiresMs)
        #expect(code.hints == v.hints)
        #expect(code.text == v.text)
    }

    @Test(arguments: vectors.pairingCodeVariants.map(\.name))
    func codeVariantParses(_ name: String) throws {
        let v = try #require(Self.vectors.pairingCodeVariants.first { $0.name == name })
        #expect(try PairingCode(parsing: v.text).text == v.canonical)
    }

    @Test(arguments: vectors.invalidPairingCodes.map(\.name))
    func invalidCodeIsRefused(_ name: String) throws {
        let v = try #require(Self.vectors.invalidPairingCodes.first { $0.name == name })
        let error = try #require(throws: DeviceRecordError.self) { try PairingCode(parsing: v.text) }
        #expect(error.code == v.reason, "\(name): \(error)")
    }

    // MARK: Proofs and check codes

    @Test(arguments: vectors.pairingProofs.map(\.name))
    func proofAndCheckCodeMatchTheVector(_ name: String) throws {
        let v = try #require(Self.vectors.pairingProofs.first { $0.name == name })
        let c = try #require(Self.vectors.pairingCodes.first { $0.name == v.code })
        let code = try PairingCode(parsing: c.text)
        let device = try Self.publicKey(v.device)
        let h = Self.bytes(v.handshakeHash)
        let proof = try PairingProof.proof(secret: code.secret, handshakeHash: h, device: device, person: code.person)
        #expect(HexCoding.encode(proof) == v.proof)
        #expect(PairingProof.isValid(proof, secret: code.secret, handshakeHash: h, device: device, person: code.person))
        #expect(try PairingProof.checkCode(secret: code.secret, handshakeHash: h) == v.checkCode)
    }

    @Test func oneCheckCodeVectorKeepsALeadingZero() {
        #expect(Self.vectors.pairingProofs.contains { $0.checkCode.hasPrefix("0") && $0.checkCode.count == 6 })
    }
}

extension Data {
    /// Unpadded base64url, written with Foundation rather than the module's own encoder.
    fileprivate var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
