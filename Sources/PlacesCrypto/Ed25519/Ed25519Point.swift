// Points of the Ed25519 curve −x² + y² = 1 + d x² y² for `Ed25519KeyTable`, with the
// complete twisted-Edwards formulas of Hisil–Wong–Carter–Dawson (2008): for a = −1 and d not
// a square they hold for every pair of points, the small-order ones included, so the sums
// below are the group's sums whatever a peer's key or signature is. Field bounds: see
// Ed25519Field.swift; each formula notes why its operands meet them.

/// A point in extended coordinates: x = X/Z, y = Y/Z, x·y = T/Z, Z ≠ 0. Every coordinate
/// a function here returns is a product, so tight.
struct EdwardsPoint: Sendable {
    var x: FieldElement
    var y: FieldElement
    var z: FieldElement
    var t: FieldElement

    static let identity = EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero)

    /// The sum with an affine point in Niels form (madd-2008-hwcd-3, k = 2d, Z2 = 1).
    /// X, Y, Z, T tight: Y − X < 2^56, Y + X < 2^53; a, b, c tight; dd < 2^53; e, f < 2^56
    /// (the subtrahends a and c tight), g, h < 2^55: all valid `*` operands.
    @inline(__always)
    func adding(_ q: NielsPoint) -> EdwardsPoint {
        let a = (y - x) * q.yMinusX
        let b = (y + x) * q.yPlusX
        let c = t * q.xy2d
        let dd = z + z
        let e = b - a
        let f = dd - c
        let g = dd + c
        let h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// The difference with an affine point in Niels form: the sum with −q = (−x, y), whose
    /// y + x and y − x are q's swapped and whose 2d·x·y is q's negated (so f and g swap).
    /// Same bounds as `adding`.
    @inline(__always)
    func subtracting(_ q: NielsPoint) -> EdwardsPoint {
        let a = (y - x) * q.yPlusX
        let b = (y + x) * q.yMinusX
        let c = t * q.xy2d
        let dd = z + z
        let e = b - a
        let f = dd + c
        let g = dd - c
        let h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// The sum of two points in extended coordinates (add-2008-hwcd-3, k = 2d); for
    /// building tables only. Same bounds as `adding` (c and the product Z1·Z2 are tight).
    func adding(_ q: EdwardsPoint) -> EdwardsPoint {
        let a = (y - x) * (q.y - q.x)
        let b = (y + x) * (q.y + q.x)
        let c = (t * FieldElement.d2) * q.t
        let zz = z * q.z
        let dd = zz + zz
        let e = b - a
        let f = dd - c
        let g = dd + c
        let h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// 2P (dbl-2008-hwcd, a = −1). aa, bb tight; cc = 2Z² < 2^53; s = aa + bb < 2^52 + 2^24
    /// (a valid subtrahend); e < 2^56, g = bb − aa < 2^54, f = g − cc < 2^56, h = −s < 2^53.
    @inline(__always)
    func doubled() -> EdwardsPoint {
        let aa = x.squared()
        let bb = y.squared()
        let zz = z.squared()
        let cc = zz + zz
        let s = aa + bb
        let e = (x + y).squared() - s
        let g = bb - aa
        let f = g - cc
        let h = -s
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// The canonical 32-byte encoding (y, with x's parity in bit 255) as four little-endian
    /// words: ref10's `ge25519_tobytes`.
    func encodedWords() -> (UInt64, UInt64, UInt64, UInt64) { encodedWords(zInverse: z.inverse()) }

    /// `encodedWords()` with 1/Z given.
    private func encodedWords(zInverse: FieldElement) -> (UInt64, UInt64, UInt64, UInt64) {
        let affineX = x * zInverse
        let (w0, w1, w2, w3) = (y * zInverse).canonicalWords()
        return (w0, w1, w2, affineX.isNegative ? w3 | (1 << 63) : w3)
    }

    /// The encodings of `points`, each `encodedWords()`, with one inversion for all
    /// (Montgomery's trick: 3 multiplications a point instead of an inversion). Z ≠ 0 for
    /// every point the complete formulas give, so every product inverted is non-zero.
    static func encodedWords(_ points: [EdwardsPoint]) -> [(UInt64, UInt64, UInt64, UInt64)] {
        guard points.count > 1 else { return points.map { $0.encodedWords() } }
        return zip(points, FieldElement.inverses(points.map(\.z))).map { $0.encodedWords(zInverse: $1) }
    }

    /// The point whose encoding is the four words, or nil when no point has that y: ref10's
    /// `ge25519_frombytes_negate_vartime` without its final negation (the caller subtracts
    /// instead). The words must be a canonical encoding (y < p), which the caller checks
    /// first, as libsodium does. y tight; u = y² − 1 (reduced) and v = d·y² + 1 are valid
    /// operands, and u a valid subtrahend in v·x² − u.
    static func decoding(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) -> EdwardsPoint? {
        let y = FieldElement.fromWords(w0, w1, w2, w3)
        let yy = y.squared()
        // Reduced, because u is subtracted below: `yy - .one` has limbs up to 2^53 + 2^51 − 77,
        // past the 2^53 − 76 a subtrahend may have, so v·x² − u wrapped limbs below zero and
        // its zero test lied both ways: keys with y = 9, 10, 15, 16 (points) got no table, and
        // keys with y = ±0x395d0dccd2aae531… (not points) got one (Ed25519KeyTableAttackTests).
        let u = (yy - .one).reduced()
        let v = yy * .d + .one
        let v3 = v.squared() * v
        var x = (v3.squared() * v * u).pow22523() * v3 * u  // u v³ (u v⁷)^((p−5)/8)
        let vxx = x.squared() * v
        if !(vxx - u).isZero {
            guard (vxx + u).isZero else { return nil }
            x = x * .sqrtMinusOne
        }
        // libsodium negates when the parity equals the sign bit, giving −A; this keeps A.
        // For x = 0 both give 0.
        if x.isNegative != (w3 &>> 63 == 1) { x = (-x.reduced()).reduced() }
        return EdwardsPoint(x: x, y: y, z: .one, t: x * y)
    }
}

/// An affine point as (y + x, y − x, 2d·x·y), each reduced mod p: what a mixed addition needs.
struct NielsPoint: Sendable {
    var yPlusX: FieldElement
    var yMinusX: FieldElement
    var xy2d: FieldElement
}

extension NielsPoint {
    /// The table for `Ed25519KeyTable`: for i in 0..<32 and j in 1...8, entry 8i + j − 1 is
    /// j·256^i·P. 32 positions × 8 multiples, converted to affine with one inversion
    /// (Montgomery's trick). Z ≠ 0 for every point the complete formulas give, so every
    /// product inverted is non-zero.
    static func table(for point: EdwardsPoint) -> [NielsPoint] {
        var points: [EdwardsPoint] = []
        points.reserveCapacity(256)
        var base = point
        for _ in 0..<32 {
            var multiple = base
            points.append(multiple)
            for j in 2...8 {
                multiple = j == 2 ? base.doubled() : multiple.adding(base)
                points.append(multiple)
            }
            // 256·base = 32·(8·base).
            base = multiple
            for _ in 0..<5 { base = base.doubled() }
        }
        let zInverses = FieldElement.inverses(points.map(\.z))
        var table = [NielsPoint]()
        table.reserveCapacity(points.count)
        for (point, zInverse) in zip(points, zInverses) {
            let x = point.x * zInverse
            let y = point.y * zInverse
            table.append(
                NielsPoint(yPlusX: (y + x).reduced(), yMinusX: (y - x).reduced(), xy2d: (x * y * .d2).reduced()))
        }
        return table
    }
}
