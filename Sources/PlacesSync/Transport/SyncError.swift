/// The error of the sync transport: a stable code, a message that says what happened and
/// what to do next, and the underlying cause when NIO or the crypto layer failed.
///
/// Errors caused by a peer close only that peer's connection; they are logged with the
/// peer's id and passed to `SyncDelegate.sessionClosed(with:reason:)` as the reason.
/// Two errors are equal when their code and message are; the cause is for logs only.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on.
    public enum Code: String, Sendable, Equatable {
        /// The Noise handshake or the identity proof failed (`Protocol/handshake.md` §9).
        case handshakeFailed
        /// The handshake and `Hello` did not complete within `SyncLimits.handshakeTimeout`.
        case handshakeTimeout
        /// The peer broke the framing, fragment or message rules of `Protocol/sync.md`.
        case protocolViolation
        /// A message exceeded `SyncLimits.maxMessageBytes`.
        case messageTooLarge
        /// A transport message failed to decrypt.
        case decryptionFailed
        /// The connection was refused by policy: logged out, oneself, too many sessions or
        /// connections.
        case refused
        /// The peer shares no document and has no join in progress
        /// (`SyncDelegate.keepSession(with:)` said no after `SyncLimits.strangerGrace`).
        case stranger
        /// Nothing arrived from the peer for `SyncLimits.idleTimeout`.
        case idleTimeout
        /// The peer did not read fast enough and its outbound queue overflowed.
        case queueOverflow
        /// The connection ended on purpose: the peer said `Bye` or closed it, or this daemon
        /// disconnected (logout, shutdown).
        case closed
        /// The TCP connection could not be opened, or failed.
        case connectionFailed
        /// The service could not listen, or `run()` was called twice.
        case serviceFailed
    }

    /// What went wrong.
    public var code: Code
    /// What happened and what to do next, for people.
    public var message: String
    /// The underlying failure, if any (not part of equality).
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public static func == (lhs: SyncError, rhs: SyncError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public var description: String {
        if let cause { return "\(code.rawValue): \(message) (\(cause))" }
        return "\(code.rawValue): \(message)"
    }
}
