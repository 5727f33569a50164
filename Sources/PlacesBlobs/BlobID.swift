/// The id of a blob: the BLAKE2b-256 of its plaintext bytes, so the same photo is stored
/// once and a received blob can be checked against the id it was asked for.
public struct BlobID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps a 32-byte digest; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Wraps a digest known to be 32 bytes (from `Blake2b.hash256`).
    init(digest: [UInt8]) {
        self.bytes = digest
    }

    /// Parses 64 lowercase hex characters, the form used in file names and on the wire;
    /// nil for anything else (uppercase too, so each blob has exactly one name).
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(32)
        var i = 0
        while i + 1 < utf8.count {
            guard let hi = BlobID.nibble(utf8[i]), let lo = BlobID.nibble(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        self.bytes = out
    }

    /// 64 lowercase hex characters.
    public var hex: String {
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in bytes {
            // A nibble (0…15) of a byte: always a valid index of the 16 digits.
            out.append(BlobID.digits[Int(b >> 4)])
            out.append(BlobID.digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    public static func < (lhs: BlobID, rhs: BlobID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
