/// Base64url without padding (RFC 4648 §5), strict: only the 64 url-safe characters, no
/// `=`, no whitespace, and the unused low bits of the last character must be zero, so every
/// byte string has exactly one text form.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each ASCII character, 0xff for characters outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (value, char) in alphabet.enumerated() { table[Int(char)] = UInt8(value) }
        return table
    }()

    /// Why a text is not canonical unpadded base64url.
    enum DecodingFailure: Error, Equatable {
        /// A character outside the alphabet, at this 0-based position (in UTF-8 bytes).
        case invalidCharacter(UInt8, position: Int)
        /// `=` padding, at this position.
        case padding(position: Int)
        /// A length of 4n+1 characters, which no byte string encodes to.
        case impossibleLength(Int)
        /// The last character carries non-zero unused bits.
        case nonCanonicalEnd
    }

    /// Encodes `bytes` as unpadded base64url.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let n = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
        case 2:
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes canonical unpadded base64url.
    static func decode(_ text: [UInt8]) -> Result<[UInt8], DecodingFailure> {
        decode(text[...])
    }

    /// Decodes canonical unpadded base64url (concrete and index-based: it runs on every
    /// pasted link, and in debug builds of the fuzz tests).
    static func decode(_ text: ArraySlice<UInt8>) -> Result<[UInt8], DecodingFailure> {
        var sextets = [UInt8](repeating: 0, count: text.count)
        var position = 0
        var cursor = text.startIndex
        while cursor < text.endIndex {
            let char = text[cursor]
            let value = values[Int(char)]
            guard value != 0xff else {
                return .failure(
                    char == UInt8(ascii: "=")
                        ? .padding(position: position) : .invalidCharacter(char, position: position))
            }
            sextets[position] = value
            position += 1
            cursor += 1
        }
        guard sextets.count % 4 != 1 else { return .failure(.impossibleLength(sextets.count)) }
        var out: [UInt8] = []
        out.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 4 <= sextets.count {
            let n =
                UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12 | UInt32(sextets[index + 2]) << 6
                | UInt32(sextets[index + 3])
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
            index += 4
        }
        switch sextets.count - index {
        case 2:
            guard sextets[index + 1] & 0x0f == 0 else { return .failure(.nonCanonicalEnd) }
            out.append(sextets[index] << 2 | sextets[index + 1] >> 4)
        case 3:
            guard sextets[index + 2] & 0x03 == 0 else { return .failure(.nonCanonicalEnd) }
            out.append(sextets[index] << 2 | sextets[index + 1] >> 4)
            out.append(sextets[index + 1] << 4 | sextets[index + 2] >> 2)
        default:
            break
        }
        return .success(out)
    }
}

extension CapabilityToken {
    /// The token as unpadded base64url text (the link fragment, and the `token` field of a
    /// `join` op).
    public var base64url: String { Base64URL.encode(encoded) }

    /// Reads a token from unpadded base64url text; `.malformed` when the text or the bytes
    /// are not a token.
    public init(base64url text: String) throws(AccessError) {
        switch Base64URL.decode(Array(text.utf8)) {
        case .success(let bytes): try self.init(decoding: bytes)
        case .failure: throw AccessError(.malformed, "the token is not unpadded base64url text")
        }
    }
}
