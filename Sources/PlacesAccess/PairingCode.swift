import PlacesCrypto
import PlacesModel

/// The code a user carries from an admin device to a new one to pair it
/// (`Protocol/devices.md` §5.1): whose device it becomes, the one-time secret the joiner
/// proves it holds (`PairingProof`), until when to try, and where to find the issuer.
///
/// ```
/// payload = 0x01 ‖ person (32) ‖ secret (16) ‖ expiresMs (8) ‖ hintCount (1) ‖ hints
/// hint    = length (1, 1…64) ‖ UTF-8 "host:port"
/// code    = "PLD1" ‖ base32(payload ‖ BLAKE2b-256(payload)[0 ..< 4])
/// ```
///
/// A value of this type is always a code that ``init(parsing:)`` reads back: the
/// memberwise initializer checks what the parser checks. The 4-byte checksum is what turns
/// a mistyped code into "a typing error" instead of a wrong secret.
///
/// A hint is `host:port`: after the last colon a port of 1...65535 in decimal without
/// leading zeros; before it either a bracketed IPv6 address (`[fe80::1%en0]`: ASCII letters,
/// digits, `:`, `.`, `%`, `-`, `_`, at least one colon) or a host name or IPv4 address
/// without colons, brackets, `/ @ \ ? #`, spaces or control characters.
public struct PairingCode: Sendable, Hashable {
    /// The person key the new device will belong to.
    public let person: PublicKey
    /// The 16 random bytes only the code's holders know.
    public let secret: [UInt8]
    /// When the joiner stops trying, in ms since 1970 UTC (only the issuer's clock decides
    /// whether the pairing expired).
    public let expiresMs: Int64
    /// Where the issuer may be reached: at most 4 `host:port` strings of 1...64 UTF-8 bytes.
    public let hints: [String]

    /// The text every code starts with: the format and its version.
    public static let prefix = "PLD1"
    /// The length of a secret.
    public static let secretBytes = 16
    /// How long a pairing is valid (`devices.md` §7): 10 minutes.
    public static let lifetimeMs: Int64 = 600_000
    /// The most address hints a code carries.
    public static let maxHints = 4
    /// The longest hint, in UTF-8 bytes.
    public static let maxHintBytes = 64
    /// The longest text ``init(parsing:)`` looks at; the longest code is 520 characters, so
    /// this leaves room for any grouping and pasted whitespace.
    public static let maxTextBytes = 4096
    /// The payload's version byte.
    static let version: UInt8 = 0x01
    /// The checksum's length.
    static let checksumBytes = 4
    /// The shortest payload: no hints.
    static let minPayloadSize = 1 + 32 + 16 + 8 + 1
    /// The shortest payload with its checksum.
    static let minEncodedSize = minPayloadSize + checksumBytes
    /// The length of the shortest code's text (no hints): 104 characters.
    static let minTextLength = prefix.count + (minEncodedSize * 8 + 4) / 5

    /// Makes a code from its parts, checking them as ``init(parsing:)`` would.
    ///
    /// - Throws: `.invalidPersonKey`, `.badSecret` (not 16 bytes), `.timeOutOfRange`,
    ///   `.codeTooManyHints`, `.codeBadHintLength` or `.codeBadHint`.
    public init(person: PublicKey, secret: [UInt8], expiresMs: Int64, hints: [String]) throws(DeviceRecordError) {
        guard DeviceRecordFields.isValidKey(person) else { throw .invalidPersonKey(.pairingCode) }
        guard secret.count == Self.secretBytes else { throw .badSecret(length: secret.count) }
        _ = try DeviceRecordFields.checkedTime(expiresMs, record: .pairingCode)
        guard hints.count <= Self.maxHints else { throw .codeTooManyHints(hints.count) }
        for (index, hint) in hints.enumerated() {
            let bytes = Array(hint.utf8)
            guard (1...Self.maxHintBytes).contains(bytes.count) else {
                throw .codeBadHintLength(index: index, length: bytes.count)
            }
            guard Self.isHostPort(bytes[...]) else { throw .codeBadHint(index: index) }
        }
        self.person = person
        self.secret = secret
        self.expiresMs = expiresMs
        self.hints = hints
    }

    /// A new code for `person` with a fresh random secret, valid for ``lifetimeMs`` from
    /// `nowMs`.
    ///
    /// - Throws: what ``init(person:secret:expiresMs:hints:)`` throws.
    public static func make(person: PublicKey, nowMs: Int64, hints: [String]) throws(DeviceRecordError) -> PairingCode {
        let (expiresMs, overflow) = nowMs.addingReportingOverflow(lifetimeMs)
        return try PairingCode(
            person: person, secret: SecureRandom.bytes(secretBytes), expiresMs: overflow ? Int64.max : expiresMs,
            hints: hints)
    }

    /// The payload: the layout above, without the checksum.
    public var payload: [UInt8] {
        var out: [UInt8] = [Self.version]
        out += person.bytes
        out += secret
        DeviceRecordFields.append(UInt64(clamping: expiresMs), to: &out)
        out.append(UInt8(clamping: hints.count))
        for hint in hints {
            out.append(UInt8(clamping: hint.utf8.count))
            out += hint.utf8
        }
        return out
    }

    /// The code as shown: `PLD1` and the upper-case base32 of the payload and its checksum,
    /// without padding (104 characters without hints).
    public var text: String {
        let payload = payload
        return Self.prefix + Base32.encode(payload + Self.checksum(payload))
    }

    /// Reads a code as the user typed or pasted it: lower case is read as upper case;
    /// spaces, dashes, tabs and line breaks are skipped wherever they are.
    ///
    /// - Throws: in the order checked: `.codeTooLong`, `.codeWrongPrefix`,
    ///   `.codeUnsupportedVersion` (text), `.codeBadCharacter`, `.codeNotBase32`,
    ///   `.codeTooShort`, `.codeBadChecksum`, `.codeUnsupportedVersion` (payload),
    ///   `.invalidPersonKey`, `.timeOutOfRange`, `.codeTooManyHints`, then for each hint
    ///   `.codeLengthMismatch`, `.codeBadHintLength` or `.codeBadHint`, and last
    ///   `.codeTrailingBytes`.
    public init(parsing text: String) throws(DeviceRecordError) {
        let length = text.utf8.count
        guard length <= Self.maxTextBytes else { throw .codeTooLong(bytes: length) }
        let bytes = try Self.bytes(ofText: text)
        guard bytes.count >= Self.minEncodedSize else { throw .codeTooShort(bytes: bytes.count) }
        let payload = Array(bytes.dropLast(Self.checksumBytes))
        guard bytes.suffix(Self.checksumBytes).elementsEqual(Self.checksum(payload)) else { throw .codeBadChecksum }

        var reader = PayloadReader(payload)
        let version = try reader.byte(field: "version")
        guard version == Self.version else { throw .codeUnsupportedVersion(version) }
        guard let person = try? PublicKey(bytes: Array(try reader.read(32, field: "person key"))),
            DeviceRecordFields.isValidKey(person)
        else { throw .invalidPersonKey(.pairingCode) }
        let secret = Array(try reader.read(Self.secretBytes, field: "secret"))
        let expiresMs = try DeviceRecordFields.time(try reader.read(8, field: "expiry"), record: .pairingCode)
        let count = Int(try reader.byte(field: "hint count"))
        guard count <= Self.maxHints else { throw .codeTooManyHints(count) }
        var hints: [String] = []
        for index in 0..<count {
            let hintLength = Int(try reader.byte(field: "hint \(index + 1) length"))
            guard (1...Self.maxHintBytes).contains(hintLength) else {
                throw .codeBadHintLength(index: index, length: hintLength)
            }
            let raw = try reader.read(hintLength, field: "hint \(index + 1)")
            guard let hint = String(validating: raw, as: UTF8.self), Self.isHostPort(raw) else {
                throw .codeBadHint(index: index)
            }
            hints.append(hint)
        }
        guard reader.remaining == 0 else { throw .codeTrailingBytes(reader.remaining) }
        self.person = person
        self.secret = secret
        self.expiresMs = expiresMs
        self.hints = hints
    }

    /// The bytes a code's text encodes: prefix and version checked, ignored characters
    /// skipped, base32 decoded strictly.
    private static func bytes(ofText text: String) throws(DeviceRecordError) -> [UInt8] {
        var scalars: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case " ", "-", "\t", "\r", "\n": continue
            case "a"..."z": scalars.append(Unicode.Scalar(scalar.value - 0x20) ?? scalar)
            default: scalars.append(scalar)
            }
        }
        guard scalars.count >= 4, scalars[0] == "P", scalars[1] == "L", scalars[2] == "D" else {
            throw .codeWrongPrefix
        }
        switch scalars[3] {
        case "1": break
        case "0"..."9": throw .codeUnsupportedVersion(UInt8(truncatingIfNeeded: scalars[3].value - 0x30))
        default: throw .codeWrongPrefix
        }
        var values: [UInt8] = []
        values.reserveCapacity(scalars.count - 4)
        for scalar in scalars[4...] {
            guard scalar.isASCII, let value = Base32.value(of: UInt8(truncatingIfNeeded: scalar.value)) else {
                throw .codeBadCharacter(scalar)
            }
            values.append(value)
        }
        guard let bytes = Base32.decode(values: values) else { throw .codeNotBase32 }
        return bytes
    }

    /// Codes are equal when their payloads are: hints compare by their UTF-8 bytes, not by
    /// Unicode canonical equivalence.
    public static func == (lhs: PairingCode, rhs: PairingCode) -> Bool {
        lhs.person == rhs.person && lhs.secret == rhs.secret && lhs.expiresMs == rhs.expiresMs
            && lhs.hints.elementsEqual(rhs.hints) { $0.utf8.elementsEqual($1.utf8) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(person)
        hasher.combine(secret)
        hasher.combine(expiresMs)
        for hint in hints { hasher.combine(Array(hint.utf8)) }
    }

    /// The first 4 bytes of the payload's BLAKE2b-256.
    static func checksum(_ payload: [UInt8]) -> [UInt8] {
        Array(Blake2b.hash256(payload).prefix(checksumBytes))
    }

    /// Whether the UTF-8 bytes `hint` are `host:port` as the type's documentation says.
    static func isHostPort(_ hint: ArraySlice<UInt8>) -> Bool { HostPort.isValid(hint) }
}

/// Reads a pairing code's payload front to back, naming the field where it ends too early.
private struct PayloadReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    /// `field` is only evaluated on failure.
    mutating func read(_ count: Int, field: @autoclosure () -> String) throws(DeviceRecordError) -> ArraySlice<
        UInt8
    > {
        guard count <= remaining else { throw .codeLengthMismatch(field: field()) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte(field: @autoclosure () -> String) throws(DeviceRecordError) -> UInt8 {
        try read(1, field: field()).first ?? 0
    }
}
