/// The one error type of `PlacesMedia`: a stable code and a message a user understands
/// (it reaches them through the control API when an upload is refused).
///
/// Every byte of a photo may be hostile; whatever they hold, the module answers with a
/// `MediaError`, never a crash.
public struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on.
    public enum Code: String, Sendable, Equatable {
        /// The bytes are none of the formats a photo may be (or no bytes at all).
        case notAnImage
        /// The file ends before a part its header announces (an upload cut short).
        case truncated
        /// The file claims a format but breaks its rules (a length too small, a missing header).
        case malformed
        /// A valid file this module does not take: too large, or a variant it cannot read or clean.
        case unsupported
    }

    /// What went wrong, for code.
    public var code: Code
    /// What went wrong and what to do next, for people.
    public var message: String

    /// An error with a code and a message for people.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, for logs and test output.
    public var description: String { "\(code.rawValue): \(message)" }

    static let notAnImage = MediaError(.notAnImage, "the file is not a JPEG, PNG, WebP or HEIC image")

    static let empty = MediaError(.notAnImage, "the file is empty; choose a JPEG, PNG, WebP or HEIC photo")

    /// The file ends early: the most likely cause is an interrupted upload, so say to retry.
    static func truncated(_ type: MediaType, _ part: String) -> MediaError {
        MediaError(
            .truncated, "the \(type.displayName) file ends inside its \(part); it may be cut short, upload it again")
    }

    static func malformed(_ type: MediaType, _ problem: String) -> MediaError {
        MediaError(.malformed, "the \(type.displayName) file is damaged: \(problem)")
    }

    static func unsupported(_ type: MediaType, _ problem: String) -> MediaError {
        MediaError(.unsupported, "the \(type.displayName) file can't be used: \(problem)")
    }
}
