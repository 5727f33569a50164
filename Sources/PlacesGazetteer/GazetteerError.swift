/// Why the gazetteer could not be found or read: a message that says what is wrong and
/// where (the file and line), for the daemon to log and return.
public struct GazetteerError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public enum Code: String, Sendable {
        /// No gazetteer file at any of the places looked at.
        case notFound = "not-found"
        /// The file could not be read.
        case unreadable
        /// The file is not a gazetteer of a format this build reads, or a line is malformed.
        case malformed
    }

    /// What kind of failure this is.
    public var code: Code
    /// What is wrong, in words, naming the file and line.
    public var message: String
    /// The 1-based line of the file at fault, when there is one.
    public var line: Int?

    /// An error with this code and message.
    public init(_ code: Code, _ message: String, line: Int? = nil) {
        self.code = code
        self.message = message
        self.line = line
    }

    public var description: String { message }
}
