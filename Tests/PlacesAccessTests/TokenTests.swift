import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess

@Suite("Capability tokens and share links")
struct TokenTests {
    static let doc = DocumentID(bytes: Array(0..<16))!
    static let documentKey = [UInt8](repeating: 0x5a, count: 32)
    static let start: Int64 = 1_775_808_000_000
    static let day: Int64 = 86_400_000

    static func fullToken(issuer: SigningKeyPair, audience: PublicKey) throws -> CapabilityToken {
        try CapabilityToken.issue(
            doc: doc, role: .editor, by: issuer, audience: audience, notBeforeMs: start, expiresMs: start + day,
            uses: 2, addressHints: ["10.0.0.2:7420", "[::1]:7420"], epoch: 3, documentKey: documentKey)
    }

    @Test func minimalTokenRoundTrips() throws {
        let issuer = try SigningKeyPair()
        let token = try CapabilityToken.issue(
            doc: Self.doc, role: .viewer, by: issuer, notBeforeMs: Self.start, epoch: 1, documentKey: Self.documentKey)
        #expect(token.encoded.count == CapabilityToken.minEncodedSize)
        #expect(token.tokenID.count == 16)
        #expect(token.id.count == 32)
        #expect(token.id == HexCoding.encode(token.tokenID))
        #expect(token.issuer == issuer.publicKey)
        let decoded = try CapabilityToken(decoding: token.encoded)
        #expect(decoded == token)
        #expect(decoded.encoded == token.encoded)
        #expect(decoded.isSignatureValid)
        try decoded.check(nowMs: Self.start, presenter: nil)
    }

    @Test func fullTokenRoundTripsThroughALink() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let token = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        let link = ShareLink(token: token)
        #expect(link.text.hasPrefix("places://join/\(Self.doc.hex)#"))
        let parsed = try ShareLink(parsing: link.text)
        #expect(parsed == link)
        #expect(parsed.token.addressHints == ["10.0.0.2:7420", "[::1]:7420"])
        #expect(parsed.token.uses == 2)
        #expect(parsed.token.audience == joiner.publicKey)
        try parsed.token.check(nowMs: Self.start + 1, presenter: joiner.publicKey)
    }

    @Test func tokenIDsAreRandomUnlessGiven() throws {
        let issuer = try SigningKeyPair()
        let a = try CapabilityToken.issue(
            doc: Self.doc, role: .viewer, by: issuer, notBeforeMs: 0, epoch: 1, documentKey: Self.documentKey)
        let b = try CapabilityToken.issue(
            doc: Self.doc, role: .viewer, by: issuer, notBeforeMs: 0, epoch: 1, documentKey: Self.documentKey)
        #expect(a.tokenID != b.tokenID)
        let fixed = try CapabilityToken.issue(
            doc: Self.doc, role: .viewer, by: issuer, notBeforeMs: 0, epoch: 1, documentKey: Self.documentKey,
            tokenID: Array(repeating: 7, count: 16))
        #expect(fixed.id == String(repeating: "07", count: 16))
    }

    @Test func issueRefusesFieldsOutsideTheFormat() throws {
        let issuer = try SigningKeyPair()
        func issue(
            notBeforeMs: Int64 = 0, expiresMs: Int64? = nil, uses: UInt32? = nil, hints: [String] = [],
            key: [UInt8] = TokenTests.documentKey, tokenID: [UInt8]? = nil
        ) throws(AccessError) {
            _ = try CapabilityToken.issue(
                doc: Self.doc, role: .editor, by: issuer, notBeforeMs: notBeforeMs, expiresMs: expiresMs, uses: uses,
                addressHints: hints, epoch: 1, documentKey: key, tokenID: tokenID)
        }
        let cases: [(String, () throws(AccessError) -> Void)] = [
            ("not_before", { () throws(AccessError) in try issue(notBeforeMs: -1) }),
            ("expires", { () throws(AccessError) in try issue(notBeforeMs: 5, expiresMs: 5) }),
            ("uses", { () throws(AccessError) in try issue(uses: 0) }),
            ("hints", { () throws(AccessError) in try issue(hints: ["a:1", "b:1", "c:1", "d:1", "e:1"]) }),
            ("hints[0]", { () throws(AccessError) in try issue(hints: [""]) }),
            ("hints[1]", { () throws(AccessError) in try issue(hints: ["a:1", String(repeating: "é", count: 33)]) }),
            ("doc_key", { () throws(AccessError) in try issue(key: [1, 2, 3]) }),
            ("token_id", { () throws(AccessError) in try issue(tokenID: [1]) }),
        ]
        for (field, attempt) in cases {
            let error = #expect(throws: AccessError.self) { try attempt() }
            #expect(error?.code == .malformed)
            #expect(error?.message.contains(field) == true, "\(error?.message ?? "") should mention \(field)")
        }
        // The limits themselves are fine.
        try issue(
            notBeforeMs: 0, expiresMs: .max, uses: 1,
            hints: [String(repeating: "h", count: 62) + ":1", "a:1", "b:1", "[::1]:1"])
    }

    @Test func checkEnforcesTheTimeWindow() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let token = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        try token.check(nowMs: Self.start, presenter: joiner.publicKey)
        try token.check(nowMs: Self.start + Self.day - 1, presenter: joiner.publicKey)
        let early = #expect(throws: AccessError.self) { try token.check(nowMs: Self.start - 1, presenter: nil) }
        #expect(early?.code == .notYetValid)
        let late = #expect(throws: AccessError.self) { try token.check(nowMs: Self.start + Self.day, presenter: nil) }
        #expect(late?.code == .expired)
        #expect(late?.message.contains("new one") == true)

        let forever = try CapabilityToken.issue(
            doc: Self.doc, role: .viewer, by: issuer, notBeforeMs: 0, epoch: 1, documentKey: Self.documentKey)
        try forever.check(nowMs: .max, presenter: nil)
    }

    @Test func checkEnforcesTheAudience() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let stranger = try SigningKeyPair()
        let token = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        let error = #expect(throws: AccessError.self) {
            try token.check(nowMs: Self.start, presenter: stranger.publicKey)
        }
        #expect(error?.code == .wrongAudience)
        // Without a presenter the audience is not checked (the join op's author is, later).
        try token.check(nowMs: Self.start, presenter: nil)

        let open = try CapabilityToken.issue(
            doc: Self.doc, role: .viewer, by: issuer, notBeforeMs: 0, epoch: 1, documentKey: Self.documentKey)
        try open.check(nowMs: Self.start, presenter: stranger.publicKey)
    }

    @Test func changedFieldsBreakTheSignature() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let token = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        var promoted = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        promoted.role = .viewer
        promoted.signature = token.signature
        var longer = token
        longer.expiresMs = nil
        var forged = token
        forged.issuer = joiner.publicKey
        for changed in [promoted, longer, forged] {
            #expect(!changed.isSignatureValid)
            let error = #expect(throws: AccessError.self) { try changed.check(nowMs: Self.start, presenter: nil) }
            #expect(error?.code == .badSignature)
        }
        var broken = token
        broken.documentKey = [1]
        #expect(!broken.isSignatureValid)
        #expect(
            (#expect(throws: AccessError.self) { try broken.check(nowMs: Self.start, presenter: nil) })?.code
                == .malformed)
    }

    /// Flipping any bit of any byte yields bytes that either do not decode or do not verify.
    @Test func everyTamperedByteIsRefused() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let token = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        let bytes = token.encoded
        var decodedButRefused = 0
        for index in bytes.indices {
            for bit in 0..<8 {
                var tampered = bytes
                tampered[index] ^= 1 << bit
                guard let decoded = try? CapabilityToken(decoding: tampered) else { continue }
                decodedButRefused += 1
                #expect(!decoded.isSignatureValid, "byte \(index) bit \(bit)")
                #expect(throws: AccessError.self) { try decoded.check(nowMs: Self.start, presenter: nil) }
                #expect(decoded.encoded == tampered)
            }
        }
        #expect(decodedButRefused > bytes.count)
    }

    @Test func lengthsOutsideTheLayoutAreRefusedWithTheirField() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let bytes = try Self.fullToken(issuer: issuer, audience: joiner.publicKey).encoded
        for length in 0..<bytes.count {
            let error = #expect(throws: AccessError.self) { try CapabilityToken(decoding: Array(bytes.prefix(length))) }
            #expect(error?.code == .malformed)
            #expect(error?.message.contains("cut short") == true, "\(error?.message ?? "")")
        }
        let long = #expect(throws: AccessError.self) {
            try CapabilityToken(decoding: [UInt8](repeating: 0, count: CapabilityToken.maxEncodedSize + 1))
        }
        #expect(long?.message.contains("more than") == true)
    }

    @Test func linkErrorsSayWhatToDo() throws {
        let issuer = try SigningKeyPair()
        let joiner = try SigningKeyPair()
        let token = try Self.fullToken(issuer: issuer, audience: joiner.publicKey)
        let text = ShareLink(token: token).text
        let prefix = "places://join/\(Self.doc.hex)#"
        let hash = try #require(text.firstIndex(of: "#"))
        let cases: [(String, AccessError.Code, String)] = [
            ("", .malformed, "empty"),
            (String(text[..<hash]), .malformed, "copy the whole link"),
            (String(text[...hash]), .malformed, "no token after '#'"),
            ("http://x.example/" + text, .malformed, "web address"),
            ("places://join/abc#" + text[text.index(after: hash)...], .malformed, "3 hex digits instead of 32"),
            (
                text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+",
                .malformed, "base64url"
            ),
            (prefix + Base64URL.encode(Array(token.encoded.dropLast(3))), .malformed, "cut short"),
            (prefix + Base64URL.encode(token.encoded + [0, 0, 0]), .malformed, "trailing"),
            (String(repeating: "x", count: 70_000), .malformed, "longer than any Places link"),
            (
                text.replacingOccurrences(of: Self.doc.hex, with: String(repeating: "ab", count: 16)), .wrongDocument,
                "ask for a new one"
            ),
        ]
        for (input, code, mention) in cases {
            let error = #expect(throws: AccessError.self) { try ShareLink(parsing: input) }
            #expect(error?.code == code, "\(input.prefix(40)): \(error?.description ?? "")")
            #expect(error?.message.contains(mention) == true, "\(error?.message ?? "") should mention \(mention)")
        }
    }

    @Test func base64URLRoundTripsEveryLength() throws {
        var bytes: [UInt8] = []
        for length in 0..<70 {
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try Base64URL.decode(Array(text.utf8)).get() == bytes)
            bytes.append(UInt8(truncatingIfNeeded: length &* 37 &+ 11))
        }
        #expect(Base64URL.encode(Array("hello?>".utf8)) == "aGVsbG8_Pg")
        #expect(Base64URL.decode(Array("aGVsbG8_Ph".utf8)) == .failure(.nonCanonicalEnd))
        #expect(Base64URL.decode(Array("aGVsbG8_Pg==".utf8)) == .failure(.padding(position: 10)))
        #expect(Base64URL.decode(Array("A".utf8)) == .failure(.impossibleLength(1)))
    }
}
