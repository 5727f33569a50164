import PlacesCrypto
import PlacesModel

/// A signed access list (`Protocol/relay.md` §4.1): for one document and one key epoch, the
/// keys its owner lets push and pull the document at a blind relay — the member person keys
/// and their certified device keys. Members forward it like a key grant; a relay checks the
/// owner's signature and the session's key against it, and nothing else.
///
/// ```
/// record    = 0x01 ‖ doc (16) ‖ epoch (u32 BE) ‖ issuedMs (u64 BE) ‖ owner (32)
///             ‖ count (u16 BE, 1…512) ‖ key × count (32 each, strictly ascending) ‖ signature (64)
/// signature = Ed25519(owner, "places/relay-access/1" ‖ 0x00 ‖ every byte before it)
/// ```
///
/// A value of this type is always a record that ``init(decoding:)`` reads back.
public struct RelayAccess: Sendable, Hashable {
    /// Most keys one list names.
    public static let maxKeys = 512
    /// The shortest record (one key) and the longest (512 keys): 159 … 16,511 bytes.
    public static let minSize = 1 + 16 + 4 + 8 + 32 + 2 + 32 + 64
    public static let maxSize = 1 + 16 + 4 + 8 + 32 + 2 + 32 * maxKeys + 64
    static let version: UInt8 = 1
    static let context = Array("places/relay-access/1".utf8) + [0]

    public let doc: DocumentID
    public let epoch: UInt32
    /// When the owner signed it, in ms since 1970 UTC: of two lists of one epoch, the later counts.
    public let issuedMs: Int64
    /// The document's owner (the signer).
    public let owner: PublicKey
    /// The keys allowed, strictly ascending.
    public let keys: [PublicKey]
    /// The signed record.
    public let encoded: [UInt8]

    /// Signs a list as `owner` (keys are sorted and deduplicated; 1…512 of them).
    public static func issue(
        doc: DocumentID, epoch: UInt32, issuedMs: Int64, keys: Set<PublicKey>, by owner: SigningKeyPair
    ) throws(AccessError) -> RelayAccess {
        let sorted = keys.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        guard (1...maxKeys).contains(sorted.count) else {
            throw AccessError(.malformed, "an access list names 1 to \(maxKeys) keys")
        }
        guard issuedMs > 0 else { throw AccessError(.malformed, "an access list is signed after 1970") }
        var body: [UInt8] = [version] + doc.bytes
        for shift in stride(from: 24, through: 0, by: -8) {
            body.append(UInt8(truncatingIfNeeded: epoch >> UInt32(shift)))
        }
        // Cannot trap: `issuedMs > 0` was checked above, and a positive Int64 fits a UInt64.
        let issued = UInt64(issuedMs)
        for shift in stride(from: 56, through: 0, by: -8) {
            body.append(UInt8(truncatingIfNeeded: issued >> UInt64(shift)))
        }
        body += owner.publicKey.bytes
        body.append(UInt8(truncatingIfNeeded: sorted.count >> 8))
        body.append(UInt8(truncatingIfNeeded: sorted.count))
        for key in sorted { body += key }
        return try RelayAccess(decoding: body + owner.sign(context + body).bytes)
    }

    /// Reads a record: every field in bounds, keys valid and strictly ascending, no trailing
    /// byte, the owner's signature.
    public init(decoding bytes: [UInt8]) throws(AccessError) {
        guard (Self.minSize...Self.maxSize).contains(bytes.count), bytes[0] == Self.version else {
            throw AccessError(.malformed, "this is not a relay access list (wrong length or version)")
        }
        guard let doc = DocumentID(bytes: Array(bytes[1..<17])) else {
            throw AccessError(.malformed, "the access list names no document")
        }
        var epoch: UInt32 = 0
        // Four (eight) bytes into a UInt32 (UInt64): `<<` drops high bits and never traps.
        for byte in bytes[17..<21] { epoch = epoch << 8 | UInt32(byte) }
        var issued: UInt64 = 0
        for byte in bytes[21..<29] { issued = issued << 8 | UInt64(byte) }
        guard issued > 0, issued <= UInt64(Int64.max) else {
            throw AccessError(.malformed, "the access list's time is out of range")
        }
        guard let owner = try? PublicKey(bytes: Array(bytes[29..<61])) else {
            throw AccessError(.malformed, "the access list names no valid owner key")
        }
        // Cannot trap: two bytes widened to Int (0…65,535); the length was checked above.
        let count = Int(bytes[61]) << 8 | Int(bytes[62])
        guard (1...Self.maxKeys).contains(count), bytes.count == 63 + 32 * count + 64 else {
            throw AccessError(
                .malformed, "the access list's key count does not match its length (1 to \(Self.maxKeys))")
        }
        var keys = [PublicKey]()
        keys.reserveCapacity(count)
        var previous: ArraySlice<UInt8>?
        for index in 0..<count {
            let start = 63 + 32 * index
            let raw = bytes[start..<(start + 32)]
            if let previous, !previous.lexicographicallyPrecedes(raw) {
                throw AccessError(.malformed, "the access list's keys are not strictly ascending")
            }
            guard let key = try? PublicKey(bytes: Array(raw)) else {
                throw AccessError(.malformed, "the access list names an invalid key")
            }
            keys.append(key)
            previous = raw
        }
        let end = bytes.count - 64
        guard let signature = try? Signature(bytes: Array(bytes[end...])),
            owner.verify(signature, for: Self.context + Array(bytes[..<end]))
        else {
            throw AccessError(.badSignature, "the access list's signature is not its owner's: it was altered or forged")
        }
        self.doc = doc
        self.epoch = epoch
        self.issuedMs = Int64(issued)
        self.owner = owner
        self.keys = keys
        self.encoded = bytes
    }

    /// Whether `key` may push and pull the document at a relay under this list.
    public func allows(_ key: PublicKey) -> Bool { keys.contains(key) }

    /// Whether this list replaces `other` (same document): a later epoch, or the same epoch
    /// signed later.
    public func supersedes(_ other: RelayAccess) -> Bool {
        (epoch, issuedMs) > (other.epoch, other.issuedMs)
    }
}
