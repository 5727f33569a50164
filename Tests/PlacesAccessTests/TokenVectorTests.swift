import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

/// Checks the Swift token codec, signatures and share links against
/// `Protocol/vectors/capabilities/token-vectors.json`, which an independent Python reference
/// (`token_vectors_reference.py`) generated from `Protocol/capabilities.md`.
@Suite("Token vectors")
struct TokenVectorTests {
    struct Vectors: Decodable {
        struct Key: Decodable {
            var name: String
            var seed: String
            var publicKey: String
            var secretKey: String
        }
        struct Fields: Decodable {
            var issuerKey: String
            var doc: String
            var role: CapabilityRole
            var audienceKey: String?
            var notBeforeMs: Int64
            var expiresMs: Int64?
            var tokenId: String
            var uses: UInt32?
            var addressHints: [String]
            var epoch: UInt32
            var documentKey: String
        }
        struct Token: Decodable {
            var name: String
            var fields: Fields
            var id: String
            var signedBytes: String
            var signature: String
            var encoded: String
            var link: String
        }
        struct InvalidToken: Decodable {
            var name: String
            var encoded: String
            var code: String
            var messageMentions: String?
        }
        struct Check: Decodable {
            var token: String
            var nowMs: Int64
            var presenterKey: String?
            var code: String?
        }
        struct InvalidLink: Decodable {
            var name: String
            var text: String
            var code: String
            var messageMentions: String
        }
        struct LinkVariant: Decodable {
            var name: String
            var text: String
            var canonical: String
        }
        var context: String
        var keys: [Key]
        var tokens: [Token]
        var invalidTokens: [InvalidToken]
        var checks: [Check]
        var invalidLinks: [InvalidLink]
        var linkVariants: [LinkVariant]
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/capabilities/token-vectors.json")
        do {
            return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    static func bytes(_ hex: String) -> [UInt8] {
        guard let raw = HexCoding.decode(hex) else { fatalError("bad hex in the vectors: \(hex.prefix(16))…") }
        return raw
    }

    static func key(_ name: String) throws -> Vectors.Key {
        try #require(vectors.keys.first { $0.name == name }, "no key \(name) in the vectors")
    }

    static func keyPair(_ name: String) throws -> SigningKeyPair {
        let key = try key(name)
        let pair = try SigningKeyPair(secretKey: bytes(key.seed) + bytes(key.publicKey))
        #expect(pair.publicKey.hex == key.publicKey)
        return pair
    }

    static func publicKey(_ name: String) throws -> PublicKey {
        try PublicKey(bytes: bytes(try key(name).publicKey))
    }

    static func token(_ name: String) throws -> CapabilityToken {
        let v = try #require(vectors.tokens.first { $0.name == name }, "no token \(name) in the vectors")
        return try CapabilityToken(decoding: bytes(v.encoded))
    }

    @Test(arguments: vectors.tokens.map(\.name))
    func issuingReproducesTheVector(_ name: String) throws {
        let v = try #require(Self.vectors.tokens.first { $0.name == name })
        let f = v.fields
        let doc = try #require(DocumentID(hex: f.doc))
        let token = try CapabilityToken.issue(
            doc: doc, role: f.role, by: try Self.keyPair(f.issuerKey),
            audience: try f.audienceKey.map(Self.publicKey), notBeforeMs: f.notBeforeMs, expiresMs: f.expiresMs,
            uses: f.uses, addressHints: f.addressHints, epoch: f.epoch, documentKey: Self.bytes(f.documentKey),
            tokenID: Self.bytes(f.tokenId))

        #expect(HexCoding.encode(token.signedBytes) == v.signedBytes)
        #expect(HexCoding.encode(token.signedBytes.prefix(15)) == Self.vectors.context)
        #expect(HexCoding.encode(token.signature) == v.signature)
        #expect(HexCoding.encode(token.encoded) == v.encoded)
        #expect(token.id == v.id)
        #expect(ShareLink(token: token).text == v.link)
        #expect(token.isSignatureValid)
    }

    @Test(arguments: vectors.tokens.map(\.name))
    func decodingReproducesTheFields(_ name: String) throws {
        let v = try #require(Self.vectors.tokens.first { $0.name == name })
        let f = v.fields
        let token = try CapabilityToken(decoding: Self.bytes(v.encoded))
        #expect(token.doc.hex == f.doc)
        #expect(token.role == f.role)
        #expect(token.issuer == (try Self.publicKey(f.issuerKey)))
        #expect(token.audience == (try f.audienceKey.map(Self.publicKey)))
        #expect(token.notBeforeMs == f.notBeforeMs)
        #expect(token.expiresMs == f.expiresMs)
        #expect(token.id == f.tokenId)
        #expect(token.uses == f.uses)
        #expect(token.addressHints == f.addressHints)
        #expect(token.epoch == f.epoch)
        #expect(HexCoding.encode(token.documentKey) == f.documentKey)
        #expect(HexCoding.encode(token.encoded) == v.encoded)
        #expect(token.isSignatureValid)

        let link = try ShareLink(parsing: v.link)
        #expect(link.token == token)
        #expect(link.text == v.link)
    }

    @Test(arguments: vectors.invalidTokens.map(\.name))
    func invalidTokenIsRefused(_ name: String) throws {
        let v = try #require(Self.vectors.invalidTokens.first { $0.name == name })
        let error = try #require(throws: AccessError.self) {
            let token = try CapabilityToken(decoding: Self.bytes(v.encoded))
            // Format-valid cases must fail the signature check instead.
            try token.check(nowMs: token.notBeforeMs, presenter: token.audience)
        }
        #expect(error.code.rawValue == v.code, "\(error)")
        if let mention = v.messageMentions {
            #expect(error.message.contains(mention), "\(error.message) should mention \(mention)")
        }
    }

    @Test func checksFollowTheVectors() throws {
        for c in Self.vectors.checks {
            let token = try Self.token(c.token)
            let presenter = try c.presenterKey.map(Self.publicKey)
            do {
                try token.check(nowMs: c.nowMs, presenter: presenter)
                #expect(c.code == nil, "\(c.token) at \(c.nowMs) passed, expected \(c.code ?? "")")
            } catch {
                #expect(error.code.rawValue == c.code, "\(c.token) at \(c.nowMs): \(error)")
            }
        }
    }

    @Test(arguments: vectors.invalidLinks.map(\.name))
    func invalidLinkIsRefused(_ name: String) throws {
        let v = try #require(Self.vectors.invalidLinks.first { $0.name == name })
        let error = try #require(throws: AccessError.self) { try ShareLink(parsing: v.text) }
        #expect(error.code.rawValue == v.code, "\(error)")
        #expect(error.message.contains(v.messageMentions), "\(error.message) should mention \(v.messageMentions)")
    }

    @Test(arguments: vectors.linkVariants.map(\.name))
    func linkVariantParses(_ name: String) throws {
        let v = try #require(Self.vectors.linkVariants.first { $0.name == name })
        #expect(try ShareLink(parsing: v.text).text == v.canonical)
    }
}
