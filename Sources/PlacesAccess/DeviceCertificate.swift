import PlacesCrypto

/// A person key's statement that a device key is one of its devices (`Protocol/devices.md`
/// §2): what makes a paired device's ops, sessions and grants count as its person's.
///
/// ```
/// cert (138 bytes) = 0x01 ‖ person (32) ‖ device (32) ‖ flags (1) ‖ issuedMs (8) ‖ signature (64)
/// signature        = Ed25519-Sign(person, "places/device-cert/1" ‖ 0x00 ‖ cert[0 ..< 74])
/// ```
///
/// A value of this type is always valid: ``issue(device:admin:issuedMs:by:)`` and
/// ``init(decoding:)`` are the only ways to make one, and the decoder does every check of
/// §2, the signature included. Whether the device was since revoked is the holder's
/// question (`DeviceRevocation`).
public struct DeviceCertificate: Sendable, Hashable {
    /// The certifying person key.
    public let person: PublicKey
    /// The certified device key (never the person key).
    public let device: PublicKey
    /// Whether the device may pair and revoke devices (flags bit 0).
    public let admin: Bool
    /// When the person key signed it, in ms since 1970 UTC (informative: shown as "added").
    public let issuedMs: Int64
    /// The person key's signature over ``signedBytes``.
    public let signature: Signature

    /// The exact length of a certificate.
    public static let size = 138
    /// The record type byte.
    static let type: UInt8 = 0x01
    /// What is signed in front of the body: ASCII `places/device-cert/1` then a zero byte.
    static let context: [UInt8] = Array("places/device-cert/1".utf8) + [0x00]
    /// Flags bit 0: an admin device.
    static let flagAdmin: UInt8 = 0x01
    /// The length of the body (everything before the signature).
    static let bodySize = 74

    private init(person: PublicKey, device: PublicKey, admin: Bool, issuedMs: Int64, signature: Signature) {
        self.person = person
        self.device = device
        self.admin = admin
        self.issuedMs = issuedMs
        self.signature = signature
    }

    /// Signs a certificate for `device` with the person's key.
    ///
    /// - Throws: `.timeOutOfRange` for `issuedMs` outside 0...253,402,300,799,999,
    ///   `.deviceIsPerson` when `device` is the person key, `.invalidDeviceKey` when
    ///   `device` is no valid Ed25519 key: what a reader would refuse.
    public static func issue(
        device: PublicKey, admin: Bool, issuedMs: Int64, by person: SigningKeyPair
    ) throws(DeviceRecordError) -> DeviceCertificate {
        let time = try DeviceRecordFields.checkedTime(issuedMs, record: .certificate)
        try DeviceRecordFields.checkKeys(person: person.publicKey, device: device, record: .certificate)
        let body = Self.body(person: person.publicKey, device: device, admin: admin, issuedMs: time)
        return DeviceCertificate(
            person: person.publicKey, device: device, admin: admin, issuedMs: issuedMs,
            signature: person.sign(context + body))
    }

    /// Reads a certificate and does every check of `devices.md` §2, in this order: exact
    /// length, type byte, flags, time range, `device` ≠ `person`, both keys valid (what
    /// `crypto_sign_ed25519_pk_to_curve25519` accepts), and the signature.
    ///
    /// - Throws: the first failing check's `DeviceRecordError`.
    public init(decoding bytes: [UInt8]) throws(DeviceRecordError) {
        guard bytes.count == Self.size else { throw .wrongLength(.certificate, length: bytes.count) }
        // From here every index is inside the 138 bytes.
        guard bytes[0] == Self.type else { throw .wrongType(.certificate, type: bytes[0]) }
        let flags = bytes[65]
        guard flags & ~Self.flagAdmin == 0 else { throw .unknownFlags(flags) }
        let issuedMs = try DeviceRecordFields.time(bytes[66..<74], record: .certificate)
        let (person, device) = try DeviceRecordFields.keys(bytes, record: .certificate)
        let signature = try DeviceRecordFields.signature(
            bytes, bodySize: Self.bodySize, context: Self.context, person: person, record: .certificate)
        self.init(
            person: person, device: device, admin: flags & Self.flagAdmin != 0, issuedMs: issuedMs,
            signature: signature)
    }

    /// Reads a certificate from its base64url text (184 characters), with the checks of
    /// ``init(decoding:)``.
    ///
    /// - Throws: `.notBase64URL` for text that is not canonical unpadded base64url,
    ///   `.wrongLength` for far too long text, else what ``init(decoding:)`` throws.
    public init(base64url text: String) throws(DeviceRecordError) {
        try self.init(decoding: DeviceRecordFields.base64URLBytes(text, record: .certificate))
    }

    /// The 138 bytes of the certificate.
    public var encoded: [UInt8] {
        Self.body(person: person, device: device, admin: admin, issuedMs: UInt64(clamping: issuedMs))
            + signature.bytes
    }

    /// The certificate as unpadded base64url (its form in JSON and in op values).
    public var base64url: String { Base64URL.encode(encoded) }

    /// What the signature covers: the context string, a zero byte, and the 74 body bytes.
    public var signedBytes: [UInt8] {
        Self.context + Self.body(person: person, device: device, admin: admin, issuedMs: UInt64(clamping: issuedMs))
    }

    private static func body(person: PublicKey, device: PublicKey, admin: Bool, issuedMs: UInt64) -> [UInt8] {
        var out: [UInt8] = [type]
        out.reserveCapacity(size)
        out += person.bytes
        out += device.bytes
        out.append(admin ? flagAdmin : 0)
        DeviceRecordFields.append(issuedMs, to: &out)
        return out
    }
}

/// The parts certificates and revocations share: their time field, their two keys and
/// their signature, each checked the same way (`devices.md` §2, §3).
enum DeviceRecordFields {
    /// The last millisecond of 9999-12-31 UTC, the largest time a record carries
    /// (`op-format.md` §4).
    static let maxTimeMs: Int64 = 253_402_300_799_999

    /// The longest text a base64url reader looks at: no record's text comes near it, and
    /// it bounds what a hostile text costs.
    static let maxTextBytes = 1024

    /// A time as written in a record, or `.timeOutOfRange` (a maker's input).
    static func checkedTime(_ milliseconds: Int64, record: DeviceRecordError.Record) throws(DeviceRecordError)
        -> UInt64
    {
        guard milliseconds <= maxTimeMs, let value = UInt64(exactly: milliseconds) else {
            throw .timeOutOfRange(record, milliseconds: UInt64(bitPattern: milliseconds))
        }
        return value
    }

    /// The big-endian u64 time in `bytes` (8 bytes), or `.timeOutOfRange` (a reader's input).
    static func time(_ bytes: ArraySlice<UInt8>, record: DeviceRecordError.Record) throws(DeviceRecordError)
        -> Int64
    {
        // `<<` on a UInt64 drops high bits rather than trapping; 8 bytes fill it exactly.
        let raw = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard let value = Int64(exactly: raw), value <= maxTimeMs else {
            throw .timeOutOfRange(record, milliseconds: raw)
        }
        return value
    }

    /// Appends `value` big-endian.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Whether libsodium turns `key` into an X25519 key: a curve point, not of small order,
    /// in the prime-order subgroup (`crypto_sign_ed25519_pk_to_curve25519`).
    static func isValidKey(_ key: PublicKey) -> Bool {
        (try? key.curve25519PublicKey()) != nil
    }

    /// The key checks a maker and a reader share, in the reader's order.
    static func checkKeys(person: PublicKey, device: PublicKey, record: DeviceRecordError.Record)
        throws(DeviceRecordError)
    {
        guard device != person else { throw .deviceIsPerson(record) }
        guard isValidKey(person) else { throw .invalidPersonKey(record) }
        guard isValidKey(device) else { throw .invalidDeviceKey(record) }
    }

    /// The person (bytes 1..<33) and device (33..<65) keys of a record of full length,
    /// checked.
    static func keys(_ bytes: [UInt8], record: DeviceRecordError.Record) throws(DeviceRecordError) -> (
        PublicKey, PublicKey
    ) {
        guard let person = try? PublicKey(bytes: Array(bytes[1..<33])) else { throw .invalidPersonKey(record) }
        guard let device = try? PublicKey(bytes: Array(bytes[33..<65])) else { throw .invalidDeviceKey(record) }
        try checkKeys(person: person, device: device, record: record)
        return (person, device)
    }

    /// The record's signature (its last 64 bytes), verified with `person` over `context` and
    /// the `bodySize` bytes before it.
    static func signature(
        _ bytes: [UInt8], bodySize: Int, context: [UInt8], person: PublicKey, record: DeviceRecordError.Record
    ) throws(DeviceRecordError) -> Signature {
        guard let signature = try? Signature(bytes: Array(bytes[bodySize...])),
            person.verify(signature, for: context + bytes[..<bodySize])
        else { throw .badSignature(record) }
        return signature
    }

    /// The bytes of a record's base64url text.
    static func base64URLBytes(_ text: String, record: DeviceRecordError.Record) throws(DeviceRecordError)
        -> [UInt8]
    {
        let utf8 = Array(text.utf8.prefix(maxTextBytes + 1))
        // Far too long: the length named is what that much text would decode to, at least.
        guard utf8.count <= maxTextBytes else { throw .wrongLength(record, length: text.utf8.count / 4 * 3) }
        switch Base64URL.decode(utf8) {
        case .success(let bytes): return bytes
        case .failure: throw .notBase64URL(record)
        }
    }
}
