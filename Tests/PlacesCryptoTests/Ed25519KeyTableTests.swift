import CSodium
import Foundation
import PlacesCryptoTesting
import Testing

@testable import PlacesCrypto

/// `Ed25519KeyTable.verify` against libsodium's `crypto_sign_verify_detached` (through
/// `PublicKey.verify`): every case asks both and expects the same answer.
/// The long run is `PLACES_BENCH_PROFILE=ed25519` of places-bench (1,000,000 cases).
@Suite("Ed25519 key tables answer as libsodium")
struct Ed25519KeyTableTests {
    static let order: [UInt8] = hex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
    static let smallOrder: [[UInt8]] = [
        hex("0000000000000000000000000000000000000000000000000000000000000000"),
        hex("0100000000000000000000000000000000000000000000000000000000000000"),
        hex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
        hex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
        hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ]

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var chars = s.makeIterator()
        while let a = chars.next(), let b = chars.next() {
            out.append(UInt8(String([a, b]), radix: 16) ?? 0)
        }
        return out
    }

    /// Keys with a small-order part, and signatures libsodium accepts from them.
    typealias Signer = TorsionSigner

    /// libsodium's answer and the table's (false when there is no table).
    static func answers(_ key: [UInt8], _ table: Ed25519KeyTable?, _ sig: [UInt8], _ message: [UInt8]) throws
        -> (Bool, Bool)
    {
        let signature = try Signature(bytes: sig)
        let sodium = try PublicKey(bytes: key).verify(signature, for: message)
        let fast = table.map { t in message.withUnsafeBytes { t.verify(signature, for: $0) } } ?? false
        return (sodium, fast)
    }

    /// Whether libsodium decodes the bytes as a point: `crypto_core_ed25519_add` runs the same
    /// square-root check as `ge25519_frombytes_negate_vartime` (and no other on the key).
    static func decodes(_ bytes: [UInt8]) -> Bool {
        var out = [UInt8](repeating: 0, count: 32)
        let base = hex("5866666666666666666666666666666666666666666666666666666666666666")
        return crypto_core_ed25519_add(&out, bytes, base) == 0
    }

    @Test("random keys (some with a torsion component), messages and their mutations")
    func randomDifferential() throws {
        var accepted = 0
        for round in 0..<16 {
            let signer = Signer(torsion: round % 3 == 2 ? 1 + round % 7 : 0)
            let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
            let other = Signer()
            for i in 0..<6 {
                let length = i == 0 ? 0 : Int.random(in: 1..<400)
                let message = (0..<length).map { _ in UInt8.random(in: 0...255) }
                let sig = signer.sign(message)
                var cases: [([UInt8], [UInt8])] = [(sig, message), (other.sign(message), message)]
                var flipped = sig
                let bit = Int.random(in: 0..<512)
                flipped[bit / 8] ^= 1 << (bit % 8)
                cases.append((flipped, message))
                if !message.isEmpty {
                    var m = message
                    m[Int.random(in: 0..<m.count)] ^= 1 << Int.random(in: 0..<8)
                    cases.append((sig, m))
                }
                cases.append((Array(sig[0..<32]) + TorsionSigner.plusGroupOrder(sig[32..<64]), message))
                for (s, m) in cases {
                    let (sodium, fast) = try Self.answers(signer.key, table, s, m)
                    #expect(sodium == fast, "key \(signer.key) sig \(s)")
                    if sodium { accepted += 1 }
                }
            }
        }
        // Every signer's own signatures are valid: 16 × 6 at least.
        #expect(accepted >= 96)
    }

    @Test("every bit of R, S and the message flipped")
    func everyBitFlip() throws {
        for j in [3] {
            let signer = Signer(torsion: j)
            let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
            let message = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let sig = signer.sign(message)
            #expect(try Self.answers(signer.key, table, sig, message) == (true, true))
            for bit in 0..<512 {
                var s = sig
                s[bit / 8] ^= 1 << (bit % 8)
                let (sodium, fast) = try Self.answers(signer.key, table, s, message)
                #expect(sodium == fast, "bit \(bit)")
            }
            for bit in 0..<256 {
                var m = message
                m[bit / 8] ^= 1 << (bit % 8)
                let (sodium, fast) = try Self.answers(signer.key, table, sig, m)
                #expect(sodium == fast && !fast, "message bit \(bit)")
            }
        }
    }

    @Test("S + L, S near L, and [S]B − [h]A for edge scalars against libsodium's point arithmetic")
    func scalarEdges() throws {
        let signer = Signer()
        let key = try PublicKey(bytes: signer.key)
        let table = try #require(Ed25519KeyTable(key))
        let message = Array("edges".utf8)
        let sig = signer.sign(message)
        let lMinus1 = [Self.order[0] - 1] + Self.order[1...]
        let lPlus1 = [Self.order[0] + 1] + Self.order[1...]
        for s in [
            TorsionSigner.plusGroupOrder(sig[32..<64]), Self.order, lMinus1, lPlus1,
            [UInt8](repeating: 0xFF, count: 32),
        ] {
            let (sodium, fast) = try Self.answers(signer.key, table, Array(sig[0..<32]) + s, message)
            #expect(sodium == fast && !fast)
        }
        #expect(Ed25519Encoding.isCanonicalScalar([UInt8](repeating: 0, count: 32) + lMinus1))
        #expect(!Ed25519Encoding.isCanonicalScalar([UInt8](repeating: 0, count: 32) + Self.order))
        // [s]B − [h]A for s, h in {1, L − 1, random}: the same point as libsodium's.
        var random = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_random(&random)
        let one = [1] + [UInt8](repeating: 0, count: 31)
        for s in [one, lMinus1, random] {
            for h in [one, lMinus1, random] {
                var sB = [UInt8](repeating: 0, count: 32)
                var hA = [UInt8](repeating: 0, count: 32)
                var expected = [UInt8](repeating: 0, count: 32)
                #expect(crypto_scalarmult_ed25519_base_noclamp(&sB, s) == 0)
                #expect(crypto_scalarmult_ed25519_noclamp(&hA, h, signer.key) == 0)
                _ = crypto_core_ed25519_sub(&expected, sB, hA)
                #expect(table.combination(s: s, h: h) == expected)
            }
        }
    }

    @Test("R of small order (either top bit), R with y ≥ p, R's sign flipped")
    func badR() throws {
        let signer = Signer()
        let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
        let message = Array("R".utf8)
        let sig = signer.sign(message)
        var rs: [[UInt8]] = []
        for e in Self.smallOrder {
            rs.append(e)
            rs.append(Array(e[0..<31]) + [e[31] | 0x80])
        }
        for low in 0xED...0xFF {
            let high = [UInt8(low)] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
            rs.append(high)
            rs.append(Array(high[0..<31]) + [0xFF])
        }
        // y + p for a real point with y < 19 has the same residue: R = (y, x) with y = 2…18 is
        // not this signature's R, but its alternative encoding must fail exactly as in libsodium.
        rs.append(Array(sig[0..<31]) + [sig[31] ^ 0x80])
        for r in rs {
            let (sodium, fast) = try Self.answers(signer.key, table, r + Array(sig[32..<64]), message)
            #expect(sodium == fast && !fast, "R \(r)")
        }
    }

    @Test("keys of small order, not canonical, or not on the curve have no table, and libsodium rejects them")
    func rejectedKeys() throws {
        var keys: [[UInt8]] = []
        for e in Self.smallOrder {
            keys.append(e)
            keys.append(Array(e[0..<31]) + [e[31] | 0x80])
        }
        for low in 0xED...0xFF {
            keys.append([UInt8(low)] + [UInt8](repeating: 0xFF, count: 30) + [0x7F])
            keys.append([UInt8(low)] + [UInt8](repeating: 0xFF, count: 30) + [0xFF])
        }
        var notOnCurve = 0
        while notOnCurve < 20 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            if !Self.decodes(bytes) {
                keys.append(bytes)
                notOnCurve += 1
            }
        }
        let signer = Signer()
        for key in keys {
            #expect(Ed25519KeyTable(try PublicKey(bytes: key)) == nil, "key \(key)")
            let message = Array("k".utf8)
            for sig in [
                signer.sign(message), [UInt8](repeating: 0, count: 64),
                Self.smallOrder[1] + [UInt8](repeating: 0, count: 32),
            ] {
                #expect(!(try PublicKey(bytes: key).verify(try Signature(bytes: sig), for: message)))
            }
        }
        // Random bytes: a table exactly when the key is canonical (y < p), not of small order,
        // and a point (libsodium's checks in open.c).
        var tables = 0
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let masked = Array(bytes[0..<31]) + [bytes[31] & 0x7F]
            let canonical = !(masked[31] == 0x7F && masked[0] >= 0xED && masked[1..<31].allSatisfy { $0 == 0xFF })
            let accepted = canonical && !Self.smallOrder.contains(masked) && Self.decodes(bytes)
            let table = Ed25519KeyTable(try PublicKey(bytes: bytes))
            #expect((table != nil) == accepted, "key \(bytes)")
            if table != nil { tables += 1 }
        }
        #expect(tables > 50)
    }

    @Test("RFC 8032 test 1–3")
    func rfc8032() throws {
        let vectors: [(String, String, String)] = [
            (
                "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
            ),
            (
                "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
            ),
            (
                "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
                "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
            ),
        ]
        for (key, message, sig) in vectors {
            let table = try #require(Ed25519KeyTable(try PublicKey(bytes: Self.hex(key))))
            #expect(try Self.answers(Self.hex(key), table, Self.hex(sig), Self.hex(message)) == (true, true))
        }
    }

    @Test("C2SP CCTV's Ed25519 edge-case vectors (small-order and non-canonical A and R)")
    func cctvVectors() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ed25519vectors.tsv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == 914)
        var tables: [[UInt8]: Ed25519KeyTable?] = [:]
        var accepted = 0
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let key = Self.hex(fields[1])
            if tables[key] == nil { tables[key] = .some(Ed25519KeyTable(try PublicKey(bytes: key))) }
            let table = tables[key] ?? nil
            let (sodium, fast) = try Self.answers(key, table, Self.hex(fields[2]), Self.hex(fields[3]))
            #expect(sodium == fast, "vector \(fields[0])")
            if sodium { accepted += 1 }
        }
        #expect(accepted > 0)
    }

    @Test("empty and long messages")
    func messageLengths() throws {
        let signer = Signer(torsion: 5)
        let table = try #require(Ed25519KeyTable(try PublicKey(bytes: signer.key)))
        for length in [0, 1, 111, 112, 127, 128, 129, 100_000] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let sig = signer.sign(message)
            #expect(try Self.answers(signer.key, table, sig, message) == (true, true))
            #expect(try Self.answers(signer.key, table, sig, message + [0]) == (false, false))
        }
    }
}

extension Ed25519KeyTableTests {
    @Test("signatures verified together (one inversion for all) answer as libsodium one by one, in order")
    func verifiedTogether() throws {
        let signers = (0..<4).map { Signer(torsion: $0 == 3 ? 5 : 0) }
        let tables = try signers.map { try #require(Ed25519KeyTable(try PublicKey(bytes: $0.key))) }
        var items = [(table: Ed25519KeyTable, signature: Signature, message: [UInt8])]()
        var keys = [[UInt8]]()
        for i in 0..<40 {
            let k = i % signers.count
            let message = (0..<Int.random(in: 0..<200)).map { _ in UInt8.random(in: 0...255) }
            var sig = signers[k].sign(message)
            switch i % 5 {
            case 1: sig[Int.random(in: 0..<64)] ^= 1 << Int.random(in: 0..<8)  // any bit of R or S
            case 2: sig[31] ^= 0x80  // R's sign flipped: the same y, the other x
            case 3: sig = Array(sig[0..<32]) + TorsionSigner.plusGroupOrder(sig[32..<64])  // S + L
            default: break
            }
            items.append((tables[k], try Signature(bytes: sig), message))
            keys.append(signers[k].key)
        }
        let together = Ed25519KeyTable.verifyAll(items)
        let sodium = try zip(items, keys).map { item, key in
            try PublicKey(bytes: key).verify(item.signature, for: item.message)
        }
        #expect(together == sodium)
        #expect(sodium.filter { $0 }.count >= 16)
        // One item, and none.
        #expect(Ed25519KeyTable.verifyAll([items[0]]) == [sodium[0]])
        #expect(Ed25519KeyTable.verifyAll([]).isEmpty)

        // Through a verifier: keys without a table yet (libsodium, counted) and with one.
        let verifier = SignatureVerifier()
        let asked = try zip(items, keys).map { item, key in
            (signature: item.signature, key: try PublicKey(bytes: key), message: item.message)
        }
        #expect(verifier.verifyAll(asked) == sodium)
        #expect(verifier.tableCount == signers.count)
        #expect(verifier.verifyAll(asked) == sodium)
    }
}
