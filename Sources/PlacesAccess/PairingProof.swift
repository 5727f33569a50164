import PlacesCrypto

/// What a joining device sends to prove it holds a pairing code's secret, and the check
/// code both devices show the user (`Protocol/devices.md` §5.2):
///
/// ```
/// proof      = BLAKE2b-256(key = secret, "places/pair/1" ‖ 0x00 ‖ h ‖ device ‖ person)
/// check code = BLAKE2b-256(key = secret, "places/pair-check/1" ‖ 0x00 ‖ h)[0 ..< 4]
///              as u32, mod 1,000,000, 6 decimal digits
/// ```
///
/// `h` is the session's final 64-byte Noise handshake hash, so a proof is bound to one
/// connection (a replay on another fails) and the check code tells the user both devices
/// are on the same connection with nobody in between. The 16-byte secret is a valid keyed
/// BLAKE2b key as it is (libsodium takes 16...64 bytes), so it is used unpadded.
public enum PairingProof {
    /// The length of a Noise handshake hash (BLAKE2b, `handshake.md`).
    public static let handshakeHashBytes = 64
    /// The length of a proof.
    public static let proofBytes = 32
    /// The number of digits of a check code.
    public static let checkCodeDigits = 6
    static let proofContext: [UInt8] = Array("places/pair/1".utf8) + [0x00]
    static let checkContext: [UInt8] = Array("places/pair-check/1".utf8) + [0x00]

    /// The joiner's proof for the connection with handshake hash `handshakeHash`.
    ///
    /// - Throws: `.badSecret` unless `secret` is 16 bytes, `.badHandshakeHash` unless
    ///   `handshakeHash` is 64.
    public static func proof(
        secret: [UInt8], handshakeHash: [UInt8], device: PublicKey, person: PublicKey
    ) throws(DeviceRecordError) -> [UInt8] {
        try mac(secret: secret, proofContext + (try checked(handshakeHash)) + device.bytes + person.bytes)
    }

    /// Whether `proof` is the proof for these parts, compared in constant time (the issuer
    /// tries each waiting pairing's secret; the comparison must not tell how close a guess
    /// came). False for parts of the wrong length.
    public static func isValid(
        _ proof: [UInt8], secret: [UInt8], handshakeHash: [UInt8], device: PublicKey, person: PublicKey
    ) -> Bool {
        guard proof.count == proofBytes,
            let expected = try? self.proof(
                secret: secret, handshakeHash: handshakeHash, device: device, person: person)
        else { return false }
        return Blake2b.constantTimeEqual(proof, expected)
    }

    /// The 6-digit check code (leading zeros kept) both devices show for the connection
    /// with handshake hash `handshakeHash`.
    ///
    /// - Throws: `.badSecret` unless `secret` is 16 bytes, `.badHandshakeHash` unless
    ///   `handshakeHash` is 64.
    public static func checkCode(secret: [UInt8], handshakeHash: [UInt8]) throws(DeviceRecordError) -> String {
        let digest = try mac(secret: secret, checkContext + (try checked(handshakeHash)))
        // Four bytes fill a UInt32 exactly; `<<` drops high bits rather than trapping.
        let number = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let digits = String(number)
        return String(repeating: "0", count: max(0, checkCodeDigits - digits.count)) + digits
    }

    private static func checked(_ handshakeHash: [UInt8]) throws(DeviceRecordError) -> [UInt8] {
        guard handshakeHash.count == handshakeHashBytes else {
            throw .badHandshakeHash(length: handshakeHash.count)
        }
        return handshakeHash
    }

    private static func mac(secret: [UInt8], _ message: [UInt8]) throws(DeviceRecordError) -> [UInt8] {
        guard secret.count == PairingCode.secretBytes, let digest = Blake2b.mac256(key: secret, message) else {
            throw .badSecret(length: secret.count)
        }
        return digest
    }
}
