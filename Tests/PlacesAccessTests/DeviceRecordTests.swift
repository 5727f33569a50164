import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess

/// Device certificates, revocations, pairing codes and proofs (`Protocol/devices.md` §2,
/// §3, §5) with fresh keys: round trips, what makers refuse, and that every changed byte or
/// character is refused. The byte-exact cases are in `DeviceVectorTests`.
@Suite struct DeviceRecordTests {
    static let time: Int64 = 1_775_808_000_000
    /// The neutral point: 32 bytes `PublicKey` takes that libsodium refuses as a key.
    static let smallOrderKey: [UInt8] = [1] + [UInt8](repeating: 0, count: 31)

    // MARK: Certificates

    @Test(arguments: [true, false])
    func aCertificateRoundTrips(admin: Bool) throws {
        let person = try SigningKeyPair()
        let device = try SigningKeyPair().publicKey
        let cert = try DeviceCertificate.issue(device: device, admin: admin, issuedMs: Self.time, by: person)
        #expect(cert.person == person.publicKey && cert.device == device && cert.admin == admin)
        #expect(cert.encoded.count == DeviceCertificate.size && cert.base64url.count == 184)
        #expect(cert.encoded[65] == (admin ? 1 : 0))
        let decoded = try DeviceCertificate(decoding: cert.encoded)
        #expect(decoded == cert && decoded.issuedMs == Self.time)
        #expect(try DeviceCertificate(base64url: cert.base64url) == cert)
        #expect(person.publicKey.verify(cert.signature, for: cert.signedBytes))
        #expect(cert.signedBytes.count == 95)
    }

    @Test func everyChangedCertificateByteIsRefused() throws {
        let cert = try DeviceCertificate.issue(
            device: try SigningKeyPair().publicKey, admin: true, issuedMs: Self.time, by: try SigningKeyPair())
        for index in cert.encoded.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var bytes = cert.encoded
                bytes[index] ^= mask
                #expect(throws: DeviceRecordError.self, "byte \(index) ^ \(mask)") {
                    try DeviceCertificate(decoding: bytes)
                }
            }
        }
        #expect(throws: DeviceRecordError.wrongLength(.certificate, length: 137)) {
            try DeviceCertificate(decoding: Array(cert.encoded.dropLast()))
        }
    }

    @Test func issuingRefusesWhatAReaderWouldRefuse() throws {
        let person = try SigningKeyPair()
        let device = try SigningKeyPair().publicKey
        #expect(throws: DeviceRecordError.deviceIsPerson(.certificate)) {
            try DeviceCertificate.issue(device: person.publicKey, admin: false, issuedMs: Self.time, by: person)
        }
        #expect(throws: DeviceRecordError.invalidDeviceKey(.certificate)) {
            try DeviceCertificate.issue(
                device: try PublicKey(bytes: Self.smallOrderKey), admin: false, issuedMs: Self.time, by: person)
        }
        for time: Int64 in [-1, .min, DeviceRecordFields.maxTimeMs + 1, .max] {
            #expect(throws: DeviceRecordError.timeOutOfRange(.certificate, milliseconds: UInt64(bitPattern: time))) {
                try DeviceCertificate.issue(device: device, admin: false, issuedMs: time, by: person)
            }
        }
        for time: Int64 in [0, DeviceRecordFields.maxTimeMs] {
            let cert = try DeviceCertificate.issue(device: device, admin: false, issuedMs: time, by: person)
            #expect(try DeviceCertificate(decoding: cert.encoded).issuedMs == time)
        }
    }

    @Test func certificateTextIsChecked() throws {
        #expect(throws: DeviceRecordError.notBase64URL(.certificate)) { try DeviceCertificate(base64url: "AA==") }
        #expect(throws: DeviceRecordError.notBase64URL(.certificate)) { try DeviceCertificate(base64url: "a+b/") }
        let huge = String(repeating: "A", count: 1_000_000)
        #expect(throws: DeviceRecordError.wrongLength(.certificate, length: 750_000)) {
            try DeviceCertificate(base64url: huge)
        }
    }

    // MARK: Revocations

    @Test func aRevocationRoundTrips() throws {
        let person = try SigningKeyPair()
        let device = try SigningKeyPair().publicKey
        let revocation = try DeviceRevocation.issue(device: device, revokedMs: Self.time, by: person)
        #expect(revocation.encoded.count == DeviceRevocation.size && revocation.base64url.count == 183)
        #expect(revocation.signedBytes.count == 96)
        let decoded = try DeviceRevocation(decoding: revocation.encoded)
        #expect(decoded == revocation && decoded.person == person.publicKey && decoded.device == device)
        #expect(decoded.revokedMs == Self.time)
        #expect(try DeviceRevocation(base64url: revocation.base64url) == revocation)
    }

    @Test func everyChangedRevocationByteIsRefused() throws {
        let revocation = try DeviceRevocation.issue(
            device: try SigningKeyPair().publicKey, revokedMs: Self.time, by: try SigningKeyPair())
        for index in revocation.encoded.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var bytes = revocation.encoded
                bytes[index] ^= mask
                #expect(throws: DeviceRecordError.self, "byte \(index) ^ \(mask)") {
                    try DeviceRevocation(decoding: bytes)
                }
            }
        }
    }

    @Test func aRecordIsNotTheOtherKind() throws {
        let person = try SigningKeyPair()
        let device = try SigningKeyPair().publicKey
        let cert = try DeviceCertificate.issue(device: device, admin: false, issuedMs: Self.time, by: person)
        let revocation = try DeviceRevocation.issue(device: device, revokedMs: Self.time, by: person)
        #expect(throws: DeviceRecordError.wrongLength(.revocation, length: 138)) {
            try DeviceRevocation(decoding: cert.encoded)
        }
        #expect(throws: DeviceRecordError.wrongLength(.certificate, length: 137)) {
            try DeviceCertificate(decoding: revocation.encoded)
        }
        #expect(throws: DeviceRecordError.deviceIsPerson(.revocation)) {
            try DeviceRevocation.issue(device: person.publicKey, revokedMs: Self.time, by: person)
        }
        #expect(throws: DeviceRecordError.timeOutOfRange(.revocation, milliseconds: UInt64(bitPattern: -1))) {
            try DeviceRevocation.issue(device: device, revokedMs: -1, by: person)
        }
    }

    /// Hostile bytes: random and mutated records never trap and never decode to a record
    /// whose encoding differs from its input.
    @Test func randomAndMutatedRecordsAreRefusedOrExact() throws {
        var generator = SystemRandomNumberGenerator()
        let cert = try DeviceCertificate.issue(
            device: try SigningKeyPair().publicKey, admin: true, issuedMs: Self.time, by: try SigningKeyPair())
        for _ in 0..<2_000 {
            var bytes = cert.encoded
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            case 1: bytes[Int.random(in: 0..<bytes.count)] = UInt8.random(in: 0...255)
            default: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count)))
            }
            if let decoded = try? DeviceCertificate(decoding: bytes) { #expect(decoded.encoded == bytes) }
            if let decoded = try? DeviceRevocation(decoding: bytes) { #expect(decoded.encoded == bytes) }
        }
    }

    // MARK: Pairing codes

    static func code(hints: [String] = ["192.168.1.20:7420"]) throws -> PairingCode {
        try PairingCode(
            person: try SigningKeyPair().publicKey, secret: Array(0..<16), expiresMs: Self.time, hints: hints)
    }

    @Test func aCodeRoundTripsThroughItsText() throws {
        let person = try SigningKeyPair().publicKey
        let code = try PairingCode.make(person: person, nowMs: Self.time, hints: [])
        #expect(code.expiresMs == Self.time + 600_000 && code.secret.count == 16)
        #expect(code.text.hasPrefix("PLD1") && code.text.count == 104)
        #expect(code.payload.count == 58)
        #expect(try PairingCode(parsing: code.text) == code)
        #expect(try PairingCode(parsing: code.text.lowercased()) == code)
        let grouped = code.text.enumerated().map {
            $0.offset > 0 && $0.offset % 4 == 0 ? "-\($0.element)" : "\($0.element)"
        }
        #expect(try PairingCode(parsing: grouped.joined()) == code)
        #expect(try PairingCode.make(person: person, nowMs: Self.time, hints: []).secret != code.secret)
    }

    @Test func everyMistypedCharacterIsRefused() throws {
        let code = try Self.code()
        let text = Array(code.text.unicodeScalars)
        for index in text.indices {
            for replacement in ["A", "Q", "7", "0", "L", "p"] as [Unicode.Scalar] where replacement != text[index] {
                var typed = text
                typed[index] = replacement
                var string = ""
                string.unicodeScalars.append(contentsOf: typed)
                if string.uppercased() == code.text { continue }
                #expect(throws: DeviceRecordError.self, "\(index) → \(replacement)") {
                    try PairingCode(parsing: string)
                }
            }
        }
        // A dropped character: refused (a typing error or a short code), never another code.
        for index in text.indices {
            var typed = text
            typed.remove(at: index)
            var string = ""
            string.unicodeScalars.append(contentsOf: typed)
            #expect(throws: DeviceRecordError.self) { try PairingCode(parsing: string) }
        }
    }

    @Test func theChecksumErrorSaysItIsATypingError() throws {
        let text = try Self.code().text
        var scalars = Array(text.unicodeScalars)
        scalars[40] = scalars[40] == "A" ? "B" : "A"
        var typed = ""
        typed.unicodeScalars.append(contentsOf: scalars)
        let error = try #require(throws: DeviceRecordError.self) { try PairingCode(parsing: typed) }
        #expect(error == .codeBadChecksum && error.message.contains("typing error"), "\(error)")
    }

    @Test func makingACodeRefusesWhatAReaderWouldRefuse() throws {
        let person = try SigningKeyPair().publicKey
        #expect(throws: DeviceRecordError.badSecret(length: 32)) {
            try PairingCode(person: person, secret: Array(0..<32), expiresMs: Self.time, hints: [])
        }
        #expect(throws: DeviceRecordError.invalidPersonKey(.pairingCode)) {
            try PairingCode(
                person: try PublicKey(bytes: Self.smallOrderKey), secret: Array(0..<16), expiresMs: Self.time,
                hints: [])
        }
        #expect(throws: DeviceRecordError.codeTooManyHints(5)) {
            try Self.code(hints: Array(repeating: "h:1", count: 5))
        }
        #expect(throws: DeviceRecordError.timeOutOfRange(.pairingCode, milliseconds: UInt64(bitPattern: -1))) {
            try PairingCode(person: person, secret: Array(0..<16), expiresMs: -1, hints: [])
        }
        #expect(throws: DeviceRecordError.codeBadHintLength(index: 1, length: 65)) {
            try Self.code(hints: ["h:1", String(repeating: "h", count: 63) + ":1"])
        }
        #expect(throws: DeviceRecordError.codeBadHintLength(index: 0, length: 0)) { try Self.code(hints: [""]) }
        let bad = [
            "host", "host:", "host:0", "host:65536", "host:099", "host:-1", "host: 80", ":80", "[::1:80", "::1:80",
            "[]:80", "[1.2.3.4]:80", "a b:80", "a/b:80", "user@host:80", "h\u{7f}:80", "[::1] :80",
        ]
        for hint in bad {
            #expect(throws: DeviceRecordError.codeBadHint(index: 0), "\(hint)") { try Self.code(hints: [hint]) }
        }
        let good = [
            "h:1", "host.local:65535", "10.0.0.1:7420", "[::1]:7420", "[fe80::1%en0]:7420", "café.local:7420",
            "xn--caf-dma.local:7420",
        ]
        for hint in good {
            let code = try Self.code(hints: [hint])
            #expect(try PairingCode(parsing: code.text).hints == [hint])
        }
    }

    @Test func parsingIsBoundedAndNamesTheProblem() throws {
        #expect(throws: DeviceRecordError.codeTooLong(bytes: 100_000)) {
            try PairingCode(parsing: String(repeating: "A", count: 100_000))
        }
        #expect(throws: DeviceRecordError.codeWrongPrefix) { try PairingCode(parsing: "  ") }
        #expect(throws: DeviceRecordError.codeWrongPrefix) { try PairingCode(parsing: "PLDX") }
        #expect(throws: DeviceRecordError.codeUnsupportedVersion(9)) { try PairingCode(parsing: "pld9AAAA") }
        #expect(throws: DeviceRecordError.codeBadCharacter("8")) { try PairingCode(parsing: "PLD1AA8A") }
        #expect(throws: DeviceRecordError.codeNotBase32) { try PairingCode(parsing: "PLD1A") }
        #expect(throws: DeviceRecordError.codeTooShort(bytes: 5)) { try PairingCode(parsing: "PLD1AAAAAAAA") }
    }

    /// Every error has its own code, and a message with no placeholder left in it.
    @Test func errorCodesAreDistinct() {
        let errors: [DeviceRecordError] = [
            .wrongLength(.certificate, length: 1), .notBase64URL(.revocation), .wrongType(.certificate, type: 2),
            .unknownFlags(2), .timeOutOfRange(.pairingCode, milliseconds: 1), .deviceIsPerson(.revocation),
            .invalidPersonKey(.pairingCode), .invalidDeviceKey(.certificate), .badSignature(.revocation),
            .codeTooLong(bytes: 5000), .codeWrongPrefix, .codeUnsupportedVersion(2), .codeBadCharacter("0"),
            .codeNotBase32, .codeTooShort(bytes: 3), .codeBadChecksum, .codeLengthMismatch(field: "hint 2"),
            .codeTooManyHints(5), .codeBadHintLength(index: 0, length: 65), .codeBadHint(index: 1),
            .codeTrailingBytes(1), .badSecret(length: 15), .badHandshakeHash(length: 32),
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors {
            #expect(!error.message.isEmpty && !error.message.contains("\\("), "\(error)")
            #expect(error.description.hasPrefix(error.code + ": "))
        }
    }

    // MARK: Proofs and check codes

    @Test func aProofIsBoundToEveryPart() throws {
        let secret = Array(UInt8(0)..<16)
        let h = [UInt8](repeating: 7, count: 64)
        let device = try SigningKeyPair().publicKey
        let person = try SigningKeyPair().publicKey
        let proof = try PairingProof.proof(secret: secret, handshakeHash: h, device: device, person: person)
        #expect(proof.count == 32)
        #expect(PairingProof.isValid(proof, secret: secret, handshakeHash: h, device: device, person: person))

        var otherH = h
        otherH[63] ^= 1
        var otherSecret = secret
        otherSecret[0] ^= 1
        let others = [
            try PairingProof.proof(secret: secret, handshakeHash: otherH, device: device, person: person),
            try PairingProof.proof(secret: otherSecret, handshakeHash: h, device: device, person: person),
            try PairingProof.proof(secret: secret, handshakeHash: h, device: person, person: device),
        ]
        for other in others { #expect(other != proof) }
        #expect(!PairingProof.isValid(proof, secret: secret, handshakeHash: otherH, device: device, person: person))
        #expect(!PairingProof.isValid(proof, secret: otherSecret, handshakeHash: h, device: device, person: person))
        #expect(
            !PairingProof.isValid(
                Array(proof.dropLast()), secret: secret, handshakeHash: h, device: device, person: person))
        #expect(!PairingProof.isValid(proof, secret: secret + [0], handshakeHash: h, device: device, person: person))

        let check = try PairingProof.checkCode(secret: secret, handshakeHash: h)
        #expect(check.count == 6 && check.allSatisfy(\.isASCII) && check.allSatisfy(\.isNumber))
        #expect(try PairingProof.checkCode(secret: secret, handshakeHash: h) == check)
    }

    @Test func proofInputsOfTheWrongLengthAreRefused() throws {
        let key = try SigningKeyPair().publicKey
        let h = [UInt8](repeating: 0, count: 64)
        #expect(throws: DeviceRecordError.badSecret(length: 32)) {
            try PairingProof.proof(secret: Array(0..<32), handshakeHash: h, device: key, person: key)
        }
        #expect(throws: DeviceRecordError.badHandshakeHash(length: 32)) {
            try PairingProof.checkCode(secret: Array(0..<16), handshakeHash: Array(h.prefix(32)))
        }
        #expect(throws: DeviceRecordError.badSecret(length: 0)) {
            try PairingProof.checkCode(secret: [], handshakeHash: h)
        }
    }

    @Test func checkCodesSpreadOverAllSixDigits() throws {
        // Leading zeros are kept: over 2,000 sessions some code starts with 0, all are 6 long.
        var sawLeadingZero = false
        for index in 0..<2_000 {
            let h = Blake2b.hash256(Array("session \(index)".utf8)) + [UInt8](repeating: 0, count: 32)
            let check = try PairingProof.checkCode(secret: Array(0..<16), handshakeHash: h)
            #expect(check.count == 6)
            sawLeadingZero = sawLeadingZero || check.hasPrefix("0")
        }
        #expect(sawLeadingZero)
    }

    // MARK: Base32

    @Test func base32MatchesRFC4648() {
        let cases: [(String, String)] = [
            ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI"),
        ]
        for (plain, encoded) in cases {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            let values = encoded.utf8.compactMap(Base32.value(of:))
            #expect(Base32.decode(values: values) == Array(plain.utf8))
        }
        #expect(Base32.decode(values: [12]) == nil)  // 1 character: no byte string
        #expect(Base32.decode(values: [12, 25]) == nil)  // "MZ": unused bits set
    }
}
