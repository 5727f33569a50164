/// The error of the app server: a stable code, a message that says what to do next, and
/// the underlying failure when there is one (NIO's, the file system's).
public struct WebError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable name.
    public enum Code: String, Sendable {
        /// `--listen` is not `HOST:PORT` with a loopback host.
        case invalidListenAddress = "invalid-listen-address"
        /// The tile URL template is not http(s) with `{z}`, `{x}` and `{y}`.
        case invalidTiles = "invalid-tiles"
        /// The listen address could not be bound (in use, or not on this machine).
        case bindFailed = "bind-failed"
        /// The app's files were not found.
        case webRootMissing = "web-root-missing"
    }

    /// The stable code.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The failure this one wraps, if any.
    public var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: what went wrong and what to do next.
    ///   - cause: the failure underneath.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}
