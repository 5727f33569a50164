import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess

/// `Protocol/vectors/relay/relay-vectors.json`, which the independent Python reference
/// `relay_reference.py` writes (`Protocol/relay.md` §2): the Swift code reads every valid link
/// to the same fields, issues the same bytes from the same key and id, and refuses every
/// invalid one for the same reason.
@Suite("Relay link vectors")
struct RelayLinkVectorTests {
    struct Vectors: Decodable {
        struct Valid: Decodable {
            var name, token, text, relayKey, id: String
            var expiresMs: Int64
            var addresses: [String]
        }
        struct Invalid: Decodable { var name, token, error: String }
        var relaySeed, relayKey: String
        var valid: [Valid]
        var invalid: [Invalid]
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/relay/relay-vectors.json")
        do { return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url)) } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    static func bytes(_ hex: String) -> [UInt8] {
        guard let raw = HexCoding.decode(hex) else { fatalError("bad hex in the vectors: \(hex.prefix(16))…") }
        return raw
    }

    @Test("valid links read to the reference's fields, and issuing them again gives the same bytes")
    func valid() throws {
        let v = Self.vectors
        let relay = try SigningKeyPair(secretKey: Self.bytes(v.relaySeed) + Self.bytes(v.relayKey))
        for vector in v.valid {
            let link = try RelayLink(parsing: vector.text)
            #expect(link.token == Self.bytes(vector.token), "\(vector.name)")
            #expect(link.relay.hex == vector.relayKey && link.id == Self.bytes(vector.id))
            #expect(link.expiresMs == vector.expiresMs && link.addresses == vector.addresses)
            #expect(link.text == vector.text)
            let again = try RelayLink.issue(
                by: relay, id: link.id, addresses: vector.addresses, expiresMs: vector.expiresMs)
            #expect(again.token == link.token, "\(vector.name)")
        }
    }

    @Test("invalid links are refused for the reference's reason")
    func invalid() {
        for vector in Self.vectors.invalid {
            do {
                _ = try RelayLink(token: Self.bytes(vector.token))
                Issue.record("\(vector.name) was read")
            } catch {
                #expect(error.code.rawValue == vector.error, "\(vector.name): \(error)")
            }
        }
    }

    @Test("every truncation of a valid token is refused, never read, never a trap")
    func truncations() throws {
        let token = Self.bytes(Self.vectors.valid[0].token)
        for n in 0..<token.count { #expect((try? RelayLink(token: Array(token[..<n]))) == nil) }
    }
}
