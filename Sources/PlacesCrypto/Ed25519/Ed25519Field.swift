// Arithmetic in GF(2^255 - 19) for `Ed25519KeyTable`: five limbs of 51 bits in `UInt64`,
// products in `UInt128`. Every operation uses wrapping operators (`&+`, `&-`, `&*`, `&>>`):
// the bounds written on each function show that no value ever wraps, so the wrapping forms
// only spare the overflow checks, and nothing here traps on a peer's bytes.
//
// Bounds used below (a limb is one of the five words):
// - "tight": every limb < 2^51 + 2^23 — what `mul`, `square`, `fromBytes` and `reduced` return;
// - `add` takes limbs < 2^54 and returns < 2^55;
// - `sub` takes f's limbs < 2^55 and g's ≤ 2^53 − 76 and returns < 2^56;
// - `mul` and `square` take limbs < 2^56.
// A tight element satisfies every precondition; the point formulas (Ed25519Point.swift)
// note where a looser value is passed on.

/// An element of GF(2^255 − 19): f0 + 2^51 f1 + 2^102 f2 + 2^153 f3 + 2^204 f4, not
/// necessarily reduced.
struct FieldElement: Sendable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64
    var l4: UInt64

    static let mask: UInt64 = (1 << 51) - 1

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
        self.l4 = l4
    }

    static let zero = FieldElement(0, 0, 0, 0, 0)
    static let one = FieldElement(1, 0, 0, 0, 0)
    /// d = −121665/121666 (libsodium's fe_51 constants).
    static let d = FieldElement(
        929_955_233_495_203, 466_365_720_129_213, 1_662_059_464_998_953, 2_033_849_074_728_123,
        1_442_794_654_840_575)
    /// 2d.
    static let d2 = FieldElement(
        1_859_910_466_990_425, 932_731_440_258_426, 1_072_319_116_312_658, 1_815_898_335_770_999,
        633_789_495_995_903)
    /// A square root of −1.
    static let sqrtMinusOne = FieldElement(
        1_718_705_420_411_056, 234_908_883_556_509, 2_233_514_472_574_048, 2_117_202_627_021_982,
        765_476_049_583_133)

    /// The 255 low bits of 32 little-endian bytes (the top bit is dropped, as libsodium's
    /// `fe25519_frombytes` does). Limbs < 2^51: tight.
    @inline(__always)
    static func fromWords(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) -> FieldElement {
        FieldElement(
            w0 & mask,
            ((w0 &>> 51) | (w1 &<< 13)) & mask,
            ((w1 &>> 38) | (w2 &<< 26)) & mask,
            ((w2 &>> 25) | (w3 &<< 39)) & mask,
            (w3 &>> 12) & mask)
    }

    /// f + g. Limbs < 2^54 in, < 2^55 out.
    @inline(__always)
    static func + (f: FieldElement, g: FieldElement) -> FieldElement {
        FieldElement(f.l0 &+ g.l0, f.l1 &+ g.l1, f.l2 &+ g.l2, f.l3 &+ g.l3, f.l4 &+ g.l4)
    }

    /// f − g, as f + 4p − g. f's limbs < 2^55, g's ≤ 2^53 − 76 (4p's smallest limb,
    /// 4 × (2^51 − 19)), so no limb goes below zero; out < 2^55 + 2^53 < 2^56.
    @inline(__always)
    static func - (f: FieldElement, g: FieldElement) -> FieldElement {
        FieldElement(
            (f.l0 &+ 0x1F_FFFF_FFFF_FFB4) &- g.l0,
            (f.l1 &+ 0x1F_FFFF_FFFF_FFFC) &- g.l1,
            (f.l2 &+ 0x1F_FFFF_FFFF_FFFC) &- g.l2,
            (f.l3 &+ 0x1F_FFFF_FFFF_FFFC) &- g.l3,
            (f.l4 &+ 0x1F_FFFF_FFFF_FFFC) &- g.l4)
    }

    /// −f, as 4p − f: f's limbs ≤ 2^53 − 76; out < 2^53.
    @inline(__always)
    static prefix func - (f: FieldElement) -> FieldElement { zero - f }

    /// Carries five product columns into a tight element. Columns < 2^120 (what `*` and
    /// `squared` give): every carry is < 2^69, so a column plus its carry stays below 2^121;
    /// the top carry times 19 is < 2^74, added to a 51-bit limb in 128 bits, and what that
    /// carries into limb 1 is < 2^23: limb 1 < 2^51 + 2^23, the others < 2^51.
    @inline(__always)
    static func carry(_ c0: UInt128, _ c1: UInt128, _ c2: UInt128, _ c3: UInt128, _ c4: UInt128)
        -> FieldElement
    {
        let m = UInt128(mask)
        let c1 = c1 &+ (c0 &>> 51)
        let c2 = c2 &+ (c1 &>> 51)
        let c3 = c3 &+ (c2 &>> 51)
        let c4 = c4 &+ (c3 &>> 51)
        let t0 = (c0 & m) &+ (c4 &>> 51) &* 19
        let r1 = UInt64(truncatingIfNeeded: c1 & m) &+ UInt64(truncatingIfNeeded: t0 &>> 51)
        return FieldElement(
            UInt64(truncatingIfNeeded: t0 & m), r1,
            UInt64(truncatingIfNeeded: c2 & m), UInt64(truncatingIfNeeded: c3 & m),
            UInt64(truncatingIfNeeded: c4 & m))
    }

    /// f × g. Limbs < 2^56 in: 19 g_i < 2^61 fits a word; each product < 2^117, and a column
    /// sums five of them: < 2^119.4, below 2^128. Tight out (see `carry`).
    @inline(__always)
    static func * (f: FieldElement, g: FieldElement) -> FieldElement {
        let g1 = g.l1 &* 19
        let g2 = g.l2 &* 19
        let g3 = g.l3 &* 19
        let g4 = g.l4 &* 19
        @inline(__always) func m(_ a: UInt64, _ b: UInt64) -> UInt128 { UInt128(a) &* UInt128(b) }
        let c0 = m(f.l0, g.l0) &+ m(f.l1, g4) &+ m(f.l2, g3) &+ m(f.l3, g2) &+ m(f.l4, g1)
        let c1 = m(f.l0, g.l1) &+ m(f.l1, g.l0) &+ m(f.l2, g4) &+ m(f.l3, g3) &+ m(f.l4, g2)
        let c2 = m(f.l0, g.l2) &+ m(f.l1, g.l1) &+ m(f.l2, g.l0) &+ m(f.l3, g4) &+ m(f.l4, g3)
        let c3 = m(f.l0, g.l3) &+ m(f.l1, g.l2) &+ m(f.l2, g.l1) &+ m(f.l3, g.l0) &+ m(f.l4, g4)
        let c4 = m(f.l0, g.l4) &+ m(f.l1, g.l3) &+ m(f.l2, g.l2) &+ m(f.l3, g.l1) &+ m(f.l4, g.l0)
        return carry(c0, c1, c2, c3, c4)
    }

    /// f². Limbs < 2^56 in: doubled limbs < 2^57, 38 f_i < 2^62; products < 2^118, three
    /// per column: < 2^120. Tight out (see `carry`).
    @inline(__always)
    func squared() -> FieldElement {
        let f0 = l0
        let f1 = l1
        let f2 = l2
        let f3 = l3
        let f4 = l4
        let f0x2 = f0 &* 2
        let f1x2 = f1 &* 2
        let f1x38 = f1 &* 38
        let f2x38 = f2 &* 38
        let f3x19 = f3 &* 19
        let f3x38 = f3 &* 38
        let f4x19 = f4 &* 19
        @inline(__always) func m(_ a: UInt64, _ b: UInt64) -> UInt128 { UInt128(a) &* UInt128(b) }
        let c0 = m(f0, f0) &+ m(f1x38, f4) &+ m(f2x38, f3)
        let c1 = m(f0x2, f1) &+ m(f2x38, f4) &+ m(f3x19, f3)
        let c2 = m(f0x2, f2) &+ m(f1, f1) &+ m(f3x38, f4)
        let c3 = m(f0x2, f3) &+ m(f1x2, f2) &+ m(f4x19, f4)
        let c4 = m(f0x2, f4) &+ m(f1x2, f3) &+ m(f2, f2)
        return Self.carry(c0, c1, c2, c3, c4)
    }

    /// f^(2^n), n ≥ 1.
    func squared(times n: Int) -> FieldElement {
        var r = squared()
        var i = 1
        while i < n {
            r = r.squared()
            i &+= 1
        }
        return r
    }

    /// f^(2^250 − 1) and f^11, the shared start of `inverse` and `pow22523` (ref10's chain).
    private func pow2250m1() -> (FieldElement, FieldElement) {
        let t0 = squared()  // 2
        let t1 = t0.squared(times: 2) * self  // 9
        let z11 = t0 * t1  // 11
        let t2 = z11.squared() * t1  // 31 = 2^5 − 1
        let t3 = t2.squared(times: 5) * t2  // 2^10 − 1
        let t4 = t3.squared(times: 10) * t3  // 2^20 − 1
        let t5 = t4.squared(times: 20) * t4  // 2^40 − 1
        let t6 = t5.squared(times: 10) * t3  // 2^50 − 1
        let t7 = t6.squared(times: 50) * t6  // 2^100 − 1
        let t8 = t7.squared(times: 100) * t7  // 2^200 − 1
        let t9 = t8.squared(times: 50) * t6  // 2^250 − 1
        return (t9, z11)
    }

    /// f^(p − 2) = 1/f (0 for 0).
    /// The inverses of `elements`, none zero, with one inversion for all (Montgomery's
    /// trick: three multiplications an element). Products of tight elements, so tight.
    static func inverses(_ elements: [FieldElement]) -> [FieldElement] {
        guard !elements.isEmpty else { return [] }
        // prefix[k] = e_0 ⋯ e_k.
        var prefix = [FieldElement]()
        prefix.reserveCapacity(elements.count)
        var running = FieldElement.one
        for element in elements {
            running = running * element
            prefix.append(running)
        }
        var inverse = running.inverse()  // 1/(e_0 ⋯ e_last)
        var out = [FieldElement](repeating: .zero, count: elements.count)
        var k = elements.count - 1
        while k >= 0 {
            out[k] = k > 0 ? inverse * prefix[k - 1] : inverse
            inverse = inverse * elements[k]
            k -= 1
        }
        return out
    }

    func inverse() -> FieldElement {
        let (t, z11) = pow2250m1()
        return t.squared(times: 5) * z11  // 2^255 − 32 + 11 = p − 2
    }

    /// f^((p − 5)/8) = f^(2^252 − 3).
    func pow22523() -> FieldElement {
        let (t, _) = pow2250m1()
        return t.squared(times: 2) * self
    }

    /// The unique representative in [0, p), limbs < 2^51 (libsodium's `fe25519_reduce`).
    /// Input tight (any limbs < 2^59 would do: 19 × (limb4 >> 51) stays far below 2^64).
    func reduced() -> FieldElement {
        var t0 = l0
        var t1 = l1
        var t2 = l2
        var t3 = l3
        var t4 = l4
        let mask = Self.mask
        @inline(__always) func carryOnce() {
            t1 &+= t0 &>> 51
            t0 &= mask
            t2 &+= t1 &>> 51
            t1 &= mask
            t3 &+= t2 &>> 51
            t2 &= mask
            t4 &+= t3 &>> 51
            t3 &= mask
            t0 &+= 19 &* (t4 &>> 51)
            t4 &= mask
        }
        carryOnce()
        carryOnce()
        // Now 0 ≤ t < 2^255, carried. Adding 19 carries past 2^255 exactly when t ≥ p.
        t0 &+= 19
        carryOnce()
        // t + 19 (mod 2^255, the overflow folded back as 19): add 2^255 − 19 and drop 2^255.
        t0 &+= 0x8_0000_0000_0000 &- 19
        t1 &+= 0x8_0000_0000_0000 &- 1
        t2 &+= 0x8_0000_0000_0000 &- 1
        t3 &+= 0x8_0000_0000_0000 &- 1
        t4 &+= 0x8_0000_0000_0000 &- 1
        t1 &+= t0 &>> 51
        t0 &= mask
        t2 &+= t1 &>> 51
        t1 &= mask
        t3 &+= t2 &>> 51
        t2 &= mask
        t4 &+= t3 &>> 51
        t3 &= mask
        t4 &= mask
        return FieldElement(t0, t1, t2, t3, t4)
    }

    /// The canonical 32-byte encoding as four little-endian words (bit 255 clear).
    func canonicalWords() -> (UInt64, UInt64, UInt64, UInt64) {
        let t = reduced()
        return (
            t.l0 | (t.l1 &<< 51), (t.l1 &>> 13) | (t.l2 &<< 38), (t.l2 &>> 26) | (t.l3 &<< 25),
            (t.l3 &>> 39) | (t.l4 &<< 12)
        )
    }

    /// Whether the reduced value is odd (ref10's `fe25519_isnegative`).
    var isNegative: Bool { reduced().l0 & 1 == 1 }

    /// Whether the value is 0 mod p.
    var isZero: Bool {
        let t = reduced()
        return (t.l0 | t.l1 | t.l2 | t.l3 | t.l4) == 0
    }
}
