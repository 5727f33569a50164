import CSodium
import Foundation
import Testing

@testable import PlacesCrypto

/// Decodes lowercase or uppercase hex; traps on malformed input (test data only).
func noiseHexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    precondition(digits.count % 2 == 0, "odd hex length")
    func value(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: preconditionFailure("bad hex digit")
        }
    }
    return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
}

/// A fresh libsodium Ed25519 key pair: (public 32 bytes, secret 64 bytes).
func noiseEd25519KeyPair() -> (publicKey: [UInt8], secretKey: [UInt8]) {
    _ = sodium_init()
    var publicKey = [UInt8](repeating: 0, count: 32)
    var secretKey = [UInt8](repeating: 0, count: 64)
    _ = crypto_sign_ed25519_keypair(&publicKey, &secretKey)
    return (publicKey, secretKey)
}

/// Runs an XX handshake to completion between two fresh handshakes and returns both sides.
func noiseCompletedPair(
    initiatorKey: NoiseStaticKey,
    responderKey: NoiseStaticKey
) throws -> (initiator: NoiseHandshake, responder: NoiseHandshake) {
    let initiator = NoiseHandshake.initiator(staticKey: initiatorKey)
    let responder = NoiseHandshake.responder(staticKey: responderKey)
    _ = try responder.readMessage(try initiator.writeMessage())
    _ = try initiator.readMessage(try responder.writeMessage())
    _ = try responder.readMessage(try initiator.writeMessage())
    return (initiator, responder)
}

/// BLAKE2s-256 (RFC 7693) in plain Swift: libsodium has none, and the public vector file
/// includes `Noise_XX_25519_ChaChaPoly_BLAKE2s`. Plugging it in also proves the hash
/// abstraction is not tied to libsodium's hashes. Tests only; slow and unhardened.
struct NoiseTestBLAKE2s: NoiseHashFunction {
    var name: String { "BLAKE2s" }
    var hashLength: Int { 32 }
    var blockLength: Int { 64 }

    private static let iv: [UInt32] = [
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19,
    ]
    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ]

    func hash(_ data: [UInt8]) -> [UInt8] {
        var h = Self.iv
        h[0] ^= 0x0101_0000 ^ 32
        var counter: UInt64 = 0
        var offset = 0
        repeat {
            let remaining = data.count - offset
            let isLast = remaining <= 64
            let take = min(remaining, 64)
            var block = [UInt8](repeating: 0, count: 64)
            block.replaceSubrange(0..<take, with: data[offset..<(offset + take)])
            counter += UInt64(take)
            offset += take
            compress(&h, block, counter, isLast)
        } while offset < data.count
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    private func compress(_ h: inout [UInt32], _ block: [UInt8], _ counter: UInt64, _ isLast: Bool) {
        let m: [UInt32] = (0..<16).map { index in
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(block[index * 4 + $1]) << (8 * $1) }
        }
        var v = h + Self.iv
        v[12] ^= UInt32(truncatingIfNeeded: counter)
        v[13] ^= UInt32(truncatingIfNeeded: counter >> 32)
        if isLast { v[14] = ~v[14] }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
        func g(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt32, _ y: UInt32) {
            v[a] = v[a] &+ v[b] &+ x; v[d] = rotr(v[d] ^ v[a], 16)
            v[c] = v[c] &+ v[d]; v[b] = rotr(v[b] ^ v[c], 12)
            v[a] = v[a] &+ v[b] &+ y; v[d] = rotr(v[d] ^ v[a], 8)
            v[c] = v[c] &+ v[d]; v[b] = rotr(v[b] ^ v[c], 7)
        }
        for round in 0..<10 {
            let s = Self.sigma[round]
            g(0, 4, 8, 12, m[s[0]], m[s[1]])
            g(1, 5, 9, 13, m[s[2]], m[s[3]])
            g(2, 6, 10, 14, m[s[4]], m[s[5]])
            g(3, 7, 11, 15, m[s[6]], m[s[7]])
            g(0, 5, 10, 15, m[s[8]], m[s[9]])
            g(1, 6, 11, 12, m[s[10]], m[s[11]])
            g(2, 7, 8, 13, m[s[12]], m[s[13]])
            g(3, 4, 9, 14, m[s[14]], m[s[15]])
        }
        for index in 0..<8 { h[index] ^= v[index] ^ v[index + 8] }
    }
}

/// Expects `body` to throw a `CryptoError` with `code`.
func expectNoiseError<R>(
    _ code: CryptoError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) {
    let error = #expect(throws: CryptoError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, sourceLocation: sourceLocation)
}
