import PlacesModel

/// A share link: a capability token in text form, for pasting into a message.
///
/// `places://join/<doc id, 32 lowercase hex>#<token, unpadded base64url>`
/// (`Protocol/capabilities.md` §3). The document id in the path lets a reader see which
/// document a link is for before decoding the token; it must match the token's.
public struct ShareLink: Sendable, Hashable {
    /// The token the link carries.
    public var token: CapabilityToken

    /// The prefix every share link starts with.
    static let prefix = "places://join/"
    /// The longest text that can be a share link (a maximal token), before trimming.
    static let maxTextBytes = prefix.utf8.count + 32 + 1 + (CapabilityToken.maxEncodedSize * 4 + 2) / 3

    /// Wraps a token.
    public init(token: CapabilityToken) {
        self.token = token
    }

    /// The link as text: `places://join/<doc hex>#<base64url token>`.
    public var text: String {
        Self.prefix + token.doc.hex + "#" + Base64URL.encode(token.encoded)
    }

    /// Parses a share link, as pasted by a user: surrounding whitespace is ignored, the
    /// `places://join/` prefix is matched without regard to ASCII case, and the document id
    /// may be in upper or lower case. The token is format-checked (see
    /// ``CapabilityToken/init(decoding:)``) but its signature and validity period are not;
    /// use ``CapabilityToken/check(nowMs:presenter:)``.
    ///
    /// - Throws: `AccessError` `.malformed` (with a message saying what is wrong with the
    ///   text) or `.wrongDocument` when the path's document is not the token's.
    public init(parsing text: String) throws(AccessError) {
        guard text.utf8.count <= 65_536 else {
            throw AccessError(
                .malformed,
                "the text is \(text.utf8.count) bytes long, longer than any Places link: paste only the link")
        }
        let trimmed = Array(Self.trimmingWhitespace(text).utf8)
        guard !trimmed.isEmpty else {
            throw AccessError(.malformed, "the link is empty: paste the whole places://join/… link")
        }
        guard trimmed.count <= Self.maxTextBytes else {
            throw AccessError(
                .malformed,
                "the text is \(trimmed.count) bytes long, longer than any Places link (at most \(Self.maxTextBytes)):"
                    + " paste only the link")
        }
        let prefix = Array(Self.prefix.utf8)
        guard trimmed.count >= prefix.count, Self.equalIgnoringASCIICase(trimmed[..<prefix.count], prefix) else {
            throw AccessError(.malformed, Self.prefixProblem(trimmed))
        }
        let rest = trimmed[prefix.count...]
        guard let hash = rest.firstIndex(of: UInt8(ascii: "#")) else {
            throw AccessError(
                .malformed, "the link has no token after '#': copy the whole link, including the part after '#'")
        }
        let path = rest[..<hash]
        let fragment = rest[(hash + 1)...]
        let pathDoc = try Self.documentID(path)
        guard !fragment.isEmpty else {
            throw AccessError(
                .malformed, "the link has no token after '#': copy the whole link, including the part after '#'")
        }
        let tokenBytes: [UInt8]
        switch Base64URL.decode(fragment) {
        case .success(let bytes):
            tokenBytes = bytes
        case .failure(let failure):
            throw AccessError(.malformed, Self.fragmentProblem(failure))
        }
        let token: CapabilityToken
        do {
            token = try CapabilityToken(decoding: tokenBytes)
        } catch {
            throw AccessError(error.code, "the link's token is damaged (\(error.message))")
        }
        guard token.doc == pathDoc else {
            throw AccessError(
                .wrongDocument,
                "the link names document \(pathDoc.hex) but its token is for document \(token.doc.hex):"
                    + " the link was edited; ask for a new one")
        }
        self.token = token
    }

    private static func documentID(_ path: ArraySlice<UInt8>) throws(AccessError) -> DocumentID {
        if let slash = path.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) {
            let char = Character(Unicode.Scalar(path[slash]))
            throw AccessError(
                .malformed,
                "the link's document id is followed by '\(char)'; a share link is places://join/<32 hex digits>#<token>"
            )
        }
        if let bad = path.firstIndex(where: { !Self.isHexDigit($0) }) {
            throw AccessError(
                .malformed,
                "the link's document id contains \(describe(path[bad])) at position \(bad - path.startIndex + 1),"
                    + " which is not a hex digit: copy the link again")
        }
        guard path.count == 32 else {
            throw AccessError(
                .malformed,
                "the link's document id has \(path.count) hex digits instead of 32: copy the whole link")
        }
        guard let doc = DocumentID(hex: String(decoding: path, as: UTF8.self)) else {
            throw AccessError(.malformed, "the link's document id is not 32 hex digits: copy the whole link")
        }
        return doc
    }

    private static func prefixProblem(_ text: [UInt8]) -> String {
        let lower = text.prefix(16).map { isASCIIUpper($0) ? $0 + 32 : $0 }
        if lower.starts(with: "http://".utf8) || lower.starts(with: "https://".utf8) {
            return "this is a web address, not a Places link: a share link starts with places://join/"
        }
        if lower.starts(with: "places:".utf8) {
            return "this places: link is not a share link: a share link starts with places://join/"
        }
        return "this is not a Places share link: a share link starts with places://join/ (copy the whole link)"
    }

    private static func fragmentProblem(_ failure: Base64URL.DecodingFailure) -> String {
        switch failure {
        case .padding:
            "the token after '#' ends in '=' padding, which Places links never contain: the link was changed"
        case .invalidCharacter(let char, let position):
            if char == UInt8(ascii: " ") || char == UInt8(ascii: "\n") || char == UInt8(ascii: "\r")
                || char == UInt8(ascii: "\t")
            {
                "the token after '#' contains \(describe(char)) at position \(position + 1):"
                    + " remove the line breaks or spaces a message app added inside the link"
            } else {
                "the token after '#' contains \(describe(char)) at position \(position + 1), which is not"
                    + " a base64url character (A-Z a-z 0-9 - _): the link was changed; copy it again"
            }
        case .impossibleLength(let length):
            "the token after '#' has \(length) characters, a length no token has: the link was cut off;"
                + " copy the whole link"
        case .nonCanonicalEnd:
            "the token after '#' ends in a character that is not a valid last character:"
                + " the link was changed or cut off; copy it again"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: " "): "a space"
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): "a line break"
        case UInt8(ascii: "\t"): "a tab"
        case 0x21...0x7e: "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...0xff: "a non-ASCII character"
        default: "a control character"
        }
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c)
    }

    private static func isASCIIUpper(_ c: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
    }

    static func equalIgnoringASCIICase(_ lhs: ArraySlice<UInt8>, _ rhs: [UInt8]) -> Bool {
        lhs.elementsEqual(rhs) { (isASCIIUpper($0) ? $0 + 32 : $0) == $1 }
    }

    static func trimmingWhitespace(_ text: String) -> Substring {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text[start...].lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return text[start..<end]
    }
}
