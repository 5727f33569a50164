/// Why a device certificate, a device revocation, a pairing code or a pairing proof's input
/// was refused (`Protocol/devices.md` §2, §3, §5). Each case has a stable short ``code``
/// (kebab case, the `reason` of `vectors/devices/device-vectors.json`) and a ``message``
/// that tells a user what happened and what to do; peers' records reach users through
/// activity and the control API, pairing codes are typed by the user.
public enum DeviceRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which kind of record an error is about (named in the message).
    public enum Record: String, Sendable, Equatable {
        case certificate = "device certificate"
        case revocation = "device revocation"
        case pairingCode = "pairing code"
    }

    // Certificates and revocations.

    /// The record is not exactly its size (138 bytes for a certificate, 137 for a revocation).
    case wrongLength(Record, length: Int)
    /// The record's text is not unpadded base64url.
    case notBase64URL(Record)
    /// The record's first byte is not its type (0x01 certificate, 0x02 revocation).
    case wrongType(Record, type: UInt8)
    /// A certificate's flags set a bit other than bit 0 (admin).
    case unknownFlags(UInt8)
    /// A time (issued, revoked, expires) after 9999-12-31T23:59:59.999Z (or, given to a
    /// maker, before 1970: then its bit pattern).
    case timeOutOfRange(Record, milliseconds: UInt64)
    /// The record names the person key as its device.
    case deviceIsPerson(Record)
    /// The person key is not a valid Ed25519 key (no curve point, of small order, or not
    /// in the prime-order subgroup).
    case invalidPersonKey(Record)
    /// The device key is not a valid Ed25519 key.
    case invalidDeviceKey(Record)
    /// The signature is not the person key's over the record.
    case badSignature(Record)

    // Pairing codes as typed.

    /// The text is longer than any code could be written (`PairingCode.maxTextBytes`).
    case codeTooLong(bytes: Int)
    /// The text does not start with `PLD1` (nor `PLD` and another version digit).
    case codeWrongPrefix
    /// A code of another version: `PLD` then another digit, or a payload version byte other
    /// than 1.
    case codeUnsupportedVersion(UInt8)
    /// A character that no code contains (codes use A–Z and 2–7).
    case codeBadCharacter(Unicode.Scalar)
    /// A number of characters no byte string encodes to, or a last character with non-zero
    /// unused bits: a character was dropped, added or changed.
    case codeNotBase32
    /// Fewer bytes than the smallest code: part of it was not copied.
    case codeTooShort(bytes: Int)
    /// The checksum does not match: a typing error.
    case codeBadChecksum
    /// The payload ends inside a field that its hint count or a hint length announces.
    case codeLengthMismatch(field: String)
    /// More than 4 hints.
    case codeTooManyHints(Int)
    /// A hint of 0 or more than 64 bytes.
    case codeBadHintLength(index: Int, length: Int)
    /// A hint that is not UTF-8 `host:port` with a port of 1...65535.
    case codeBadHint(index: Int)
    /// Bytes after the last hint.
    case codeTrailingBytes(Int)

    // Making codes and proofs.

    /// A pairing secret that is not 16 bytes.
    case badSecret(length: Int)
    /// A Noise handshake hash that is not 64 bytes.
    case badHandshakeHash(length: Int)

    /// The stable short code of the case.
    public var code: String {
        switch self {
        case .wrongLength: "wrong-length"
        case .notBase64URL: "not-base64url"
        case .wrongType: "wrong-type"
        case .unknownFlags: "unknown-flags"
        case .timeOutOfRange: "time-out-of-range"
        case .deviceIsPerson: "device-is-person"
        case .invalidPersonKey: "invalid-person-key"
        case .invalidDeviceKey: "invalid-device-key"
        case .badSignature: "bad-signature"
        case .codeTooLong: "too-long"
        case .codeWrongPrefix: "wrong-prefix"
        case .codeUnsupportedVersion: "unsupported-version"
        case .codeBadCharacter: "bad-character"
        case .codeNotBase32: "not-base32"
        case .codeTooShort: "too-short"
        case .codeBadChecksum: "bad-checksum"
        case .codeLengthMismatch: "length-mismatch"
        case .codeTooManyHints: "too-many-hints"
        case .codeBadHintLength: "bad-hint-length"
        case .codeBadHint: "bad-hint"
        case .codeTrailingBytes: "trailing-bytes"
        case .badSecret: "bad-secret"
        case .badHandshakeHash: "bad-handshake-hash"
        }
    }

    /// What happened and what to do, for a user.
    public var message: String {
        /// A code that reads well but fails a rule the issuer's daemon would never break.
        let notFromPlaces = "the device that made it does not follow this version of the protocol"
        let copyAgain = "copy it again exactly as the other device shows it"
        switch self {
        case .wrongLength(let record, let length):
            let expected = record == .revocation ? DeviceRevocation.size : DeviceCertificate.size
            return "the \(record.rawValue) is \(length) bytes long, not \(expected): it was cut or padded on the way"
        case .notBase64URL(let record):
            return "the \(record.rawValue) is not unpadded base64url text"
        case .wrongType(let record, let type):
            let expected = record == .revocation ? DeviceRevocation.type : DeviceCertificate.type
            return "the \(record.rawValue) has type byte \(type), not \(expected): it is another kind of record"
        case .unknownFlags(let flags):
            return "the device certificate's flags byte is \(flags), which sets undefined bits "
                + "(only bit 0, admin, is defined): it was made by a newer or faulty program"
        case .timeOutOfRange(let record, let milliseconds):
            return "the \(record.rawValue)'s time (\(milliseconds) ms since 1970) "
                + "is not between 1970 and the end of 9999"
        case .deviceIsPerson(let record):
            return "the \(record.rawValue) names the person's own key as a device: a person key is never a device key"
        case .invalidPersonKey(let record):
            return "the \(record.rawValue)'s person key is not a valid Ed25519 public key"
                + (record == .pairingCode ? ": " + notFromPlaces : "")
        case .invalidDeviceKey(let record):
            return "the \(record.rawValue)'s device key is not a valid Ed25519 public key"
        case .badSignature(let record):
            return "the \(record.rawValue)'s signature is not its person's: it was changed or forged"
        case .codeTooLong(let bytes):
            return "that is \(bytes) bytes long, too long to be a pairing code: "
                + "paste only the code (it starts with PLD1)"
        case .codeWrongPrefix:
            return "that is not a Places pairing code: a pairing code starts with PLD1"
        case .codeUnsupportedVersion(let version):
            return "the pairing code has version \(version); this version of Places reads version 1 only: "
                + "update Places on this device, or make the code on a device with the same version"
        case .codeBadCharacter(let scalar):
            return "the pairing code has a typing error: it contains \"\(scalar)\", which codes never use "
                + "(they use the letters A–Z and the digits 2–7): \(copyAgain)"
        case .codeNotBase32:
            return "the pairing code has a typing error: a character is missing, extra or changed: \(copyAgain)"
        case .codeTooShort:
            return "the pairing code is too short: copy the whole code "
                + "(with PLD1, a code has at least \(PairingCode.minTextLength) characters)"
        case .codeBadChecksum:
            return "the code has a typing error (its check characters do not match): \(copyAgain)"
        case .codeLengthMismatch(let field):
            return "the pairing code ends inside its \(field), which its hint count or a hint length announces: "
                + notFromPlaces
        case .codeTooManyHints(let count):
            return "the pairing code has \(count) address hints; a code carries at most \(PairingCode.maxHints): "
                + notFromPlaces
        case .codeBadHintLength(let index, let length):
            return "the pairing code's hint \(index + 1) is \(length) bytes; "
                + "a hint is 1...\(PairingCode.maxHintBytes): " + notFromPlaces
        case .codeBadHint(let index):
            return "the pairing code's hint \(index + 1) is not host:port with a port of 1...65535: " + notFromPlaces
        case .codeTrailingBytes(let count):
            return "the pairing code has \(count) byte(s) after its last hint: " + notFromPlaces
        case .badSecret(let length):
            return "a pairing secret is \(PairingCode.secretBytes) bytes, not \(length)"
        case .badHandshakeHash(let length):
            return "a Noise handshake hash is \(PairingProof.handshakeHashBytes) bytes, not \(length)"
        }
    }

    public var description: String { "\(code): \(message)" }
}
