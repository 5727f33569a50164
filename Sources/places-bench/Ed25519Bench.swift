import CSodium
import Foundation
import PlacesCrypto
import PlacesCryptoTesting

/// `PLACES_BENCH_PROFILE=ed25519`: `Ed25519KeyTable` against libsodium. First a differential
/// run (`PLACES_ED25519_CASES`, default 1,000,000 cases: valid signatures, every kind of
/// mutation, keys with a torsion component, keys that are not points), printing every
/// disagreement; then verifications per second on one core, the table's build time and size.
enum Ed25519Bench {
    static func run() throws {
        let cases = Int(ProcessInfo.processInfo.environment["PLACES_ED25519_CASES"] ?? "") ?? 1_000_000
        let (count, accepted, disagreements) = try differential(cases: cases)
        print(
            "ed25519 table differential: \(count) cases (\(accepted) accepted by libsodium), "
                + "\(disagreements) disagreements with libsodium")
        try measure()
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func measure() throws {
        let pair = try SigningKeyPair()
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let signatures = (0..<64).map { i in pair.sign(message + [UInt8(i)]) }
        let messages = (0..<64).map { i in message + [UInt8(i)] }
        let clock = ContinuousClock()
        // Table build.
        var builds = 0
        var start = clock.now
        while clock.now - start < .seconds(1) {
            guard Ed25519KeyTable(pair.publicKey) != nil else { fatalError("the key has no table") }
            builds += 1
        }
        let buildMicros = seconds(clock.now - start) / Double(builds) * 1e6
        guard let table = Ed25519KeyTable(pair.publicKey) else { fatalError("the key has no table") }
        func rate(_ verify: (Signature, [UInt8]) -> Bool) -> Double {
            var count = 0
            let start = clock.now
            while clock.now - start < .seconds(2) {
                for i in 0..<64 where !verify(signatures[i], messages[i]) { fatalError("a valid signature failed") }
                count += 64
            }
            return Double(count) / seconds(clock.now - start)
        }
        let sodium = rate { s, m in pair.publicKey.verify(s, for: m) }
        let fast = rate { s, m in m.withUnsafeBytes { table.verify(s, for: $0) } }
        // 16 at a time, as the store's ingest verifies a chunk (one inversion for all).
        let items = (0..<64).map { i in (table: table, signature: signatures[i], message: messages[i]) }
        var together = 0
        start = clock.now
        while clock.now - start < .seconds(2) {
            for chunk in stride(from: 0, to: 64, by: 16) {
                guard Ed25519KeyTable.verifyAll(Array(items[chunk..<(chunk + 16)])).allSatisfy({ $0 }) else {
                    fatalError("a valid signature failed")
                }
            }
            together += 64
        }
        let batched = Double(together) / seconds(clock.now - start)
        start = clock.now
        print(String(format: "ed25519 verify, libsodium (1 core):     %8.0f verifications/s", sodium))
        print(
            String(format: "ed25519 verify, Ed25519KeyTable:        %8.0f verifications/s (%.2fx)", fast, fast / sodium)
        )
        print(
            String(
                format: "ed25519 verify, Ed25519KeyTable, 16 together: %8.0f verifications/s (%.2fx)", batched,
                batched / sodium))
        print(String(format: "ed25519 key table: build %.1f µs, %d bytes", buildMicros, Ed25519KeyTable.tableByteCount))
    }

    /// Random and mutated cases against libsodium; returns (cases, accepted, disagreements).
    static func differential(cases: Int, log: Bool = true) throws -> (Int, Int, Int) {
        var rng = SystemRandomNumberGenerator()
        var count = 0
        var accepted = 0
        var disagreements = 0
        let smallOrder: [[UInt8]] = [
            [UInt8](repeating: 0, count: 32), [1] + [UInt8](repeating: 0, count: 31), TorsionSigner.torsion,
            [
                0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
                0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A,
            ],
            [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
            [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
            [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        ]
        func check(_ key: PublicKey, _ table: Ed25519KeyTable?, _ sig: [UInt8], _ message: [UInt8], _ what: String) {
            guard let signature = try? Signature(bytes: sig) else { return }
            let expected = key.verify(signature, for: message)
            let got = table.map { t in message.withUnsafeBytes { t.verify(signature, for: $0) } } ?? false
            count += 1
            if expected { accepted += 1 }
            if expected != got {
                disagreements += 1
                if log {
                    print(
                        "DISAGREE (\(what)): libsodium \(expected), table \(got), key \(key.bytes.hex) sig \(sig.hex) message \(message.hex)"
                    )
                }
            }
        }
        var round = 0
        while count < cases {
            round += 1
            // A key: usually a normal one, sometimes with torsion, sometimes random bytes.
            let kind = round % 10
            let signer: TorsionSigner
            if kind < 6 {
                signer = TorsionSigner(torsion: 0)
            } else if kind < 9 {
                signer = TorsionSigner(torsion: Int.random(in: 1..<8, using: &rng))
            } else {
                // Random bytes: usually not a point, or a point nobody can sign for.
                var bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if round % 20 == 9 { bytes = smallOrder[round / 20 % smallOrder.count] }
                if round % 40 == 19 {
                    bytes = [UInt8(0xED + round / 40 % 19)] + [UInt8](repeating: 0xFF, count: 30) + [0x7F | 0x80]
                }
                let key = try PublicKey(bytes: bytes)
                let table = Ed25519KeyTable(key)
                let other = TorsionSigner(torsion: 0)
                for _ in 0..<50 {
                    let message = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }
                    check(key, table, other.sign(message), message, "bad key")
                    let random = (0..<64).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    check(key, table, random, message, "bad key, random signature")
                }
                continue
            }
            let key = try PublicKey(bytes: signer.key)
            let table = Ed25519KeyTable(key)
            if table == nil, log { print("NOTE: no table for a signer's key \(signer.key.hex)") }
            let other = TorsionSigner(torsion: 0)
            for _ in 0..<200 {
                let length =
                    Int.random(in: 0..<16, using: &rng) == 0
                    ? Int.random(in: 0..<4000, using: &rng) : Int.random(in: 0..<300, using: &rng)
                let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let sig = signer.sign(message)
                check(key, table, sig, message, "valid")
                // A bit of R or S flipped.
                var flipped = sig
                let bit = Int.random(in: 0..<512, using: &rng)
                flipped[bit / 8] ^= 1 << (bit % 8)
                check(key, table, flipped, message, "sig bit \(bit)")
                // A bit of the message flipped.
                if !message.isEmpty {
                    var m = message
                    let bit = Int.random(in: 0..<(8 * m.count), using: &rng)
                    m[bit / 8] ^= 1 << (bit % 8)
                    check(key, table, sig, m, "message bit")
                }
                // S + L.
                check(key, table, Array(sig[0..<32]) + TorsionSigner.plusGroupOrder(sig[32..<64]), message, "S + L")
                // R of small order, either top bit.
                let small = smallOrder[Int.random(in: 0..<smallOrder.count, using: &rng)]
                var smallR = small
                if Bool.random(using: &rng) { smallR[31] |= 0x80 }
                check(key, table, smallR + Array(sig[32..<64]), message, "small R")
                // R with y ≥ p, either sign.
                var high =
                    [UInt8(0xED + Int.random(in: 0..<19, using: &rng))] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
                if Bool.random(using: &rng) { high[31] |= 0x80 }
                check(key, table, high + Array(sig[32..<64]), message, "R ≥ p")
                // R with its sign bit flipped, another key's signature, a random signature.
                var signFlipped = sig
                signFlipped[31] ^= 0x80
                check(key, table, signFlipped, message, "R sign")
                check(key, table, other.sign(message), message, "other key")
                check(key, table, (0..<64).map { _ in UInt8.random(in: 0...255, using: &rng) }, message, "random")
            }
        }
        return (count, accepted, disagreements)
    }
}

extension [UInt8] {
    fileprivate var hex: String { map { String(format: "%02x", $0) }.joined() }
}
