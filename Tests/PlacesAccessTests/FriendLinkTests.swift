import PlacesCrypto
import Testing

@testable import PlacesAccess

/// Friend links (`Protocol/capabilities.md` §6): what a redeemer's daemon and the owner's
/// daemon accept.
@Suite struct FriendLinkTests {
    @Test func aLinkRoundTripsThroughItsText() throws {
        let ana = try SigningKeyPair()
        let link = FriendLink.issue(by: ana, expiresMs: 2_000_000_000_000)
        #expect(link.token.count == 121 && link.text.hasPrefix("places://friend/"))
        let parsed = try FriendLink(parsing: "  \(link.text.uppercased().prefix(16))\(link.text.dropFirst(16))\n")
        #expect(parsed.owner == ana.publicKey && parsed.expiresMs == 2_000_000_000_000 && parsed.token == link.token)
        try parsed.check(nowMs: 1_999_999_999_999)
        #expect(throws: AccessError.self) { try parsed.check(nowMs: 2_000_000_000_000) }
    }

    @Test func anyChangedByteIsRefused() throws {
        let link = FriendLink.issue(by: try SigningKeyPair(), expiresMs: 2_000_000_000_000)
        for index in link.token.indices {
            var token = link.token
            token[index] ^= 0x01
            #expect(throws: AccessError.self) { try FriendLink(token: token) }
        }
        #expect(throws: AccessError.self) { try FriendLink(token: Array(link.token.dropLast())) }
        #expect(throws: AccessError.self) { try FriendLink(parsing: "places://join/abc") }
        #expect(throws: AccessError.self) { try FriendLink(parsing: "places://friend/!!!") }
        #expect(throws: AccessError.self) { try FriendLink(parsing: String(repeating: "a", count: 10_000)) }
    }
}
