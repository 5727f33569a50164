/// Random secrets (the URL's token, session ids, CSRF tokens) and their comparison.
enum Secret {
    /// 32 bytes from `random`, in unpadded base64url: 43 characters safe in a URL and a cookie.
    static func make(using random: inout some RandomNumberGenerator) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            withUnsafeBytes(of: random.next()) { bytes += $0 }
        }
        return base64URL(bytes)
    }

    /// Compares two secrets in time that depends only on their lengths, so a wrong guess
    /// does not tell how many leading characters were right.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// Unpadded base64url (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            // UInt8 → UInt32 widens (always fits); `& 63` keeps the index in 0…63, within the
            // 64-letter alphabet; `bytes.count - i` is positive since i < bytes.count.
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            let available = min(bytes.count - i, 3) + 1
            for k in 0..<available { out.append(alphabet[Int((triple >> (18 - 6 * UInt32(k))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
