/// A share link presented to a peer over sync (`Protocol/sync.md` §8.2): the token without
/// its document key, and the joiner's fresh nonce. Sent by a joiner, received by a holder.
public struct JoinPresentation: Sendable, Equatable {
    /// The encoded token, its document key left out.
    public var token: [UInt8]
    public var nonce: [UInt8]

    public init(token: [UInt8], nonce: [UInt8]) {
        self.token = token
        self.nonce = nonce
    }
}
