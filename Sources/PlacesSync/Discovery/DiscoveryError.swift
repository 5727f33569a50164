/// The error of LAN discovery: a stable code, a message that says what to do next, and the
/// underlying cause when a system call or NIO failed.
///
/// Two errors are equal when their code and message are; the cause is for logs only.
public struct DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on.
    public enum Code: String, Sendable, Equatable {
        /// The datagram does not start with the beacon magic: not ours, or garbage.
        case notABeacon
        /// A beacon of a protocol version this build does not speak.
        case unsupportedVersion
        /// A beacon with the right magic but a broken layout (length, name, port).
        case malformed
        /// The Ed25519 signature does not verify for the key in the beacon.
        case badSignature
        /// The beacon's timestamp is older than the allowed clock skew (a replay, or a slow clock).
        case stale
        /// The beacon's timestamp is further ahead than the allowed clock skew.
        case fromTheFuture
        /// The group address or port given to `LANDiscovery` is not usable.
        case invalidConfiguration
        /// The UDP socket could not be opened or configured.
        case socketFailed
        /// `run()` was called on an instance that already ran.
        case alreadyRunning
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

    public static func == (lhs: DiscoveryError, rhs: DiscoveryError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public var description: String {
        if let cause { return "\(code.rawValue): \(message) (\(cause))" }
        return "\(code.rawValue): \(message)"
    }
}
