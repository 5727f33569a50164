import CSodium

/// A signer whose key is a·B + j·T (T a point of order 8), and whose signatures libsodium
/// 1.0.18 accepts (it does not multiply by the cofactor): R = r·B + k·T with k ≡ −h·j
/// (mod 8), S = r + h·a. For checking `Ed25519KeyTable` against libsodium on keys with a
/// small-order part, in the tests and in the differential bench (`PLACES_BENCH_PROFILE=ed25519`).
public struct TorsionSigner: Sendable {
    /// The secret scalar a.
    public let a: [UInt8]
    /// The public key a·B + j·T.
    public let key: [UInt8]
    /// The key's torsion part, 0..<8.
    public let j: Int

    /// A point of order 8 (one of the encodings libsodium's `ge25519_has_small_order` lists).
    public static let torsion: [UInt8] = [
        0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
        0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05,
    ]

    public init(torsion j: Int = 0) {
        var a = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_random(&a)
        var aB = [UInt8](repeating: 0, count: 32)
        _ = crypto_scalarmult_ed25519_base_noclamp(&aB, a)
        self.a = a
        self.j = j
        self.key = TorsionSigner.plusTorsion(aB, j)
    }

    /// L, the order of B, little-endian.
    public static let groupOrder: [UInt8] = [
        0xED, 0xD3, 0xF5, 0x5C, 0x1A, 0x63, 0x12, 0x58, 0xD6, 0x9C, 0xF7, 0xA2, 0xDE, 0xF9, 0xDE, 0x14,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ]

    /// S + L in 32 bytes (a non-canonical S that libsodium refuses), for an S whose sum fits.
    public static func plusGroupOrder(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var carry = 0
        for (i, b) in s.enumerated() where i < 32 {
            let v = Int(b) + Int(groupOrder[i]) + carry
            out[i] = UInt8(v & 0xFF)
            carry = v >> 8
        }
        return out
    }

    /// p + k·T.
    public static func plusTorsion(_ p: [UInt8], _ k: Int) -> [UInt8] {
        var r = p
        for _ in 0..<k {
            var s = [UInt8](repeating: 0, count: 32)
            _ = crypto_core_ed25519_add(&s, r, torsion)
            r = s
        }
        return r
    }

    /// Each k fits with chance 1/8 (h changes with R): a fresh r when none of the 8 did.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        while true {
            if let sig = trySign(message) { return sig }
        }
    }

    func trySign(_ message: [UInt8]) -> [UInt8]? {
        var r = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_random(&r)
        var rB = [UInt8](repeating: 0, count: 32)
        _ = crypto_scalarmult_ed25519_base_noclamp(&rB, r)
        for k in 0..<8 {
            let bigR = TorsionSigner.plusTorsion(rB, k)
            var hash = [UInt8](repeating: 0, count: 64)
            let input = bigR + key + message
            crypto_hash_sha512(&hash, input, UInt64(input.count))
            var h = [UInt8](repeating: 0, count: 32)
            crypto_core_ed25519_scalar_reduce(&h, hash)
            guard (Int(h[0]) * j + k) % 8 == 0 else { continue }
            var ha = [UInt8](repeating: 0, count: 32)
            crypto_core_ed25519_scalar_mul(&ha, h, a)
            var s = [UInt8](repeating: 0, count: 32)
            crypto_core_ed25519_scalar_add(&s, r, ha)
            return bigR + s
        }
        return nil
    }
}
