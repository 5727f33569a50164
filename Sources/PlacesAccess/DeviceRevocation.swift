import PlacesCrypto

/// A person key's statement that a device key is no longer one of its devices
/// (`Protocol/devices.md` §3). Permanent: it bars `device` for `person` whatever order
/// certificates and revocations arrive in.
///
/// ```
/// revocation (137 bytes) = 0x02 ‖ person (32) ‖ device (32) ‖ revokedMs (8) ‖ signature (64)
/// signature              = Ed25519-Sign(person, "places/device-revoke/1" ‖ 0x00 ‖ revocation[0 ..< 73])
/// ```
///
/// Like `DeviceCertificate`, a value of this type is always valid: it is made by
/// ``issue(device:revokedMs:by:)`` or read by ``init(decoding:)``, which does every check of
/// §3, the signature included.
public struct DeviceRevocation: Sendable, Hashable {
    /// The revoking person key.
    public let person: PublicKey
    /// The revoked device key (never the person key).
    public let device: PublicKey
    /// When the person key signed it, in ms since 1970 UTC (informative).
    public let revokedMs: Int64
    /// The person key's signature over ``signedBytes``.
    public let signature: Signature

    /// The exact length of a revocation.
    public static let size = 137
    /// The record type byte.
    static let type: UInt8 = 0x02
    /// What is signed in front of the body: ASCII `places/device-revoke/1` then a zero byte.
    static let context: [UInt8] = Array("places/device-revoke/1".utf8) + [0x00]
    /// The length of the body (everything before the signature).
    static let bodySize = 73

    private init(person: PublicKey, device: PublicKey, revokedMs: Int64, signature: Signature) {
        self.person = person
        self.device = device
        self.revokedMs = revokedMs
        self.signature = signature
    }

    /// Signs a revocation of `device` with the person's key.
    ///
    /// - Throws: `.timeOutOfRange` for `revokedMs` outside 0...253,402,300,799,999,
    ///   `.deviceIsPerson` when `device` is the person key (nothing revokes a person key),
    ///   `.invalidDeviceKey` when `device` is no valid Ed25519 key.
    public static func issue(
        device: PublicKey, revokedMs: Int64, by person: SigningKeyPair
    ) throws(DeviceRecordError) -> DeviceRevocation {
        let time = try DeviceRecordFields.checkedTime(revokedMs, record: .revocation)
        try DeviceRecordFields.checkKeys(person: person.publicKey, device: device, record: .revocation)
        let body = Self.body(person: person.publicKey, device: device, revokedMs: time)
        return DeviceRevocation(
            person: person.publicKey, device: device, revokedMs: revokedMs, signature: person.sign(context + body))
    }

    /// Reads a revocation and does every check of `devices.md` §3, in this order: exact
    /// length, type byte, time range, `device` ≠ `person`, both keys valid, and the
    /// signature.
    ///
    /// - Throws: the first failing check's `DeviceRecordError`.
    public init(decoding bytes: [UInt8]) throws(DeviceRecordError) {
        guard bytes.count == Self.size else { throw .wrongLength(.revocation, length: bytes.count) }
        // From here every index is inside the 137 bytes.
        guard bytes[0] == Self.type else { throw .wrongType(.revocation, type: bytes[0]) }
        let revokedMs = try DeviceRecordFields.time(bytes[65..<73], record: .revocation)
        let (person, device) = try DeviceRecordFields.keys(bytes, record: .revocation)
        let signature = try DeviceRecordFields.signature(
            bytes, bodySize: Self.bodySize, context: Self.context, person: person, record: .revocation)
        self.init(person: person, device: device, revokedMs: revokedMs, signature: signature)
    }

    /// Reads a revocation from its base64url text (183 characters), with the checks of
    /// ``init(decoding:)``.
    ///
    /// - Throws: `.notBase64URL` for text that is not canonical unpadded base64url,
    ///   `.wrongLength` for far too long text, else what ``init(decoding:)`` throws.
    public init(base64url text: String) throws(DeviceRecordError) {
        try self.init(decoding: DeviceRecordFields.base64URLBytes(text, record: .revocation))
    }

    /// The 137 bytes of the revocation.
    public var encoded: [UInt8] {
        Self.body(person: person, device: device, revokedMs: UInt64(clamping: revokedMs)) + signature.bytes
    }

    /// The revocation as unpadded base64url (its form in JSON and in op values).
    public var base64url: String { Base64URL.encode(encoded) }

    /// What the signature covers: the context string, a zero byte, and the 73 body bytes.
    public var signedBytes: [UInt8] {
        Self.context + Self.body(person: person, device: device, revokedMs: UInt64(clamping: revokedMs))
    }

    private static func body(person: PublicKey, device: PublicKey, revokedMs: UInt64) -> [UInt8] {
        var out: [UInt8] = [type]
        out.reserveCapacity(size)
        out += person.bytes
        out += device.bytes
        DeviceRecordFields.append(revokedMs, to: &out)
        return out
    }
}
