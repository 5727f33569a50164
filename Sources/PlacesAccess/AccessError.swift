/// The one error type of `PlacesAccess`: a stable code, a message that says what to do
/// next (it reaches users through the CLI and the control API), and an optional cause.
public struct AccessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on.
    public enum Code: String, Sendable, Equatable {
        /// The bytes or text are not a token or link of a format this version reads.
        case malformed
        /// The token's signature is not its issuer's (tampered or forged).
        case badSignature
        /// The token's expiry has passed.
        case expired
        /// The token's not-before time has not come yet.
        case notYetValid
        /// The link's document and its token's document differ.
        case wrongDocument
        /// The token names another audience key than the one presenting it.
        case wrongAudience
        /// The issuer may not grant this role, or did not hold it.
        case notAllowed
        /// The token was used as often as it allows.
        case usedUp
        /// The token (link) was revoked.
        case revoked
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
