import CSodium
import Foundation
import Testing

@testable import PlacesCrypto

/// Edge cases for `Ed25519KeyTable` that `Ed25519KeyTableTests` does not reach: the field
/// arithmetic at its limb bounds against an independent reference, decompression at the
/// edges of y, keys libsodium cannot decode but a wrong zero test could, [s]B − [h]A for
/// edge scalars on mixed-order keys, and R moved by points of small order.
@Suite("Ed25519 key tables under attack")
struct Ed25519KeyTableAttackTests {
    typealias T = Ed25519KeyTableTests

    // MARK: - An independent reference for GF(2^255 − 19): plain little-endian words.

    enum Ref {
        static let p: [UInt64] = [0xFFFF_FFFF_FFFF_FFED, .max, .max, 0x7FFF_FFFF_FFFF_FFFF]

        static func add(_ n: inout [UInt64], _ v: UInt64, at i: Int) {
            var carry = v
            var k = i
            while carry != 0 {
                let (s, o) = n[k].addingReportingOverflow(carry)
                n[k] = s
                carry = o ? 1 : 0
                k += 1
            }
        }

        /// Σ l_i 2^(51 i), exactly.
        static func value(_ f: FieldElement) -> [UInt64] {
            var n = [UInt64](repeating: 0, count: 7)
            for (i, l) in [f.l0, f.l1, f.l2, f.l3, f.l4].enumerated() {
                let shift = 51 * i
                let (w, b) = (shift / 64, shift % 64)
                add(&n, l << b, at: w)
                if b != 0 { add(&n, l >> (64 - b), at: w + 1) }
            }
            return n
        }

        /// n mod p, as four words.
        static func mod(_ input: [UInt64]) -> [UInt64] {
            var n = input + [0, 0]
            while true {
                // hi = n >> 255
                var hi = [UInt64](repeating: 0, count: n.count)
                for i in 3..<n.count { hi[i - 3] = (n[i] >> 63) | (i + 1 < n.count ? n[i + 1] << 1 : 0) }
                if hi.allSatisfy({ $0 == 0 }) { break }
                n[3] &= 0x7FFF_FFFF_FFFF_FFFF
                for i in 4..<n.count { n[i] = 0 }
                for (i, h) in hi.enumerated() where h != 0 {
                    let product = h.multipliedFullWidth(by: 19)
                    add(&n, product.low, at: i)
                    add(&n, product.high, at: i + 1)
                }
            }
            var r = Array(n[0..<4])
            if r[3] == p[3] && r[2] == .max && r[1] == .max && r[0] >= p[0] { r = [r[0] - p[0], 0, 0, 0] }
            return r
        }

        static func mul(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
            var n = [UInt64](repeating: 0, count: 10)
            for i in 0..<4 {
                for j in 0..<4 {
                    let product = a[i].multipliedFullWidth(by: b[j])
                    add(&n, product.low, at: i + j)
                    add(&n, product.high, at: i + j + 1)
                }
            }
            return mod(n)
        }

        /// a − b for reduced a and b.
        static func sub(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
            // a + p − b, then reduce: a + p < 2^256 and ≥ b.
            var n = a + [0, 0]
            var carry: UInt64 = 0
            for i in 0..<4 {
                let (s1, o1) = n[i].addingReportingOverflow(p[i])
                let (s2, o2) = s1.addingReportingOverflow(carry)
                n[i] = s2
                carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
            }
            n[4] = carry
            var borrow: UInt64 = 0
            for i in 0..<5 {
                let (d1, o1) = n[i].subtractingReportingOverflow(i < 4 ? b[i] : 0)
                let (d2, o2) = d1.subtractingReportingOverflow(borrow)
                n[i] = d2
                borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
            }
            return mod(n)
        }
    }

    static func words(_ f: FieldElement) -> [UInt64] {
        let w = f.canonicalWords()
        return [w.0, w.1, w.2, w.3]
    }

    static func bytes(_ w: [UInt64]) -> [UInt8] {
        w.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    static func fromWords(_ w: [UInt64]) -> FieldElement { .fromWords(w[0], w[1], w[2], w[3]) }

    /// Limb values at the edges of every bound in Ed25519Field.swift.
    static let edgeLimbs: [UInt64] = [
        0, 1, 18, 19, (1 << 51) - 19, (1 << 51) - 1, 1 << 51, (1 << 51) + (1 << 23) - 1, (1 << 53) - 76,
        (1 << 54) - 1, (1 << 56) - 1,
    ]

    static func randomElement(limbBits: Int) -> FieldElement {
        let m: UInt64 = (1 << UInt64(limbBits)) - 1
        return FieldElement(
            UInt64.random(in: 0...m), UInt64.random(in: 0...m), UInt64.random(in: 0...m), UInt64.random(in: 0...m),
            UInt64.random(in: 0...m))
    }

    // MARK: - The field

    @Test("reduction, encoding, isZero and isNegative at every edge limb pattern and near p")
    func reductionEdges() {
        var elements: [FieldElement] = []
        // Every limb from a short edge list: 6^5 patterns (limbs < 2^56, what `sub` may return).
        let short: [UInt64] = [0, (1 << 51) - 19, (1 << 51) - 1, 1 << 51, (1 << 51) + (1 << 23) - 1, (1 << 56) - 1]
        for a in short {
            for b in short {
                for c in short {
                    for d in short {
                        for e in short { elements.append(FieldElement(a, b, c, d, e)) }
                    }
                }
            }
        }
        // 2^255 − 20 … 2^255 − 1 (p − 1 … p + 18), 0 … 20, and 2p, 2p ± 1 written in limbs.
        for low in UInt64(0xFFFF_FFFF_FFFF_FFEC)...UInt64.max {
            elements.append(Self.fromWords([low, .max, .max, 0x7FFF_FFFF_FFFF_FFFF]))
        }
        for low in UInt64(0)...20 { elements.append(Self.fromWords([low, 0, 0, 0])) }
        let m = FieldElement.mask
        for delta: UInt64 in [0, 1] {
            elements.append(FieldElement(2 * (m - 18) + delta, 2 * m, 2 * m, 2 * m, 2 * m))
            elements.append(FieldElement(2 * (m - 18) - delta, 2 * m, 2 * m, 2 * m, 2 * m))
        }
        for f in elements {
            let expected = Ref.mod(Ref.value(f))
            #expect(Self.words(f) == expected, "limbs \(f)")
            #expect(f.isZero == expected.allSatisfy { $0 == 0 }, "limbs \(f)")
            #expect(f.isNegative == (expected[0] & 1 == 1), "limbs \(f)")
            let r = f.reduced()
            #expect(r.l0 < 1 << 51 && r.l1 < 1 << 51 && r.l2 < 1 << 51 && r.l3 < 1 << 51 && r.l4 < 1 << 51)
        }
    }

    @Test("products, squares and differences at their limb bounds against the reference")
    func arithmeticEdges() {
        var operands: [FieldElement] = Self.edgeLimbs.map { FieldElement($0, $0, $0, $0, $0) }
        for i in 0..<5 {
            var limbs = [UInt64](repeating: 0, count: 5)
            limbs[i] = (1 << 56) - 1
            operands.append(FieldElement(limbs[0], limbs[1], limbs[2], limbs[3], limbs[4]))
        }
        for _ in 0..<40 { operands.append(Self.randomElement(limbBits: 56)) }
        for f in operands {
            let fv = Ref.mod(Ref.value(f))
            #expect(Self.words(f.squared()) == Ref.mul(fv, fv), "square \(f)")
            for g in operands {
                let gv = Ref.mod(Ref.value(g))
                #expect(Self.words(f * g) == Ref.mul(fv, gv), "\(f) × \(g)")
            }
        }
        // f − g: f's limbs < 2^55, g's at most 4p's (2^53 − 76, 2^53 − 4, …).
        let maxG = FieldElement((1 << 53) - 76, (1 << 53) - 4, (1 << 53) - 4, (1 << 53) - 4, (1 << 53) - 4)
        var minuends = [
            FieldElement.zero, FieldElement((1 << 55) - 1, (1 << 55) - 1, (1 << 55) - 1, (1 << 55) - 1, (1 << 55) - 1),
        ]
        var subtrahends = [FieldElement.zero, maxG]
        for _ in 0..<20 {
            minuends.append(Self.randomElement(limbBits: 55))
            subtrahends.append(Self.randomElement(limbBits: 52))
        }
        for f in minuends {
            for g in subtrahends {
                let expected = Ref.sub(Ref.mod(Ref.value(f)), Ref.mod(Ref.value(g)))
                #expect(Self.words(f - g) == expected, "\(f) − \(g)")
            }
        }
        #expect(Self.words(-maxG) == Ref.sub([0, 0, 0, 0], Ref.mod(Ref.value(maxG))))
    }

    @Test("inversion and the (p − 5)/8 power at the edges")
    func powerChains() {
        #expect(FieldElement.zero.inverse().isZero)
        let pMinus1 = [UInt64(0xFFFF_FFFF_FFFF_FFEC), .max, .max, 0x7FFF_FFFF_FFFF_FFFF]
        var values: [FieldElement] = [
            .one, Self.fromWords([2, 0, 0, 0]), Self.fromWords(pMinus1), FieldElement.sqrtMinusOne, .d,
            FieldElement((1 << 56) - 1, (1 << 56) - 1, (1 << 56) - 1, (1 << 56) - 1, (1 << 56) - 1),
        ]
        for _ in 0..<4 { values.append(Self.randomElement(limbBits: 51)) }
        for f in values where !f.isZero {
            #expect(Self.words(f * f.inverse()) == [1, 0, 0, 0], "\(f)")
            // (f^((p − 5)/8))^8 · f^5 = f^p = f.
            let t = f.pow22523().squared(times: 3)
            let f5 = f.squared().squared() * f
            #expect(Self.words(t * f5) == Self.words(f), "\(f)")
        }
        #expect(Self.words(FieldElement.sqrtMinusOne.squared()) == pMinus1)
    }

    // MARK: - Keys

    /// libsodium's checks on a key in open.c: canonical, not blacklisted, decodable.
    static func sodiumAcceptsKey(_ key: [UInt8]) -> Bool {
        Ed25519Encoding.isCanonicalPoint(key) && !T.smallOrder.contains(Array(key[0..<31]) + [key[31] & 0x7F])
            && T.decodes(key)
    }

    /// Whether libsodium rejects every signature with this key (a few tries).
    static func sodiumRejectsAll(_ key: [UInt8]) throws -> Bool {
        let signer = T.Signer()
        let message = Array("m".utf8)
        for sig in [signer.sign(message), T.smallOrder[2] + [UInt8](repeating: 0, count: 32)] {
            if try PublicKey(bytes: key).verify(Signature(bytes: sig), for: message) { return false }
        }
        return true
    }

    @Test("keys whose y is not a point's but passed decoding's zero test when u's limbs went past 4p's")
    func offCurveKeysHaveNoTable() throws {
        // y² − 1 over d y² + 1 is not a square for these y (±y), so libsodium rejects the key;
        // v·x² − u computed with u = y² − 1 unreduced (u's limb 0 up to 2^53 + 2^51 − 77, past
        // 4p's 2^53 − 76) wrapped limbs below zero, and the wrapped value happened to be 0 mod p.
        // Found by solving u(β − 1) ≡ −Σ ε_i 2^(64 + 51 i) (β = ±i, ε_i ∈ {−1, 0, 1}).
        for y in [
            "92c4671d578bacce5f466db9e51aeb221f91e36a4961e32c31e5aad2cc0d5d39",
            "5b3b98e2a8745331a0b992461ae514dde06e1c95b69e1cd3ce1a552d33f2a246",
        ] {
            for sign: UInt8 in [0, 0x80] {
                var key = T.hex(y)
                key[31] |= sign
                #expect(!T.decodes(key))
                #expect(try Self.sodiumRejectsAll(key))
                let w = Ed25519Encoding.words(key, from: 0)
                #expect(EdwardsPoint.decoding(w.0, w.1, w.2, w.3) == nil, "key \(key)")
                #expect(Ed25519KeyTable(try PublicKey(bytes: key)) == nil, "key \(key)")
            }
        }
    }

    @Test("decompression at the edges of y: a table exactly when libsodium takes the key, and its encoding")
    func decompressionEdges() throws {
        var ys: [[UInt64]] = []
        for low in UInt64(0)...20 { ys.append([low, 0, 0, 0]) }
        for low in UInt64(0xFFFF_FFFF_FFFF_FFD0)...UInt64.max { ys.append([low, .max, .max, 0x7FFF_FFFF_FFFF_FFFF]) }
        // Limb boundaries: 2^51 ± 1, 2^102, 2^204, 2^254.
        ys.append([(1 << 51) - 1, 0, 0, 0])
        ys.append([1 << 51, 0, 0, 0])
        ys.append([(1 << 51) + 1, 0, 0, 0])
        ys.append([0, 1 << 38, 0, 0])
        ys.append([0, 0, 0, 1 << 12])
        ys.append([0, 0, 0, 1 << 62])
        ys.append([.max, .max, .max, 0x3FFF_FFFF_FFFF_FFFF])
        var tables = 0
        for y in ys {
            for sign: UInt64 in [0, 1 << 63] {
                let key = Self.bytes([y[0], y[1], y[2], y[3] | sign])
                let expected = Self.sodiumAcceptsKey(key)
                let table = Ed25519KeyTable(try PublicKey(bytes: key))
                #expect((table != nil) == expected, "key \(key)")
                if !expected { #expect(try Self.sodiumRejectsAll(key), "key \(key)") }
                if table != nil {
                    tables += 1
                    let w = Ed25519Encoding.words(key, from: 0)
                    let point = try #require(EdwardsPoint.decoding(w.0, w.1, w.2, w.3))
                    let e = point.encodedWords()
                    #expect([e.0, e.1, e.2, e.3] == [w.0, w.1, w.2, w.3], "key \(key)")
                }
            }
        }
        #expect(tables > 10)
    }

    // MARK: - Scalars

    /// [n]P by libsodium for n < 2^255 (`crypto_scalarmult_ed25519_noclamp` refuses P outside
    /// the prime-order subgroup): [n a mod L]B + [n j mod 8]T for P = aB + jT.
    static func multiple(_ n: [UInt8], of signer: T.Signer) -> [UInt8] {
        var wide = n + [UInt8](repeating: 0, count: 32)
        var reduced = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_reduce(&reduced, &wide)
        var na = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_mul(&na, reduced, signer.a)
        return T.Signer.plusTorsion(baseMultiple(na), (Int(n[0] & 7) * signer.j) % 8)
    }

    static let identity = [1] + [UInt8](repeating: 0, count: 31)

    static func baseMultiple(_ n: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        return crypto_scalarmult_ed25519_base_noclamp(&out, n) == 0 ? out : identity
    }

    static func scalar(_ words: [UInt64]) -> [UInt8] { bytes(words) }

    @Test("[s]B − [h]A for edge scalars (0, L − 1, L, top radix-16 digit 8, 2^255 − 1) on mixed-order keys")
    func combinationEdges() throws {
        let l: [UInt64] = [0x5812_631A_5CF5_D3ED, 0x14DE_F9DE_A2F7_9CD6, 0, 0x1000_0000_0000_0000]
        var scalars: [[UInt8]] = [
            Self.scalar([0, 0, 0, 0]), Self.scalar([1, 0, 0, 0]), Self.scalar([8, 0, 0, 0]),
            Self.scalar([l[0] - 1, l[1], l[2], l[3]]), Self.scalar(l), Self.scalar([l[0] + 1, l[1], l[2], l[3]]),
            Self.scalar([0x8888_8888_8888_8888, 0x8888_8888_8888_8888, 0x8888_8888_8888_8888, 0x7888_8888_8888_8888]),
            Self.scalar([.max, .max, .max, 0x7FFF_FFFF_FFFF_FFFF]),
            Self.scalar([0, 0, 0, 0x7800_0000_0000_0000]),
        ]
        var random = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_random(&random)
        scalars.append(random)
        for j in [0, 1, 2, 4] {
            let signer = T.Signer(torsion: j)
            let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
            for s in scalars {
                let sB = Self.baseMultiple(Self.reducedScalar(s))
                for h in scalars {
                    var expected = [UInt8](repeating: 0, count: 32)
                    _ = crypto_core_ed25519_sub(&expected, sB, Self.multiple(h, of: signer))
                    #expect(table.combination(s: s, h: h) == expected, "j \(j) s \(s) h \(h)")
                }
            }
        }
    }

    static func reducedScalar(_ s: [UInt8]) -> [UInt8] {
        var wide = s + [UInt8](repeating: 0, count: 32)
        var out = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_reduce(&out, &wide)
        return out
    }

    // MARK: - Signatures

    @Test("R plus each point of order 2, 4 and 8, either sign bit; S with its top bits set")
    func torsionOnR() throws {
        for j in [0, 1, 4] {
            let signer = T.Signer(torsion: j)
            let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
            let message = Array("torsion".utf8)
            let sig = signer.sign(message)
            #expect(try T.answers(signer.key, table, sig, message) == (true, true))
            for k in 1..<8 {
                let r = T.Signer.plusTorsion(Array(sig[0..<32]), k)
                for flip: UInt8 in [0, 0x80] {
                    var moved = r + Array(sig[32..<64])
                    moved[31] ^= flip
                    let (sodium, fast) = try T.answers(signer.key, table, moved, message)
                    #expect(sodium == fast, "j \(j) k \(k)")
                }
            }
            for top: UInt8 in [0x10, 0x20, 0x40, 0x80, 0xE0, 0xF0] {
                var s = sig
                s[63] |= top
                let (sodium, fast) = try T.answers(signer.key, table, s, message)
                #expect(sodium == fast && !fast, "top \(top)")
            }
        }
    }

    @Test("a message buffer with no base address")
    func nilMessage() throws {
        let signer = T.Signer(torsion: 3)
        let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
        let sig = try Signature(bytes: signer.sign([]))
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        #expect(try PublicKey(bytes: signer.key).verify(sig, for: empty))
        #expect(table.verify(sig, for: empty))
    }
}
