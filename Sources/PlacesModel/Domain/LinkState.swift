/// The state of a share link as the control API reports it (`ShareLinkInfo.state`).
/// `revoked` wins over `expired`, which wins over `usedUp`.
public enum LinkState: String, Sendable, Hashable, Codable, CaseIterable {
    case live
    case expired
    case usedUp = "used-up"
    case revoked

    /// The state of a link from its fields and joins: revoked, else expired at `nowMs`,
    /// else used up when `redeemed` reached `uses`, else live.
    public static func of(revoked: Bool, expiresAtMs: Int64?, uses: Int?, redeemed: Int, nowMs: Int64) -> LinkState {
        if revoked { return .revoked }
        if let expiresAtMs, expiresAtMs <= nowMs { return .expired }
        if let uses, redeemed >= uses { return .usedUp }
        return .live
    }
}
