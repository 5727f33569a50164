import PlacesCrypto

/// A relay link (`Protocol/relay.md` §2): `places://relay/<token, unpadded base64url>`, made by
/// a blind relay (`places relay invite`) for one person. Whoever redeems it first over a
/// Noise session with the relay's key becomes a user of the relay (the very first one its
/// owner); the relay refuses it afterwards.
///
/// ```
/// token   = 0x01 ‖ relay key (32) ‖ id (16) ‖ expiresMs (u64 BE) ‖ count (1, 1…4)
///           ‖ address × count ‖ signature (64)
/// address = length (1, 1…64) ‖ UTF-8 "host:port" (as a pairing code's hint)
/// signature: the relay key's Ed25519 signature of "places/relaylink/1" ‖ 0x00 ‖ every byte before it
/// ```
///
/// A value of this type is always a link that ``init(token:)`` reads back.
public struct RelayLink: Sendable, Hashable {
    /// The text every link starts with.
    public static let prefix = "places://relay/"
    /// The bytes of an id.
    public static let idBytes = 16
    /// The most addresses a link carries, and the longest one in UTF-8 bytes.
    public static let maxAddresses = 4
    public static let maxAddressBytes = 64
    /// How long a link is valid by default: 7 days.
    public static let lifetimeMs: Int64 = 7 * 24 * 3_600_000
    /// The shortest token (one address of one byte cannot be `host:port`, but the bound is on bytes).
    static let minSize = 1 + 32 + idBytes + 8 + 1 + 2 + 64
    /// The longest token (382 bytes).
    public static let maxSize = 1 + 32 + idBytes + 8 + 1 + maxAddresses * (1 + maxAddressBytes) + 64
    static let version: UInt8 = 1
    static let context = Array("places/relaylink/1".utf8) + [0]

    /// The relay's key: the redeemer checks the Noise session is with it.
    public let relay: PublicKey
    /// The link's random id (what the relay remembers it by).
    public let id: [UInt8]
    /// Until when the relay takes it, in ms since 1970 UTC.
    public let expiresMs: Int64
    /// Where the relay listens, `host:port`.
    public let addresses: [String]
    /// The signed token.
    public let token: [UInt8]

    /// A new link of `relay` with a fresh random id.
    public static func issue(by relay: SigningKeyPair, addresses: [String], expiresMs: Int64) throws(AccessError)
        -> RelayLink
    {
        try issue(by: relay, id: SecureRandom.bytes(idBytes), addresses: addresses, expiresMs: expiresMs)
    }

    /// A link with a given id (test vectors); the parts are checked as the decoder checks them.
    public static func issue(by relay: SigningKeyPair, id: [UInt8], addresses: [String], expiresMs: Int64)
        throws(AccessError) -> RelayLink
    {
        guard id.count == idBytes else { throw AccessError(.malformed, "a relay link id is \(idBytes) bytes") }
        guard (1...maxAddresses).contains(addresses.count) else {
            throw AccessError(.malformed, "a relay link names 1 to \(maxAddresses) addresses")
        }
        guard expiresMs > 0 else { throw AccessError(.malformed, "a relay link's expiry is after 1970") }
        var body: [UInt8] = [version] + relay.publicKey.bytes + id
        let expiry = UInt64(expiresMs)
        for shift in stride(from: 56, through: 0, by: -8) {
            body.append(UInt8(truncatingIfNeeded: expiry >> UInt64(shift)))
        }
        body.append(UInt8(addresses.count))
        for address in addresses {
            let bytes = Array(address.utf8)
            guard (1...maxAddressBytes).contains(bytes.count), PairingCode.isHostPort(bytes[...]) else {
                throw AccessError(.malformed, "a relay address is host:port of 1 to \(maxAddressBytes) bytes")
            }
            body.append(UInt8(bytes.count))
            body += bytes
        }
        return try RelayLink(token: body + relay.sign(context + body).bytes)
    }

    /// Reads a token: every length and field in bounds, no trailing byte, the signature the
    /// relay key's (not the expiry: ``check(nowMs:)``).
    public init(token: [UInt8]) throws(AccessError) {
        guard (Self.minSize...Self.maxSize).contains(token.count), token[0] == Self.version else {
            throw AccessError(.malformed, "this is not a Places relay link (wrong length or version)")
        }
        guard let relay = try? PublicKey(bytes: Array(token[1..<33])) else {
            throw AccessError(.malformed, "the relay link names no valid key")
        }
        var expiry: UInt64 = 0
        // Eight bytes into a UInt64: `<<` drops high bits and never traps.
        for byte in token[49..<57] { expiry = expiry << 8 | UInt64(byte) }
        guard expiry > 0, expiry <= UInt64(Int64.max) else {
            throw AccessError(.malformed, "the relay link's expiry is out of range")
        }
        let count = Int(token[57])
        guard (1...Self.maxAddresses).contains(count) else {
            throw AccessError(.malformed, "a relay link names 1 to \(Self.maxAddresses) addresses")
        }
        var at = 58
        var addresses = [String]()
        let end = token.count - 64
        for _ in 0..<count {
            guard at < end else { throw AccessError(.malformed, "the relay link is cut short") }
            let length = Int(token[at])
            at += 1
            guard (1...Self.maxAddressBytes).contains(length), length <= end - at else {
                throw AccessError(.malformed, "a relay address is 1 to \(Self.maxAddressBytes) bytes")
            }
            let bytes = token[at..<(at + length)]
            guard Self.isHostPort(bytes), let text = String(validating: bytes, as: UTF8.self) else {
                throw AccessError(.malformed, "a relay address is not host:port")
            }
            addresses.append(text)
            at += length
        }
        guard at == end else { throw AccessError(.malformed, "the relay link has bytes after its addresses") }
        guard let signature = try? Signature(bytes: Array(token[end...])),
            relay.verify(signature, for: Self.context + Array(token[..<end]))
        else { throw AccessError(.badSignature, "the relay link's signature does not hold: it was altered or forged") }
        self.relay = relay
        self.id = Array(token[33..<49])
        self.expiresMs = Int64(expiry)
        self.addresses = addresses
        self.token = token
    }

    static func isHostPort(_ bytes: ArraySlice<UInt8>) -> Bool { PairingCode.isHostPort(bytes) }

    /// Parses the text of a link as pasted (surrounding whitespace ignored).
    public init(parsing text: String) throws(AccessError) {
        guard text.utf8.count <= 4_096 else { throw AccessError(.malformed, "that is too long to be a relay link") }
        let trimmed = Array(ShareLink.trimmingWhitespace(text).utf8)
        let prefix = Array(Self.prefix.utf8)
        guard trimmed.count <= 800, trimmed.count >= prefix.count,
            ShareLink.equalIgnoringASCIICase(trimmed[..<prefix.count], prefix)
        else { throw AccessError(.malformed, "a relay link starts with \(Self.prefix)") }
        guard case .success(let token) = Base64URL.decode(Array(trimmed[prefix.count...])) else {
            throw AccessError(.malformed, "the relay link's token is not base64url: copy the whole link")
        }
        try self.init(token: token)
    }

    /// The link as text.
    public var text: String { Self.prefix + Base64URL.encode(token) }

    /// Throws `.expired` once the link's time has passed.
    public func check(nowMs: Int64) throws(AccessError) {
        guard nowMs < expiresMs else { throw AccessError(.expired, "the relay link has expired: ask for a new one") }
    }
}
