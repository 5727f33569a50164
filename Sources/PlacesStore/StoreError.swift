/// The one error type of `PlacesStore`: a code, a message that says what to do next, and
/// the underlying cause (a GRDB or crypto error) when there is one.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// The database file could not be opened or migrated.
        case unavailable
        /// A document, entity or key that was asked for does not exist.
        case notFound
        /// The op is malformed, has a bad signature, or breaks sequence rules.
        case invalidOp
        /// The document key for an op's epoch is not held (logged out, or not a member).
        case missingKey
        /// SQLite failed while reading or writing.
        case database
    }

    public var code: Code
    public var message: String
    public var cause: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String {
        cause.map { "\(code.rawValue): \(message) (\($0))" } ?? "\(code.rawValue): \(message)"
    }
}
