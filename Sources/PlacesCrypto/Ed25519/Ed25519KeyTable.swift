import CSodium

/// A public key's multiples, computed once, for verifying many signatures by the same key.
///
/// `verify` answers exactly as libsodium 1.0.18's `crypto_sign_verify_detached` (which
/// `PublicKey.verify` calls) for every signature and message, about twice as fast once the
/// table is built. libsodium decompresses the key and runs a generic double-scalar
/// multiplication each time; here the key's point is decompressed once and its multiples
/// j·256^i·A (i < 32, 1 ≤ j ≤ 8) kept in affine form (30,720 bytes), like libsodium's own
/// table for the base point B (built here once, lazily). R' = [S]B − [h]A is then 128 mixed
/// additions and 4 doublings with S and h in signed radix 16, and one inversion to encode R'.
///
/// Why the answers agree (open.c's `_crypto_sign_ed25519_verify_detached`):
/// - the same checks, on the same bytes, in the same order of effect: S < L
///   (`sc25519_is_canonical`), R not one of `ge25519_has_small_order`'s encodings (bit 255
///   ignored), the key canonical (`ge25519_is_canonical`), not of small order, and
///   decompressible (the key's checks run once, in `init`);
/// - the same h: SHA-512(R ‖ A ‖ M) by libsodium, reduced mod L by libsodium;
/// - the same point: [S]B + [h](−A) is one element of the group however it is computed, as
///   long as the arithmetic is exact, and the formulas used are complete (Ed25519Point.swift);
/// - the same comparison: the canonical encoding of that point against the 32 bytes of R.
///   A non-canonical R (y ≥ p, or x = 0 with bit 255 set) never equals a canonical encoding,
///   in libsodium or here.
/// Verification handles public data only: it runs in variable time.
public final class Ed25519KeyTable: Sendable {
    /// The key's 32 bytes, hashed into h.
    private let keyBytes: [UInt8]
    /// j·256^i·A at 8i + j − 1.
    private let table: [NielsPoint]

    /// The same table for the base point B.
    private static let baseTable: [NielsPoint] = {
        // B's encoding: y = 4/5, x even.
        let w: UInt64 = 0x6666_6666_6666_6666
        guard let b = EdwardsPoint.decoding(0x6666_6666_6666_6658, w, w, w) else { return [] }
        return NielsPoint.table(for: b)
    }()

    /// The bytes a table takes: 256 points of three field elements of five words.
    public static let tableByteCount = 256 * MemoryLayout<NielsPoint>.stride

    /// nil when the key is not one libsodium would accept (not canonical, small order, not on
    /// the curve) — callers then fall back to `PublicKey.verify`, which rejects it.
    public init?(_ key: PublicKey) {
        guard (try? Sodium.ensureInitialized()) != nil else { return nil }
        let bytes = key.bytes
        guard bytes.count == 32, Ed25519Encoding.isCanonicalPoint(bytes),
            !Ed25519Encoding.hasSmallOrder(bytes)
        else { return nil }
        let w = Ed25519Encoding.words(bytes, from: 0)
        guard let point = EdwardsPoint.decoding(w.0, w.1, w.2, w.3), Self.baseTable.count == 256 else {
            return nil
        }
        keyBytes = bytes
        table = NielsPoint.table(for: point)
    }

    /// Exactly `key.verify(signature, for: message)` for every signature and message.
    public func verify(_ signature: Signature, for message: UnsafeRawBufferPointer) -> Bool {
        guard let point = point(signature, for: message) else { return false }
        return Self.matches(point.encodedWords(), signature)
    }

    /// Exactly `key.verify(signature, for: message)` for each item, its key's table given:
    /// the points are encoded with one inversion for all (`EdwardsPoint.encodedWords(_:)`).
    public static func verifyAll(_ items: [(table: Ed25519KeyTable, signature: Signature, message: [UInt8])])
        -> [Bool]
    {
        var points = [EdwardsPoint](), checked = [Int]()
        points.reserveCapacity(items.count)
        checked.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let point = item.message.withUnsafeBytes({ item.table.point(item.signature, for: $0) }) else {
                continue
            }
            points.append(point)
            checked.append(i)
        }
        var results = [Bool](repeating: false, count: items.count)
        for (encoded, i) in zip(EdwardsPoint.encodedWords(points), checked) {
            results[i] = matches(encoded, items[i].signature)
        }
        return results
    }

    /// Whether an encoded point is the signature's R (its first 32 bytes).
    private static func matches(_ encoded: (UInt64, UInt64, UInt64, UInt64), _ signature: Signature) -> Bool {
        let expected = Ed25519Encoding.words(signature.bytes, from: 0)
        return encoded.0 == expected.0 && encoded.1 == expected.1 && encoded.2 == expected.2
            && encoded.3 == expected.3
    }

    /// [S]B − [h]A with h = SHA-512(R ‖ A ‖ M) mod L, before it is encoded; nil when the
    /// signature fails libsodium's checks before the equation (S not canonical, R of small
    /// order).
    private func point(_ signature: Signature, for message: UnsafeRawBufferPointer) -> EdwardsPoint? {
        let sig = signature.bytes
        guard sig.count == 64, Ed25519Encoding.isCanonicalScalar(sig), !Ed25519Encoding.hasSmallOrder(sig)
        else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { scratch -> EdwardsPoint? in
            guard let base = scratch.baseAddress else { return nil }
            // h = SHA-512(R ‖ A ‖ M) mod L, into scratch[64..<96].
            var state = crypto_hash_sha512_state()
            crypto_hash_sha512_init(&state)
            sig.withUnsafeBufferPointer { _ = crypto_hash_sha512_update(&state, $0.baseAddress, 32) }
            keyBytes.withUnsafeBufferPointer { _ = crypto_hash_sha512_update(&state, $0.baseAddress, 32) }
            crypto_hash_sha512_update(
                &state, message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count))
            crypto_hash_sha512_final(&state, base)
            crypto_core_ed25519_scalar_reduce(base + 64, base)
            return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 128) { digits -> EdwardsPoint? in
                guard let digitBase = digits.baseAddress else { return nil }
                // S's digits at 0..<64, h's at 64..<128.
                sig.withUnsafeBufferPointer { s in
                    if let sBase = s.baseAddress { Ed25519Encoding.radix16(sBase + 32, into: digitBase) }
                }
                Ed25519Encoding.radix16(UnsafePointer(base + 64), into: digitBase + 64)
                return Self.combination(digitBase, table: table)
            }
        }
    }

    /// [s]B − [h]A's encoding for two scalars below 2^255 (32 bytes each): for tests.
    func combination(s: [UInt8], h: [UInt8]) -> [UInt8] {
        guard s.count == 32, h.count == 32 else { return [] }
        var digits = [Int8](repeating: 0, count: 128)
        digits.withUnsafeMutableBufferPointer { d in
            guard let base = d.baseAddress else { return }
            s.withUnsafeBufferPointer { if let p = $0.baseAddress { Ed25519Encoding.radix16(p, into: base) } }
            h.withUnsafeBufferPointer { if let p = $0.baseAddress { Ed25519Encoding.radix16(p, into: base + 64) } }
        }
        let w = digits.withUnsafeMutableBufferPointer { d in
            d.baseAddress.map { Self.combination($0, table: table).encodedWords() } ?? (0, 0, 0, 0)
        }
        return [w.0, w.1, w.2, w.3].flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    /// [S]B − [h]A = Σ_k 16^k (s_k B − h_k A) from the signed radix-16 digits
    /// of S (at 0..<64) and h (at 64..<128). The table holds multiples of 256^i = 16^(2i)
    /// only, so, as libsodium's `ge25519_scalarmult_base` does: the odd positions k = 2i + 1
    /// first (from row i), times 16 by four doublings, then the even ones k = 2i.
    private static func combination(_ digits: UnsafeMutablePointer<Int8>, table: [NielsPoint]) -> EdwardsPoint {
        baseTable.withUnsafeBufferPointer { bTable in
            table.withUnsafeBufferPointer { aTable in
                var acc = EdwardsPoint.identity
                @inline(__always) func step(_ k: Int) {
                    // Position k = 2i or 2i + 1 uses the multiples of 256^i.
                    let row = (k &>> 1) &* 8
                    let s = Int(digits[k])
                    if s > 0 {
                        acc = acc.adding(bTable[row &+ s &- 1])
                    } else if s < 0 {
                        acc = acc.subtracting(bTable[row &- s &- 1])
                    }
                    let h = Int(digits[64 &+ k])
                    if h > 0 {
                        acc = acc.subtracting(aTable[row &+ h &- 1])
                    } else if h < 0 {
                        acc = acc.adding(aTable[row &- h &- 1])
                    }
                }
                var k = 1
                while k < 64 {
                    step(k)
                    k &+= 2
                }
                acc = acc.doubled().doubled().doubled().doubled()
                k = 0
                while k < 64 {
                    step(k)
                    k &+= 2
                }
                return acc
            }
        }
    }
}

/// libsodium 1.0.18's checks on encodings (ed25519_ref10.c), byte for byte.
enum Ed25519Encoding {
    /// Four little-endian words from 32 bytes at `offset` (the caller guarantees the count).
    static func words(_ bytes: [UInt8], from offset: Int) -> (UInt64, UInt64, UInt64, UInt64) {
        bytes.withUnsafeBytes { b in
            (
                UInt64(littleEndian: b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                UInt64(littleEndian: b.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)),
                UInt64(littleEndian: b.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)),
                UInt64(littleEndian: b.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            )
        }
    }

    /// `sc25519_is_canonical` on bytes 32..<64 of a signature: S < L.
    static func isCanonicalScalar(_ sig: [UInt8]) -> Bool {
        // L = 2^252 + 27742317777372353535851937790883648493, little-endian words.
        let l: (UInt64, UInt64, UInt64, UInt64) = (
            0x5812_631A_5CF5_D3ED, 0x14DE_F9DE_A2F7_9CD6, 0, 0x1000_0000_0000_0000
        )
        let s = words(sig, from: 32)
        if s.3 != l.3 { return s.3 < l.3 }
        if s.2 != l.2 { return s.2 < l.2 }
        if s.1 != l.1 { return s.1 < l.1 }
        return s.0 < l.0
    }

    /// `ge25519_is_canonical`: false exactly when the 255 low bits are ≥ p
    /// (bytes 1...30 are 0xff, byte 31 masked is 0x7f, and byte 0 ≥ 0xed).
    static func isCanonicalPoint(_ s: [UInt8]) -> Bool {
        guard s.count >= 32 else { return false }
        if s[31] & 0x7F != 0x7F || s[0] < 0xED { return true }
        for i in 1...30 where s[i] != 0xFF { return true }
        return false
    }

    /// libsodium's blacklist: 0, 1, the two points of order 8, p − 1, p and p + 1.
    private static let smallOrderEncodings: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        [
            0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05,
        ],
        [
            0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A,
        ],
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]

    /// `ge25519_has_small_order` on bytes 0..<32: equal to a blacklisted encoding in bytes
    /// 0...30 and in byte 31's low seven bits (bit 255 is ignored).
    static func hasSmallOrder(_ s: [UInt8]) -> Bool {
        guard s.count >= 32 else { return false }
        for e in smallOrderEncodings {
            var same = s[31] & 0x7F == e[31]
            var i = 0
            while same && i < 31 {
                same = s[i] == e[i]
                i += 1
            }
            if same { return true }
        }
        return false
    }

    /// The 64 signed radix-16 digits of a 32-byte scalar below 2^255 (S < L and h < L are),
    /// each in −8...8, as in ref10's `ge25519_scalarmult_base`: Σ d_k 16^k = the scalar.
    static func radix16(_ a: UnsafePointer<UInt8>, into e: UnsafeMutablePointer<Int8>) {
        var i = 0
        while i < 32 {
            e[2 &* i] = Int8(truncatingIfNeeded: a[i] & 15)
            e[2 &* i &+ 1] = Int8(truncatingIfNeeded: a[i] &>> 4)
            i &+= 1
        }
        // Each digit is in 0...15 plus a carry of 0 or 1; the result in −8...7, the last
        // (a nibble ≤ 7 plus a carry) in 0...8.
        var carry: Int8 = 0
        i = 0
        while i < 63 {
            e[i] &+= carry
            carry = (e[i] &+ 8) &>> 4
            e[i] &-= carry &<< 4
            i &+= 1
        }
        e[63] &+= carry
    }
}
