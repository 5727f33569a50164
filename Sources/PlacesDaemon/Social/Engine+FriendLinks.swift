import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Friend links (`Protocol/capabilities.md` §6): made here, redeemed through `addFriend`.
extension Engine {
    static let friendLinkPreference = "friend.link."

    /// The token of `peer`'s friend link this person redeemed, sent with the first offer of
    /// this person's outbox to them.
    func friendLinkToken(for peer: PublicKey) -> [UInt8]? {
        guard friendState(peer) == .requested,
            let hex = try? store.preference(Self.friendLinkPreference + peer.hex), let token = HexCoding.decode(hex)
        else { return nil }
        return token
    }

    /// `POST /v1/friends/link` (`{"validHours": 1…720}`, 24 by default): a friend link whose
    /// redeemer becomes a friend without a prompt.
    func createFriendLink(_ body: [String: JSONValue]) throws -> FriendLinkResponse {
        let signer = try personSigner("make a friend link")
        if let unknown = body.keys.sorted().first(where: { $0 != "validHours" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the field is validHours")
        }
        var hours: Int64 = 24
        if let value = body["validHours"], !value.isNull {
            guard let n = value.intValue, (1...720).contains(n) else {
                throw ServiceError.invalid("validHours", "'validHours' must be a whole number from 1 to 720")
            }
            hours = n
        }
        let link = FriendLink.issue(by: signer, expiresMs: RFC3339.nowMs() + hours * 3_600_000)
        return FriendLinkResponse(link: link.text, expiresAt: RFC3339.string(ms: link.expiresMs))
    }
}
