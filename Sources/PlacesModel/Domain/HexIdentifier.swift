/// An id of fixed length, written as lowercase hex in ops, JSON and URLs. `ItemID`,
/// `MemberID` and `LinkID` are distinct types over it, so that a member's key cannot be
/// passed where a link's id is meant; each converts to and from the `EntityID` string ops
/// carry.
public protocol HexIdentifier: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// How many raw bytes the id has.
    static var byteCount: Int { get }
    /// The raw bytes (exactly `byteCount`).
    var bytes: [UInt8] { get }
    /// Wraps bytes already checked to be `byteCount` long.
    init(checkedBytes: [UInt8])
}

extension HexIdentifier {
    /// Wraps raw bytes; nil for another length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.init(checkedBytes: bytes)
    }

    /// Parses hex (either case); nil for anything else.
    public init?(hex: String) {
        guard hex.utf8.count == Self.byteCount * 2, let raw = HexCoding.decode(hex) else { return nil }
        self.init(checkedBytes: raw)
    }

    /// Reads an entity id as ops carry it: exactly `2 × byteCount` lowercase hex characters
    /// (`Protocol/op-format.md` §5); nil otherwise.
    public init?(entity: EntityID) {
        guard FieldRule.isLowerHex(entity, count: Self.byteCount * 2), let raw = HexCoding.decode(entity) else {
            return nil
        }
        self.init(checkedBytes: raw)
    }

    /// The id as lowercase hex.
    public var hex: String { HexCoding.encode(bytes) }
    /// The id as the entity id ops carry (lowercase hex).
    public var entityID: EntityID { hex }
    public var description: String { hex }

    public static func < (a: Self, b: Self) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = Self(hex: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a \(Self.byteCount)-byte hex id"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }
}

/// The id of a list or library item (a place, a favorite, a stop): 16 random bytes, 32 hex
/// characters.
public struct ItemID: HexIdentifier {
    public static let byteCount = 16
    public let bytes: [UInt8]
    public init(checkedBytes: [UInt8]) { self.bytes = checkedBytes }
}

/// A member of a shared itinerary, named by its Ed25519 public key (32 bytes, 64 hex
/// characters): the id of its `member` and `view` entities.
public struct MemberID: HexIdentifier {
    public static let byteCount = 32
    public let bytes: [UInt8]
    public init(checkedBytes: [UInt8]) { self.bytes = checkedBytes }
}

/// A share link, named by its capability token's id (16 bytes, 32 hex characters): the id
/// of its `link` entity.
public struct LinkID: HexIdentifier {
    public static let byteCount = 16
    public let bytes: [UInt8]
    public init(checkedBytes: [UInt8]) { self.bytes = checkedBytes }
}

extension DocumentID {
    /// The id of the document's root entity (an itinerary's or a profile's): the document
    /// id in hex.
    public var rootEntityID: EntityID { hex }
}
