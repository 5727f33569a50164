import Foundation
import PlacesCrypto
import PlacesModel
import PlacesRoutes
import Testing

@testable import PlacesAccess

/// Fuzz helpers on the project's seeded generator (`PlacesRoutes.SplitMix64`), so every CI
/// run feeds the parsers the same inputs and a failure reproduces from its iteration number.
extension SplitMix64 {
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { buffer in
            var index = 0
            while index < count {
                var word = next()
                for _ in 0..<min(8, count - index) {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
        }
        return out
    }
}

/// Seeded random inputs for `CapabilityToken(decoding:)` and `ShareLink(parsing:)`: the
/// parsers must never crash, and must either throw an `AccessError` or return a value that
/// encodes back to exactly the input. Inputs that once broke a parser are kept in
/// `Regressions/` and replayed by `regressionsStillPass`.
@Suite("Token and link fuzzing")
struct TokenFuzzTests {
    static let tokenInputs = 200_000
    static let linkInputs = 50_000

    /// Valid encodings (from the vectors) and a few invalid ones to mutate.
    static let corpus: [[UInt8]] = {
        let vectors = TokenVectorTests.vectors
        return vectors.tokens.map { TokenVectorTests.bytes($0.encoded) }
            + vectors.invalidTokens.prefix(12).map { TokenVectorTests.bytes($0.encoded) }
    }()

    static let validEncodings = Set(TokenVectorTests.vectors.tokens.map { TokenVectorTests.bytes($0.encoded) })

    /// Bytes that sit on the format's boundaries (roles, flags, lengths, UTF-8 lead bytes).
    static let interesting: [UInt8] = [0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x40, 0x41, 0x7f, 0x80, 0xc0, 0xff]

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = input
        switch rng.below(8) {
        case 0:  // flip 1...4 bits
            guard !out.isEmpty else { return rng.bytes(rng.below(16)) }
            for _ in 0...rng.below(4) { out[rng.below(out.count)] ^= 1 << rng.below(8) }
        case 1:  // truncate
            out.removeLast(rng.below(out.count + 1))
        case 2:  // insert random bytes
            out.insert(contentsOf: rng.bytes(1 + rng.below(8)), at: rng.below(out.count + 1))
        case 3:  // delete a run
            guard !out.isEmpty else { return out }
            let start = rng.below(out.count)
            out.removeSubrange(start..<min(out.count, start + 1 + rng.below(8)))
        case 4:  // splice with another corpus entry
            let other = corpus[rng.below(corpus.count)]
            out = Array(out.prefix(rng.below(out.count + 1))) + other.suffix(rng.below(other.count + 1))
        case 5:  // overwrite bytes with boundary values
            guard !out.isEmpty else { return out }
            for _ in 0...rng.below(3) { out[rng.below(out.count)] = interesting[rng.below(interesting.count)] }
        case 6:  // append bytes
            out.append(contentsOf: rng.bytes(1 + rng.below(4)))
        default:  // duplicate a run
            guard !out.isEmpty else { return out }
            let start = rng.below(out.count)
            let run = out[start..<min(out.count, start + 1 + rng.below(32))]
            out.insert(contentsOf: run, at: rng.below(out.count + 1))
        }
        return out
    }

    /// Decodes `input`; records an issue when the result does not re-encode to the input.
    /// Returns the token when it decoded.
    @discardableResult
    static func checkToken(_ input: [UInt8], context: @autoclosure () -> String) -> CapabilityToken? {
        do {
            let token = try CapabilityToken(decoding: input)
            if token.encoded != input {
                Issue.record("\(context()): decoded but re-encodes differently: \(HexCoding.encode(input))")
            }
            return token
        } catch {
            if error.message.isEmpty { Issue.record("\(context()): empty error message") }
            return nil
        }
    }

    @Test func tokenDecoderSurvivesRandomInput() {
        var rng = SplitMix64(seed: 0x504c_4354_0001)
        var decoded = 0
        for iteration in 0..<Self.tokenInputs {
            let input: [UInt8]
            switch rng.below(10) {
            case 0:
                input = rng.bytes(rng.below(CapabilityToken.maxEncodedSize + 40))
            case 1:
                // Random bytes behind a correct magic and version, to get past the first checks.
                input = Array("PLCT".utf8) + [1] + rng.bytes(rng.below(CapabilityToken.maxEncodedSize))
            default:
                var bytes = Self.corpus[rng.below(Self.corpus.count)]
                for _ in 0..<(rng.below(4) == 0 ? 3 : 1) { bytes = Self.mutate(bytes, &rng) }
                input = bytes
            }
            guard let token = Self.checkToken(input, context: "token input \(iteration)") else { continue }
            decoded += 1
            // Verifying is slow in debug builds; sample it. A mutated token must never verify.
            if decoded % 64 == 0, token.isSignatureValid, !Self.validEncodings.contains(input) {
                Issue.record("token input \(iteration) verifies but is not one of the issued tokens")
            }
        }
        // The mutations must reach the accepting paths too, not only the errors.
        #expect(decoded > Self.tokenInputs / 50, "only \(decoded) inputs decoded")
    }

    /// Pieces link strings are made of, including text that looks like whitespace, look-alike
    /// and combining characters, and scalars outside the BMP.
    static let linkPieces: [String] = [
        "places://join/", "PLACES://JOIN/", "places://", "https://", "#", "##", "=", "==", "/", "?", "%23", " ", "\n",
        "\t", "\u{00a0}", "\u{2028}", "\u{200b}", "\u{feff}", "\u{0301}", "é", "ｐ", "🎉", "\u{1f1eb}\u{1f1f7}", "A",
        "_", "-", "+", "0", "f", "F", "g", "\u{0}", "\\",
    ]

    static let validLinkBytes: [[UInt8]] = TokenVectorTests.vectors.tokens.map { Array($0.link.utf8) }

    static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static let linkPieceBytes: [[UInt8]] = linkPieces.map { Array($0.utf8) }

    /// Mutates link text as UTF-8 bytes (cheap in debug builds); a cut through a multi-byte
    /// character becomes U+FFFD when the bytes are turned back into a `String`.
    static func mutateLink(_ text: inout [UInt8], _ rng: inout SplitMix64) {
        switch rng.below(6) {
        case 0:  // replace a byte with a piece
            guard !text.isEmpty else { return }
            let at = rng.below(text.count)
            text.replaceSubrange(at...at, with: linkPieceBytes[rng.below(linkPieceBytes.count)])
        case 1:  // insert a piece
            text.insert(contentsOf: linkPieceBytes[rng.below(linkPieceBytes.count)], at: rng.below(text.count + 1))
        case 2:  // truncate
            text.removeLast(rng.below(text.count + 1))
        case 3:  // delete a run
            guard !text.isEmpty else { return }
            let start = rng.below(text.count)
            text.removeSubrange(start..<min(text.count, start + 1 + rng.below(6)))
        case 4:  // flip a bit
            guard !text.isEmpty else { return }
            text[rng.below(text.count)] ^= 1 << rng.below(8)
        default:  // surround with (whitespace-like) pieces
            text =
                linkPieceBytes[rng.below(linkPieceBytes.count)] + text
                + linkPieceBytes[rng.below(linkPieceBytes.count)]
        }
    }

    /// Parses `text`; records an issue when an accepted link does not read back as the input.
    static func checkLink(_ text: String, context: @autoclosure () -> String) -> Bool {
        let link: ShareLink
        do {
            link = try ShareLink(parsing: text)
        } catch {
            if error.message.isEmpty { Issue.record("\(context()): empty error message") }
            return false
        }
        let canonical = link.text
        // The input, trimmed, is the canonical text up to the case of the prefix and the doc id.
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let hash = trimmed.firstIndex(of: "#"), let canonicalHash = canonical.firstIndex(of: "#") else {
            Issue.record("\(context()): accepted without '#': \(text.debugDescription)")
            return true
        }
        if trimmed[hash...] != canonical[canonicalHash...]
            || trimmed[..<hash].lowercased() != canonical[..<canonicalHash]
        {
            Issue.record("\(context()): accepted \(text.debugDescription) but writes \(canonical)")
        }
        if (try? ShareLink(parsing: canonical)) != link {
            Issue.record("\(context()): the canonical text of \(text.debugDescription) does not parse back")
        }
        if Base64URL.encode(link.token.encoded) != String(canonical[canonical.index(after: canonicalHash)...]) {
            Issue.record("\(context()): token bytes and fragment disagree")
        }
        return true
    }

    @Test func linkParserSurvivesRandomInput() {
        var rng = SplitMix64(seed: 0x504c_4354_0002)
        var accepted = 0
        for iteration in 0..<Self.linkInputs {
            let text: String
            switch rng.below(8) {
            case 0:  // random pieces
                text = (0..<rng.below(12)).map { _ in Self.linkPieces[rng.below(Self.linkPieces.count)] }.joined()
            case 1:  // a valid prefix and doc, then random base64url-ish characters
                let doc = TokenVectorTests.vectors.tokens[0].fields.doc
                let fragment = rng.bytes(rng.below(700)).map { Self.base64URLAlphabet[Int($0 & 63)] }
                text = "places://join/\(doc)#" + String(decoding: fragment, as: UTF8.self)
            case 2:  // a link around a mutated token
                var bytes = Self.corpus[rng.below(Self.corpus.count)]
                bytes = Self.mutate(bytes, &rng)
                let doc = bytes.count >= 21 ? HexCoding.encode(bytes[5..<21]) : String(repeating: "0", count: 32)
                text = "places://join/\(doc)#" + Base64URL.encode(bytes)
            default:
                var link = Self.validLinkBytes[rng.below(Self.validLinkBytes.count)]
                for _ in 0...rng.below(2) { Self.mutateLink(&link, &rng) }
                text = String(decoding: link, as: UTF8.self)
            }
            if Self.checkLink(text, context: "link input \(iteration)") { accepted += 1 }
        }
        #expect(accepted > Self.linkInputs / 100, "only \(accepted) links parsed")
    }

    /// Every file in `Regressions/` still fails cleanly or round-trips.
    @Test func regressionsStillPass() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.contains("README.md"))
        for name in names where name.hasPrefix("token-") || name.hasPrefix("link-") {
            let contents = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if name.hasPrefix("token-") {
                let hex = contents.filter { !$0.isWhitespace }
                let bytes = try #require(HexCoding.decode(hex), "\(name) is not hex")
                Self.checkToken(bytes, context: name)
            } else {
                _ = Self.checkLink(contents, context: name)
            }
        }
    }
}
