import PlacesModel

/// The human form of a public id, modelled on Syncthing device ids: the 32-byte key in
/// RFC 4648 base32 (52 characters), split into four groups of 13 each followed by a Luhn
/// mod-32 check character, shown as eight dash-separated groups of seven:
/// `MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-NSGYCYL-TMRWGC4`.
///
/// Parsing is forgiving about case, dashes and spaces, and maps the look-alikes `0`→`O`,
/// `1`→`I`, `8`→`B`; a wrong check character or length is rejected, so a mistyped id
/// never names somebody else.
public enum HumanID {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Formats a public key as a human id.
    public static func encode(_ key: PublicKey) -> String {
        let b32 = base32(key.bytes)  // 52 chars
        var withChecks = [UInt8]()
        for g in 0..<4 {
            let group = Array(b32[(g * 13)..<(g * 13 + 13)])
            withChecks += group
            withChecks.append(luhn32(group))
        }
        var out = [UInt8]()
        for (i, c) in withChecks.enumerated() {
            if i > 0 && i % 7 == 0 { out.append(UInt8(ascii: "-")) }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses a human id (or 64 hex characters) into a public key.
    public static func decode(_ text: String) throws(CryptoError) -> PublicKey {
        let trimmed = text.trimmingWhitespace()
        if trimmed.utf8.count == 64, let raw = HexCoding.decode(trimmed) {
            return try PublicKey(bytes: raw)
        }
        var chars = [UInt8]()
        for c in trimmed.uppercased().utf8 where c != UInt8(ascii: "-") && c != UInt8(ascii: " ") {
            switch c {
            case UInt8(ascii: "0"): chars.append(UInt8(ascii: "O"))
            case UInt8(ascii: "1"): chars.append(UInt8(ascii: "I"))
            case UInt8(ascii: "8"): chars.append(UInt8(ascii: "B"))
            default: chars.append(c)
            }
        }
        guard chars.count == 56 else {
            throw CryptoError(.invalidID, "an id has 56 characters (8 groups of 7), got \(chars.count)")
        }
        guard chars.allSatisfy({ alphabet.contains($0) }) else {
            throw CryptoError(.invalidID, "an id uses only the letters A–Z and digits 2–7")
        }
        var b32 = [UInt8]()
        for g in 0..<4 {
            let group = Array(chars[(g * 14)..<(g * 14 + 13)])
            guard luhn32(group) == chars[g * 14 + 13] else {
                throw CryptoError(.invalidID, "check character \(g + 1) of the id does not match: it was mistyped")
            }
            b32 += group
        }
        guard let raw = unbase32(b32), raw.count == 32 else {
            throw CryptoError(.invalidID, "the id does not decode to a 32-byte key")
        }
        return try PublicKey(bytes: raw)
    }

    static func base32(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for b in bytes {
            buffer = (buffer << 8) | UInt32(b)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return out
    }

    static func unbase32(_ chars: [UInt8]) -> [UInt8]? {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for c in chars {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            buffer = (buffer << 5) | UInt32(v)
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        // The 4 padding bits of 32 bytes in 52 characters must be zero (canonical form).
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }

    /// Luhn mod N over the base32 alphabet (N = 32), as in Syncthing.
    static func luhn32(_ group: [UInt8]) -> UInt8 {
        var factor = 1
        var sum = 0
        let n = 32
        for c in group {
            let codepoint = alphabet.firstIndex(of: c) ?? 0
            var addend = factor * codepoint
            factor = factor == 2 ? 1 : 2
            addend = addend / n + addend % n
            sum += addend
        }
        let remainder = sum % n
        return alphabet[(n - remainder) % n]
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
