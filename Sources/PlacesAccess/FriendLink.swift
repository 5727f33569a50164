import PlacesCrypto

/// A friend link (`Protocol/capabilities.md` §6): `places://friend/<token, unpadded base64url>`,
/// made by the person to befriend, for adding someone in person (a terminal QR code). Whoever
/// redeems it sends that person a friend request carrying the token, and their daemon accepts
/// it without a prompt while the link is valid.
///
/// The token is 121 bytes: version (1, = 1) ‖ the owner's Ed25519 key (32) ‖ expiry in
/// milliseconds since 1970 (u64 big-endian) ‖ a random nonce (16) ‖ the owner's signature (64)
/// over `"places/friendlink/1"` ‖ 0x00 ‖ the 57 bytes before it.
public struct FriendLink: Sendable, Hashable {
    public static let prefix = "places://friend/"
    static let size = 121
    static let context = Array("places/friendlink/1".utf8) + [0]

    /// Whose link it is.
    public let owner: PublicKey
    public let expiresMs: Int64
    /// The token as sent in a request (`DocOffer.join_proof` of the redeemer's outbox offer).
    public let token: [UInt8]

    /// A new link of `identity`, valid until `expiresMs`.
    public static func issue(by identity: SigningKeyPair, expiresMs: Int64) -> FriendLink {
        var body: [UInt8] = [1] + identity.publicKey.bytes
        // Clamped to 0 first: a non-negative Int64 always fits a UInt64 (no trap).
        let expiry = UInt64(max(0, expiresMs))
        for shift in stride(from: 56, through: 0, by: -8) {
            body.append(UInt8(truncatingIfNeeded: expiry >> UInt64(shift)))
        }
        body += SecureRandom.bytes(16)
        let signature = identity.sign(context + body)
        // The parts are all well formed: the token parses.
        return FriendLink(owner: identity.publicKey, expiresMs: Int64(expiry), token: body + signature.bytes)
    }

    private init(owner: PublicKey, expiresMs: Int64, token: [UInt8]) {
        self.owner = owner
        self.expiresMs = expiresMs
        self.token = token
    }

    /// Reads a token and checks its signature (not its expiry: `check(nowMs:)`).
    public init(token: [UInt8]) throws(AccessError) {
        guard token.count == Self.size, token[0] == 1 else {
            throw AccessError(.malformed, "this is not a Places friend link (wrong length or version)")
        }
        guard let owner = try? PublicKey(bytes: Array(token[1..<33])) else {
            throw AccessError(.malformed, "the friend link names no valid key")
        }
        var expiry: UInt64 = 0
        // Eight bytes into a UInt64: `<<` drops the high bits (it never traps) and a byte always
        // fits; `Int64(clamping:)` below takes the peer's value without trapping either.
        for byte in token[33..<41] { expiry = expiry << 8 | UInt64(byte) }
        guard let signature = try? Signature(bytes: Array(token[57..<121])),
            owner.verify(signature, for: Self.context + Array(token[0..<57]))
        else { throw AccessError(.badSignature, "the friend link's signature does not hold: it was altered or forged") }
        self.owner = owner
        self.expiresMs = Int64(clamping: expiry)
        self.token = token
    }

    /// Parses the text of a link as pasted (surrounding whitespace ignored).
    public init(parsing text: String) throws(AccessError) {
        guard text.utf8.count <= 4_096 else { throw AccessError(.malformed, "that is too long to be a friend link") }
        let trimmed = Array(ShareLink.trimmingWhitespace(text).utf8)
        let prefix = Array(Self.prefix.utf8)
        guard trimmed.count <= 400, trimmed.count >= prefix.count,
            ShareLink.equalIgnoringASCIICase(trimmed[..<prefix.count], prefix)
        else { throw AccessError(.malformed, "a friend link starts with \(Self.prefix)") }
        let encoded = Array(trimmed[prefix.count...])
        guard case .success(let token) = Base64URL.decode(encoded) else {
            throw AccessError(.malformed, "the friend link's token is not base64url: copy the whole link")
        }
        try self.init(token: token)
    }

    public var text: String { Self.prefix + Base64URL.encode(token) }

    /// Throws `.expired` once the link's time has passed.
    public func check(nowMs: Int64) throws(AccessError) {
        guard nowMs < expiresMs else { throw AccessError(.expired, "the friend link has expired: ask for a new one") }
    }
}
