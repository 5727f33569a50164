import PlacesCrypto

/// A signed LAN announcement: "the holder of `key` accepts sync connections on `tcpPort`
/// at the address this datagram came from". Wire format: `Protocol/discovery.md`.
///
/// Layout (all integers big-endian):
///
///     0  magic "PLBC"      4
///     4  version 0x01      1
///     5  Ed25519 key      32
///    37  TCP port (u16)    2
///    39  timestamp ms     8   (Unix epoch, u64)
///    47  nonce (u64)       8
///    55  name length (u8)  1   (0...64)
///    56  name (UTF-8)      n
///  56+n  signature        64   (Ed25519 over bytes 0..<56+n)
public struct Beacon: Sendable, Equatable {
    /// The first four bytes of every beacon.
    public static let magic: [UInt8] = Array("PLBC".utf8)
    /// The only wire version this build writes and reads.
    public static let version: UInt8 = 0x01
    /// The longest name a beacon carries, in UTF-8 bytes.
    public static let maxNameBytes = 64
    /// Receivers drop any datagram longer than this without parsing it.
    public static let maxDatagramBytes = 200
    /// The size of a beacon with an empty name.
    public static let minEncodedBytes = headerBytes + signatureBytes

    static let headerBytes = 56
    static let signatureBytes = 64
    static let nameLengthOffset = 55

    /// The announcing daemon's identity key.
    public var key: PublicKey
    /// The TCP port it accepts sync connections on (never 0 on the wire).
    public var tcpPort: UInt16
    /// Its display name; `encoded(signedBy:)` cuts it to 64 UTF-8 bytes at a character boundary.
    public var name: String
    /// When it was sent, in milliseconds since the Unix epoch (receivers check freshness).
    public var timestampMs: UInt64
    /// A random value, so that receivers can drop copies of the same beacon.
    public var nonce: UInt64

    /// Creates a beacon.
    public init(key: PublicKey, tcpPort: UInt16, name: String, timestampMs: UInt64, nonce: UInt64) {
        self.key = key
        self.tcpPort = tcpPort
        self.name = name
        self.timestampMs = timestampMs
        self.nonce = nonce
    }

    /// The datagram: the fields above followed by `identity`'s signature over them.
    ///
    /// `identity` must hold `key`'s secret: a beacon signed by anyone else fails to decode.
    public func encoded(signedBy identity: SigningKeyPair) -> [UInt8] {
        let nameBytes = Self.truncatedUTF8(name, maxBytes: Self.maxNameBytes)
        var out = [UInt8]()
        out.reserveCapacity(Self.headerBytes + nameBytes.count + Self.signatureBytes)
        out += Self.magic
        out.append(Self.version)
        out += key.bytes
        Self.appendBigEndian(tcpPort, to: &out)
        Self.appendBigEndian(timestampMs, to: &out)
        Self.appendBigEndian(nonce, to: &out)
        out.append(UInt8(nameBytes.count))
        out += nameBytes
        out += identity.sign(out).bytes
        return out
    }

    /// Parses and checks a received datagram: layout, then signature, then freshness
    /// (`timestampMs` within `maxSkewMs` of `now`, both in Unix milliseconds). Checking the
    /// signature before freshness means a `stale`/`fromTheFuture` error names an authentic
    /// beacon from a peer whose clock is off.
    public static func decode(_ bytes: [UInt8], now: UInt64, maxSkewMs: UInt64 = 300_000) throws(DiscoveryError)
        -> Beacon
    {
        guard bytes.count <= maxDatagramBytes else {
            throw DiscoveryError(.malformed, "a beacon is at most \(maxDatagramBytes) bytes, got \(bytes.count)")
        }
        guard bytes.count >= magic.count + 1, bytes[0..<magic.count].elementsEqual(magic) else {
            throw DiscoveryError(.notABeacon, "the datagram does not start with the beacon magic PLBC")
        }
        guard bytes[4] == version else {
            throw DiscoveryError(
                .unsupportedVersion, "beacon version \(bytes[4]) is not supported (this build speaks \(version))")
        }
        guard bytes.count >= minEncodedBytes else {
            throw DiscoveryError(.malformed, "a beacon is at least \(minEncodedBytes) bytes, got \(bytes.count)")
        }
        let nameLength = Int(bytes[nameLengthOffset])
        guard nameLength <= maxNameBytes else {
            throw DiscoveryError(.malformed, "the beacon name is at most \(maxNameBytes) bytes, got \(nameLength)")
        }
        let signedLength = headerBytes + nameLength
        guard bytes.count == signedLength + signatureBytes else {
            throw DiscoveryError(
                .malformed,
                "a beacon with a \(nameLength)-byte name is \(signedLength + signatureBytes) bytes, got \(bytes.count)")
        }
        let tcpPort = UInt16(readBigEndian(bytes, at: 37, count: 2))
        guard tcpPort != 0 else {
            throw DiscoveryError(.malformed, "the beacon announces TCP port 0")
        }
        guard let name = String(validating: bytes[headerBytes..<signedLength], as: UTF8.self) else {
            throw DiscoveryError(.malformed, "the beacon name is not valid UTF-8")
        }
        // Lengths were checked above, so both initialisers succeed; `try?` keeps the error typed.
        guard let key = try? PublicKey(bytes: Array(bytes[5..<37])),
            let signature = try? Signature(bytes: Array(bytes[signedLength...]))
        else {
            throw DiscoveryError(.malformed, "the beacon key or signature has the wrong length")
        }
        let verified = bytes.withUnsafeBytes {
            key.verify(signature, for: UnsafeRawBufferPointer(rebasing: $0[..<signedLength]))
        }
        guard verified else {
            throw DiscoveryError(.badSignature, "the beacon signature does not verify for the key it carries")
        }
        let timestampMs = readBigEndian(bytes, at: 39, count: 8)
        if timestampMs > now, timestampMs - now > maxSkewMs {
            throw DiscoveryError(
                .fromTheFuture,
                "the beacon is \(timestampMs - now) ms ahead of this clock (at most \(maxSkewMs) ms allowed); check the clocks"
            )
        }
        if now > timestampMs, now - timestampMs > maxSkewMs {
            throw DiscoveryError(
                .stale,
                "the beacon is \(now - timestampMs) ms old (at most \(maxSkewMs) ms allowed): a replay or a slow clock")
        }
        return Beacon(
            key: key, tcpPort: tcpPort, name: name, timestampMs: timestampMs,
            nonce: readBigEndian(bytes, at: 47, count: 8))
    }

    /// The longest prefix of `text` made of whole characters that fits in `maxBytes`.
    static func truncatedUTF8(_ text: String, maxBytes: Int) -> [UInt8] {
        if text.utf8.count <= maxBytes { return Array(text.utf8) }
        var out = [UInt8]()
        for character in text {
            let utf8 = character.utf8
            if out.count + utf8.count > maxBytes { break }
            out += utf8
        }
        return out
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out += $0 }
    }

    private static func readBigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + count)] { value = value << 8 | UInt64(byte) }
        return value
    }
}
