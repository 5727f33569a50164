/// Base32 (RFC 4648 §6) without padding, upper case, strict: every byte string has exactly
/// one text form (a length no byte string encodes to, or non-zero unused bits in the last
/// character, are refused). Pairing codes use it (`Protocol/devices.md` §5.1): people type
/// them, and base32 has one case and no look-alike digits 0, 1, 8 and 9.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The value of an upper-case ASCII character, or nil outside the alphabet.
    static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): char - UInt8(ascii: "2") + 26
        default: nil
        }
    }

    /// Encodes `bytes` as unpadded upper-case base32.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        // Cannot trap: `bits` stays in 0…12 (at most 4 left over plus 8), so `bits - 5` in the
        // loop (bits ≥ 5) and `5 - bits` after it (bits 1…4) are 0…7; a value masked with 31
        // is 0…31, a valid index of the 32-letter alphabet. Only bytes this daemon encodes
        // reach here, never a peer's text (decoding is `decode`, which checks every symbol).
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int(buffer >> UInt32(bits - 5) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes the 5-bit values of unpadded base32 characters (each 0...31); nil for a
    /// length no byte string encodes to (8n + 1, 3 or 6 characters) or non-zero unused bits
    /// in the last character.
    static func decode(values: [UInt8]) -> [UInt8]? {
        guard ![1, 3, 6].contains(values.count % 8) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 5 / 8)
        // `<<` on a UInt32 drops high bits rather than trapping; at most 12 bits are pending.
        var buffer: UInt32 = 0
        var bits = 0
        for value in values {
            buffer = buffer << 5 | UInt32(value & 31)
            bits += 5
            if bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
