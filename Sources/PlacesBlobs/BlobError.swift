/// The one error type of `PlacesBlobs`: a stable code, a message that says what to do
/// next, and the underlying cause when there is one (an errno text, a libsodium failure).
public struct BlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on (and to map onto wire errors).
    public enum Code: String, Sendable, Equatable {
        /// The blob, or the chunk, is larger than the store accepts.
        case tooLarge
        /// Storing the bytes would take the store past its quota.
        case quotaExceeded
        /// No blob with this id is stored.
        case notFound
        /// The received bytes do not hash to the id they were sent for; they were discarded.
        case hashMismatch
        /// A chunk or a read starts somewhere other than where it must (negative, past the
        /// end, or not where the partial download stops).
        case wrongOffset
        /// The file system failed (full disk, permissions, …).
        case io
        /// A stored file was altered or truncated, or the store's key does not open it.
        case corrupt
    }

    /// What went wrong.
    public var code: Code
    /// What happened and what to do next, for a person.
    public var message: String
    /// The lower-level failure, when there is one.
    public var cause: String?

    /// An error with `code` and `message`, and optionally the lower-level `cause`.
    public init(_ code: Code, _ message: String, cause: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String {
        cause.map { "\(code.rawValue): \(message) (\($0))" } ?? "\(code.rawValue): \(message)"
    }
}
