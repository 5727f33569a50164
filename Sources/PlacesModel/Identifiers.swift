/// A document's random 128-bit id (an itinerary, a person's library, a profile), written as
/// 32 lowercase hex characters in JSON and URLs.
public struct DocumentID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The 16 raw bytes.
    public let bytes: [UInt8]

    /// Wraps 16 raw bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses 32 hex characters; nil otherwise.
    public init?(hex: String) {
        guard hex.utf8.count == 32, let raw = HexCoding.decode(hex) else { return nil }
        self.bytes = raw
    }

    /// Hashes the 16 bytes as two words (the synthesized hash feeds `[UInt8]` to the hasher
    /// byte by byte, and documents key the dictionaries an append consults for every op).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { raw in
            hasher.combine(raw.loadUnaligned(as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    /// Compares the 16 bytes as two words (every init checks the length).
    public static func == (a: DocumentID, b: DocumentID) -> Bool {
        a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                    && x.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        == y.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            }
        }
    }

    /// The id as 32 lowercase hex characters.
    public var hex: String { HexCoding.encode(bytes) }
    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = DocumentID(hex: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a document id"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hex)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}

/// The id of an item inside a document (a place, a favorite, a stop), 32 hex characters.
/// The itinerary root entity uses the document's own id.
public typealias EntityID = String

/// An author: the hex of a 32-byte Ed25519 public key. Kept as a string in the pure model so
/// that it orders and compares without any crypto.
public typealias AuthorKey = String

/// Minimal hex coding for the pure model (PlacesCrypto has its own; the model has no deps).
public enum HexCoding {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes of lowercase or uppercase hex; nil when malformed.
    public static func decode(_ text: String) -> [UInt8]? {
        let u = Array(text.utf8)
        guard u.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }

    /// Whether `text` is exactly `count` bytes of hex.
    public static func isHex(_ text: String, bytes count: Int) -> Bool {
        text.utf8.count == count * 2 && decode(text) != nil
    }
}
