import PlacesCrypto
import PlacesModel

/// The role a capability token grants in a document.
public enum CapabilityRole: String, Sendable, Hashable, Codable {
    /// May read the document.
    case viewer
    /// May read and change the document.
    case editor

    /// The role's byte in the token layout (`Protocol/capabilities.md` §1).
    var wireValue: UInt8 {
        switch self {
        case .viewer: 0x01
        case .editor: 0x02
        }
    }

    init?(wireValue: UInt8) {
        switch wireValue {
        case 0x01: self = .viewer
        case 0x02: self = .editor
        default: return nil
        }
    }
}

/// A signed grant of a role in one document, carrying the document key, as put into a
/// share link. The byte layout (`PLCT` version 1) is specified in `Protocol/capabilities.md`.
///
/// A token is created with ``issue(doc:role:by:audience:notBeforeMs:expiresMs:uses:addressHints:epoch:documentKey:tokenID:)``
/// and read back with ``init(decoding:)``; ``check(nowMs:presenter:)`` tells whether it may be
/// redeemed now. Whether the issuer was allowed to grant the role, how often the token was
/// used and whether it was revoked depend on the document's history and are checked where
/// the `join` op is received.
///
/// Equality and hashing follow the encoded bytes: address hints compare by their UTF-8
/// bytes, not by Unicode canonical equivalence.
public struct CapabilityToken: Sendable, Hashable {
    /// The document the token grants access to.
    public var doc: DocumentID
    /// The role it grants.
    public var role: CapabilityRole
    /// The key that signed it.
    public var issuer: PublicKey
    /// When set, only this key may redeem the token.
    public var audience: PublicKey?
    /// The first moment the token may be redeemed, in milliseconds since 1970-01-01 UTC.
    public var notBeforeMs: Int64
    /// The moment from which the token may no longer be redeemed (exclusive end of its
    /// validity), in milliseconds since 1970 UTC; nil when it never expires.
    public var expiresMs: Int64?
    /// 16 random bytes naming the token (and the link that carries it).
    public var tokenID: [UInt8]
    /// How many times the token may be redeemed; nil for no limit, otherwise at least 1.
    public var uses: UInt32?
    /// Where the issuer's devices may be reached: at most 4 `host:port` or `[v6]:port`
    /// strings of 1...64 UTF-8 bytes each. Advisory only; not checked beyond UTF-8.
    public var addressHints: [String]
    /// The epoch of the document key the token carries.
    public var epoch: UInt32
    /// The 32-byte document key of ``epoch``.
    public var documentKey: [UInt8]
    /// The issuer's 64-byte Ed25519 signature over ``signedBytes``.
    public var signature: [UInt8]

    /// The token's link id: ``tokenID`` as 32 lowercase hex characters.
    public var id: String { HexCoding.encode(tokenID) }

    /// The format's magic bytes, ASCII `PLCT`.
    static let magic: [UInt8] = Array("PLCT".utf8)
    /// The only format version this code reads and writes.
    static let version: UInt8 = 0x01
    /// What is signed in front of the token body: ASCII `places/token/1` then a zero byte.
    static let signatureContext: [UInt8] = Array("places/token/1".utf8) + [0x00]
    /// The most address hints a token carries.
    static let maxHints = 4
    /// The longest address hint, in UTF-8 bytes.
    static let maxHintBytes = 64
    /// The shortest possible encoding: every optional field absent, no hints.
    static let minEncodedSize = 4 + 1 + 16 + 1 + 1 + 32 + 8 + 16 + 4 + 32 + 1 + 64
    /// The longest possible encoding: every optional field present, 4 hints of 64 bytes.
    static let maxEncodedSize = minEncodedSize + 32 + 8 + 4 + maxHints * (1 + maxHintBytes)

    static let flagAudience: UInt8 = 0x01
    static let flagExpiry: UInt8 = 0x02
    static let flagUses: UInt8 = 0x04
    static let knownFlags: UInt8 = flagAudience | flagExpiry | flagUses

    /// Creates a token from its fields without any check (used by `issue` and the decoder).
    init(
        doc: DocumentID, role: CapabilityRole, issuer: PublicKey, audience: PublicKey?, notBeforeMs: Int64,
        expiresMs: Int64?, tokenID: [UInt8], uses: UInt32?, addressHints: [String], epoch: UInt32,
        documentKey: [UInt8], signature: [UInt8]
    ) {
        self.doc = doc
        self.role = role
        self.issuer = issuer
        self.audience = audience
        self.notBeforeMs = notBeforeMs
        self.expiresMs = expiresMs
        self.tokenID = tokenID
        self.uses = uses
        self.addressHints = addressHints
        self.epoch = epoch
        self.documentKey = documentKey
        self.signature = signature
    }

    /// Creates and signs a token.
    ///
    /// - Parameters:
    ///   - doc: the document it grants access to.
    ///   - role: the role it grants.
    ///   - issuer: the signing identity; its public key becomes ``issuer``.
    ///   - audience: the only key that may redeem it, or nil for anyone holding the link.
    ///   - notBeforeMs: the first millisecond (since 1970 UTC) it may be redeemed; at least 0.
    ///   - expiresMs: the millisecond from which it may no longer be redeemed; after `notBeforeMs`.
    ///   - uses: how often it may be redeemed (at least 1), or nil for no limit.
    ///   - addressHints: at most 4 `host:port` strings of 1...64 UTF-8 bytes.
    ///   - epoch: the epoch of `documentKey`.
    ///   - documentKey: the 32-byte document key.
    ///   - tokenID: 16 bytes naming the token; fresh random bytes when nil.
    /// - Throws: `AccessError` `.malformed` when a field is outside the format's limits.
    public static func issue(
        doc: DocumentID, role: CapabilityRole, by issuer: SigningKeyPair, audience: PublicKey? = nil,
        notBeforeMs: Int64, expiresMs: Int64? = nil, uses: UInt32? = nil, addressHints: [String] = [],
        epoch: UInt32, documentKey: [UInt8], tokenID: [UInt8]? = nil
    ) throws(AccessError) -> CapabilityToken {
        var token = CapabilityToken(
            doc: doc, role: role, issuer: issuer.publicKey, audience: audience, notBeforeMs: notBeforeMs,
            expiresMs: expiresMs, tokenID: tokenID ?? SecureRandom.bytes(16), uses: uses,
            addressHints: addressHints, epoch: epoch, documentKey: documentKey, signature: [])
        try token.validateFields()
        token.signature = issuer.sign(token.signedBytes).bytes
        return token
    }

    /// Decodes a token from its binary form, checking the format only: magic, version, every
    /// length and range, and no trailing bytes. The signature is not verified; use
    /// ``check(nowMs:presenter:)`` or ``isSignatureValid``.
    ///
    /// - Throws: `AccessError` `.malformed`, with a message naming the offending field.
    public init(decoding bytes: [UInt8]) throws(AccessError) {
        guard bytes.count <= Self.maxEncodedSize else {
            throw AccessError(
                .malformed,
                "the token is \(bytes.count) bytes long, more than the \(Self.maxEncodedSize) bytes a token can have")
        }
        var reader = TokenReader(bytes)
        let magic = try reader.read(Self.magic.count, field: "magic")
        guard magic.elementsEqual(Self.magic) else {
            throw AccessError(.malformed, "the token's magic is not \"PLCT\": these bytes are not a Places token")
        }
        let version = try reader.byte(field: "version")
        guard version == Self.version else {
            throw AccessError(
                .malformed, "the token has format version \(version); this version of Places reads version 1 only")
        }
        guard let doc = DocumentID(bytes: Array(try reader.read(16, field: "doc"))) else {
            throw AccessError(.malformed, "the token's doc field is not 16 bytes")
        }
        let roleByte = try reader.byte(field: "role")
        guard let role = CapabilityRole(wireValue: roleByte) else {
            throw AccessError(
                .malformed, "the token's role byte is \(roleByte); only 1 (viewer) and 2 (editor) are defined")
        }
        let flags = try reader.byte(field: "flags")
        guard flags & ~Self.knownFlags == 0 else {
            throw AccessError(
                .malformed,
                "the token's flags byte is \(flags), which sets undefined bits (only bits 0, 1 and 2 are defined)")
        }
        let issuer = try Self.publicKey(try reader.read(32, field: "issuer"), field: "issuer")
        var audience: PublicKey?
        if flags & Self.flagAudience != 0 {
            audience = try Self.publicKey(try reader.read(32, field: "audience"), field: "audience")
        }
        let notBefore = try reader.uint64(field: "not_before")
        guard let notBeforeMs = Int64(exactly: notBefore) else {
            throw AccessError(.malformed, "the token's not_before (\(notBefore)) does not fit a signed 64-bit integer")
        }
        var expiresMs: Int64?
        if flags & Self.flagExpiry != 0 {
            let expires = try reader.uint64(field: "expires")
            guard let value = Int64(exactly: expires) else {
                throw AccessError(.malformed, "the token's expires (\(expires)) does not fit a signed 64-bit integer")
            }
            guard value > notBeforeMs else {
                throw AccessError(
                    .malformed, "the token's expires (\(value)) is not after its not_before (\(notBeforeMs))")
            }
            expiresMs = value
        }
        let tokenID = Array(try reader.read(16, field: "token_id"))
        var uses: UInt32?
        if flags & Self.flagUses != 0 {
            let value = try reader.uint32(field: "uses")
            guard value >= 1 else {
                throw AccessError(.malformed, "the token's uses field is 0; a limited token allows at least 1 use")
            }
            uses = value
        }
        let epoch = try reader.uint32(field: "epoch")
        let documentKey = Array(try reader.read(32, field: "doc_key"))
        let hintCount = Int(try reader.byte(field: "hint_count"))
        guard hintCount <= Self.maxHints else {
            throw AccessError(
                .malformed, "the token's hint_count is \(hintCount); a token carries at most \(Self.maxHints) hints")
        }
        var hints: [String] = []
        hints.reserveCapacity(hintCount)
        for index in 0..<hintCount {
            let length = Int(try reader.byte(field: "hints[\(index)] length"))
            guard (1...Self.maxHintBytes).contains(length) else {
                throw AccessError(
                    .malformed,
                    "the token's hints[\(index)] length is \(length); a hint is 1...\(Self.maxHintBytes) bytes")
            }
            let raw = try reader.read(length, field: "hints[\(index)]")
            guard let hint = String(validating: raw, as: UTF8.self) else {
                throw AccessError(.malformed, "the token's hints[\(index)] is not valid UTF-8")
            }
            hints.append(hint)
        }
        let signature = Array(try reader.read(64, field: "signature"))
        guard reader.remaining == 0 else {
            throw AccessError(
                .malformed, "the token has \(reader.remaining) trailing byte(s) after its signature")
        }
        self.init(
            doc: doc, role: role, issuer: issuer, audience: audience, notBeforeMs: notBeforeMs,
            expiresMs: expiresMs, tokenID: tokenID, uses: uses, addressHints: hints, epoch: epoch,
            documentKey: documentKey, signature: signature)
    }

    private static func publicKey(_ bytes: ArraySlice<UInt8>, field: String) throws(AccessError) -> PublicKey {
        do {
            return try PublicKey(bytes: Array(bytes))
        } catch {
            throw AccessError(.malformed, "the token's \(field) key is not 32 bytes")
        }
    }

    /// The token's binary form: the layout of `Protocol/capabilities.md` §1, signature last.
    ///
    /// Fields are written as they are; a token whose fields were changed to values outside
    /// the format's limits encodes to bytes that ``init(decoding:)`` refuses.
    public var encoded: [UInt8] {
        var out = body
        out.append(contentsOf: signature)
        return out
    }

    /// The exact message the signature covers: `places/token/1`, a zero byte, then every
    /// byte of ``encoded`` before the signature (magic through hints).
    public var signedBytes: [UInt8] {
        Self.signatureContext + body
    }

    /// The encoding without the signature.
    var body: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.maxEncodedSize)
        out.append(contentsOf: Self.magic)
        out.append(Self.version)
        out.append(contentsOf: doc.bytes)
        out.append(role.wireValue)
        var flags: UInt8 = 0
        if audience != nil { flags |= Self.flagAudience }
        if expiresMs != nil { flags |= Self.flagExpiry }
        if uses != nil { flags |= Self.flagUses }
        out.append(flags)
        out.append(contentsOf: issuer.bytes)
        if let audience { out.append(contentsOf: audience.bytes) }
        Self.append(UInt64(bitPattern: notBeforeMs), to: &out)
        if let expiresMs { Self.append(UInt64(bitPattern: expiresMs), to: &out) }
        out.append(contentsOf: tokenID)
        if let uses { Self.append(uses, to: &out) }
        Self.append(epoch, to: &out)
        out.append(contentsOf: documentKey)
        out.append(UInt8(clamping: addressHints.count))
        for hint in addressHints {
            out.append(UInt8(clamping: hint.utf8.count))
            out.append(contentsOf: hint.utf8)
        }
        return out
    }

    private static func append<T: FixedWidthInteger & UnsignedInteger>(_ value: T, to out: inout [UInt8]) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }

    /// Whether ``signature`` is the issuer's Ed25519 signature over ``signedBytes`` (and the
    /// fields are within the format's limits).
    public var isSignatureValid: Bool {
        guard (try? validateFields()) != nil, let signature = try? Signature(bytes: signature) else { return false }
        return issuer.verify(signature, for: signedBytes)
    }

    /// Checks that the token may be redeemed at `nowMs` by `presenter`: the fields are within
    /// the format's limits, the signature is the issuer's, `nowMs` lies in
    /// `[notBeforeMs, expiresMs)`, and, when both `presenter` and ``audience`` are given,
    /// they are the same key.
    ///
    /// - Throws: `AccessError` `.malformed`, `.badSignature`, `.notYetValid`, `.expired` or
    ///   `.wrongAudience`, in that order of checking.
    public func check(nowMs: Int64, presenter: PublicKey?) throws(AccessError) {
        try validateFields()
        guard isSignatureValid else {
            throw AccessError(
                .badSignature,
                "the token's signature is not its issuer's: the link was changed or forged; ask for a new link")
        }
        guard nowMs >= notBeforeMs else {
            throw AccessError(
                .notYetValid,
                "the link is valid only from \(notBeforeMs) ms since 1970 UTC (\(notBeforeMs - nowMs) ms from now): "
                    + "try again later or check this device's clock")
        }
        if let expiresMs, nowMs >= expiresMs {
            throw AccessError(
                .expired,
                "the link expired at \(expiresMs) ms since 1970 UTC: ask the person who shared it for a new one")
        }
        if let presenter, let audience, presenter != audience {
            throw AccessError(
                .wrongAudience,
                "the link was made for another device (\(audience.humanID)), not this one (\(presenter.humanID))")
        }
    }

    /// Throws `.malformed` when a field is outside the format's limits (possible only after
    /// changing the public fields of a decoded or issued token, or in `issue`'s arguments).
    func validateFields() throws(AccessError) {
        guard notBeforeMs >= 0 else {
            throw AccessError(.malformed, "the token's not_before (\(notBeforeMs)) is before 1970")
        }
        if let expiresMs, expiresMs <= notBeforeMs {
            throw AccessError(
                .malformed, "the token's expires (\(expiresMs)) is not after its not_before (\(notBeforeMs))")
        }
        guard tokenID.count == 16 else {
            throw AccessError(.malformed, "the token's token_id is \(tokenID.count) bytes, not 16")
        }
        if let uses, uses < 1 {
            throw AccessError(.malformed, "the token's uses field is 0; a limited token allows at least 1 use")
        }
        guard documentKey.count == 32 else {
            throw AccessError(.malformed, "the token's doc_key is \(documentKey.count) bytes, not 32")
        }
        guard addressHints.count <= Self.maxHints else {
            throw AccessError(
                .malformed, "the token has \(addressHints.count) hints; a token carries at most \(Self.maxHints)")
        }
        for (index, hint) in addressHints.enumerated() {
            let length = hint.utf8.count
            guard (1...Self.maxHintBytes).contains(length) else {
                throw AccessError(
                    .malformed, "the token's hints[\(index)] is \(length) bytes; a hint is 1...\(Self.maxHintBytes)")
            }
        }
        guard signature.isEmpty || signature.count == 64 else {
            throw AccessError(.malformed, "the token's signature is \(signature.count) bytes, not 64")
        }
    }

    public static func == (lhs: CapabilityToken, rhs: CapabilityToken) -> Bool {
        lhs.doc == rhs.doc && lhs.role == rhs.role && lhs.issuer == rhs.issuer && lhs.audience == rhs.audience
            && lhs.notBeforeMs == rhs.notBeforeMs && lhs.expiresMs == rhs.expiresMs && lhs.tokenID == rhs.tokenID
            && lhs.uses == rhs.uses && lhs.epoch == rhs.epoch && lhs.documentKey == rhs.documentKey
            && lhs.signature == rhs.signature
            && lhs.addressHints.elementsEqual(rhs.addressHints) { $0.utf8.elementsEqual($1.utf8) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tokenID)
        hasher.combine(signature)
        hasher.combine(doc)
        hasher.combine(addressHints.count)
        for hint in addressHints { hasher.combine(Array(hint.utf8)) }
    }
}

/// Reads the token layout front to back, naming the field when the input ends too early.
private struct TokenReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    /// `field` names the field in the error message; it is only evaluated on failure.
    mutating func read(_ count: Int, field: @autoclosure () -> String) throws(AccessError) -> ArraySlice<UInt8> {
        guard remaining >= count else {
            throw AccessError(
                .malformed,
                "the token is cut short in its \(field()) field: it needs \(count) byte(s) at offset \(offset), "
                    + "\(remaining) left (copy the whole link)")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte(field: @autoclosure () -> String) throws(AccessError) -> UInt8 {
        try read(1, field: field()).first ?? 0
    }

    mutating func uint32(field: String) throws(AccessError) -> UInt32 {
        try read(4, field: field).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64(field: String) throws(AccessError) -> UInt64 {
        try read(8, field: field).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
