/// Why a file was refused, whole: nothing of it is imported.
///
/// `field` says where: `Content-Type`, `body` (the file as a whole), a JSON path such as
/// `features[3].geometry.coordinates`, or a position `line 12, column 5` in an XML file.
/// `message` says what is wrong in words a user can act on.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is (see the type's description).
    public var field: String
    /// What is wrong, and what would be accepted.
    public var message: String

    /// An error at `field` saying `message`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`, as a user reads it.
    public var description: String { "\(field): \(message)" }
}
