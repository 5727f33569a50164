/// One step of `XMLReader`.
enum XMLEvent {
    /// A start tag (an empty-element tag gives `start` then `end`). `offset` is where its `<` is.
    case start(name: String, attributes: [(name: String, value: String)], offset: Int)
    case end(name: String)
    /// Character data inside the root element: text with its references resolved, or a
    /// CDATA section's content.
    case text(String)
}

/// A small strict XML 1.0 pull reader for KML and GPX. It reads elements, attributes, text,
/// CDATA, comments and processing instructions, the five predefined entities and numeric
/// character references, and refuses what a hostile file would use: a DOCTYPE that declares
/// entities (nothing is ever expanded or fetched), nesting deeper than `ImportLimits.maxDepth`,
/// oversized names and attributes, undefined entities, and anything not well-formed, naming
/// the line and column.
struct XMLReader {
    let text: SourceText
    private var bytes: [UInt8] { text.bytes }
    private var pos: Int
    /// The open elements, innermost last, with where each started.
    private(set) var open: [(name: String, offset: Int)] = []
    private var pendingEnd: String?
    private var sawRoot = false
    private var sawDoctype = false

    init(_ text: SourceText) {
        self.text = text
        pos = text.start
    }

    /// The reader's position in words, for errors found by the caller.
    var position: String { text.position(pos) }

    func error(_ message: String, at offset: Int) -> ImportError {
        ImportError(field: text.position(offset), message: message)
    }

    /// The next event, or nil at the end of a well-formed document.
    mutating func next() throws(ImportError) -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name: name)
        }
        while true {
            guard pos < bytes.count else {
                if let unclosed = open.last {
                    throw error("unclosed <\(unclosed.name)>: the file ends before its end tag", at: unclosed.offset)
                }
                guard sawRoot else { throw error("the file holds no XML element", at: pos) }
                return nil
            }
            if bytes[pos] != UInt8(ascii: "<") {
                guard open.isEmpty else { return .text(try characterData()) }
                skipSpace()
                if pos < bytes.count && bytes[pos] != UInt8(ascii: "<") {
                    throw error(
                        sawRoot ? "text after the root element" : "text before the root element: is this XML?", at: pos)
                }
                continue
            }
            let start = pos
            guard pos + 1 < bytes.count else { throw error("the file ends inside a tag", at: start) }
            switch bytes[pos + 1] {
            case UInt8(ascii: "/"): return try endTag()
            case UInt8(ascii: "?"): try processingInstruction()
            case UInt8(ascii: "!"):
                if has("<!--") {
                    try comment()
                } else if has("<![CDATA[") {
                    guard !open.isEmpty else { throw error("CDATA outside the root element", at: start) }
                    return .text(try cdata())
                } else if has("<!DOCTYPE") {
                    try doctype()
                } else {
                    throw error("unknown markup declaration", at: start)
                }
            default: return try startTag()
            }
        }
    }

    /// Reads to the end of the element whose start tag was just returned, returning nothing
    /// (a track's thousands of points are skipped without being kept).
    mutating func skipElement() throws(ImportError) {
        let depth = open.count
        while open.count >= depth {
            guard try next() != nil else { return }
        }
    }

    private func has(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard bytes.count - pos >= n else { return false }
        let p = UnsafeBufferPointer(start: literal.utf8Start, count: n)
        return bytes[pos..<pos + n].elementsEqual(p)
    }

    private mutating func find(_ literal: StaticString, what: String, from start: Int) throws(ImportError) -> Int {
        let n = literal.utf8CodeUnitCount
        let p = UnsafeBufferPointer(start: literal.utf8Start, count: n)
        let first = p[0]
        var i = pos
        while i + n <= bytes.count {
            if bytes[i] == first && bytes[i..<i + n].elementsEqual(p) { return i }
            i += 1
        }
        throw error("unclosed \(what): the file ends first", at: start)
    }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_")
            || b == UInt8(ascii: ":") || b >= 0x80
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ".")
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    private mutating func skipSpace() {
        while pos < bytes.count && XMLReader.isSpace(bytes[pos]) { pos += 1 }
    }

    private mutating func name() throws(ImportError) -> String {
        let start = pos
        guard pos < bytes.count else { throw error("the file ends inside a tag", at: pos) }
        guard XMLReader.isNameStart(bytes[pos]) else { throw error("expected a name", at: pos) }
        while pos < bytes.count && XMLReader.isNameByte(bytes[pos]) {
            pos += 1
            guard pos - start <= ImportLimits.maxXMLNameBytes else {
                throw error("a name longer than \(ImportLimits.maxXMLNameBytes) bytes", at: start)
            }
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    private mutating func startTag() throws(ImportError) -> XMLEvent {
        let start = pos
        guard open.isEmpty ? !sawRoot : true else { throw error("a second root element", at: start) }
        pos += 1
        let tag = try name()
        var attributes: [(name: String, value: String)] = []
        while true {
            let beforeSpace = pos
            skipSpace()
            guard pos < bytes.count else { throw error("the file ends inside the tag <\(tag)>", at: start) }
            let b = bytes[pos]
            if b == UInt8(ascii: ">") || b == UInt8(ascii: "/") { break }
            guard pos > beforeSpace else { throw error("expected a space, '>' or '/>' in <\(tag)>", at: pos) }
            let attributeStart = pos
            let attribute = try name()
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "=") else {
                throw error("expected '=' after the attribute \(attribute)", at: pos)
            }
            pos += 1
            skipSpace()
            let value = try attributeValue()
            guard !attributes.contains(where: { $0.name == attribute }) else {
                throw error("the attribute \(attribute) appears twice in <\(tag)>", at: attributeStart)
            }
            attributes.append((attribute, value))
            guard attributes.count <= ImportLimits.maxXMLAttributes else {
                throw error("more than \(ImportLimits.maxXMLAttributes) attributes in <\(tag)>", at: attributeStart)
            }
        }
        let selfClosing = bytes[pos] == UInt8(ascii: "/")
        if selfClosing {
            pos += 1
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ">") else {
                throw error("expected '>' after '/'", at: pos)
            }
        }
        pos += 1
        guard open.count < ImportLimits.maxDepth else {
            throw error("elements are nested deeper than \(ImportLimits.maxDepth) levels", at: start)
        }
        sawRoot = true
        open.append((tag, start))
        if selfClosing { pendingEnd = tag }
        return .start(name: tag, attributes: attributes, offset: start)
    }

    private mutating func endTag() throws(ImportError) -> XMLEvent {
        let start = pos
        pos += 2
        let tag = try name()
        skipSpace()
        guard pos < bytes.count else { throw error("the file ends inside the end tag </\(tag)", at: start) }
        guard bytes[pos] == UInt8(ascii: ">") else { throw error("expected '>' in </\(tag)>", at: pos) }
        pos += 1
        guard let current = open.last else { throw error("</\(tag)> closes no element", at: start) }
        guard current.name == tag else {
            throw error(
                "</\(tag)> where <\(current.name)> (\(text.position(current.offset))) is still open", at: start)
        }
        open.removeLast()
        return .end(name: tag)
    }

    private mutating func attributeValue() throws(ImportError) -> String {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") else {
            throw error("an attribute value must be in quotes", at: pos)
        }
        let quote = bytes[pos]
        let start = pos
        pos += 1
        var out: [UInt8] = []
        while pos < bytes.count && bytes[pos] != quote {
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "<"): throw error("'<' in an attribute value", at: pos)
            case UInt8(ascii: "&"): try reference(into: &out)
            case 0x09, 0x0A, 0x0D:
                out.append(0x20)
                pos += 1
            default:
                guard b >= 0x20 else { throw error("control character U+00\(hex2(b)) in XML", at: pos) }
                out.append(b)
                pos += 1
            }
            guard out.count <= ImportLimits.maxXMLAttributeBytes else {
                throw error("an attribute value longer than \(ImportLimits.maxXMLAttributeBytes) bytes", at: start)
            }
        }
        guard pos < bytes.count else { throw error("the file ends inside an attribute value", at: start) }
        pos += 1
        return String(decoding: out, as: UTF8.self)
    }

    /// Text up to the next `<`, with references resolved and line ends normalized.
    private mutating func characterData() throws(ImportError) -> String {
        let start = pos
        var out: [UInt8]? = nil
        var runStart = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "<") { break }
            if b >= 0x20 && b != UInt8(ascii: "&") && b != UInt8(ascii: "]") {
                pos += 1
                continue
            }
            if b == UInt8(ascii: "]") {
                if has("]]>") { throw error("']]>' in text", at: pos) }
                pos += 1
                continue
            }
            if b == 0x09 || b == 0x0A {
                pos += 1
                continue
            }
            // '&', CR or another control character: copy what came before, then handle it.
            if out == nil { out = [] }
            out?.append(contentsOf: bytes[runStart..<pos])
            if b == UInt8(ascii: "&") {
                var decoded: [UInt8] = []
                try reference(into: &decoded)
                out?.append(contentsOf: decoded)
            } else if b == 0x0D {
                out?.append(0x0A)
                pos += 1
                if pos < bytes.count && bytes[pos] == 0x0A { pos += 1 }
            } else {
                throw error("control character U+00\(hex2(b)) in XML", at: pos)
            }
            runStart = pos
        }
        guard var out else { return String(decoding: bytes[start..<pos], as: UTF8.self) }
        out.append(contentsOf: bytes[runStart..<pos])
        return String(decoding: out, as: UTF8.self)
    }

    private func hex2(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }

    /// `&…;` at `pos`: one of the five predefined entities or a character reference.
    private mutating func reference(into out: inout [UInt8]) throws(ImportError) {
        let start = pos
        pos += 1
        var end = pos
        while end < bytes.count && end - pos < 12 && bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error("'&' must start a reference such as &amp; (write & as &amp;)", at: start)
        }
        let body = String(decoding: bytes[pos..<end], as: UTF8.self)
        pos = end + 1
        switch body {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
            var value: UInt32?
            if body.hasPrefix("#x") {
                value = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                value = UInt32(body.dropFirst(), radix: 10)
            } else {
                throw error("undefined entity &\(body); (only &lt; &gt; &amp; &quot; &apos; are defined)", at: start)
            }
            guard let value, !body.contains("+"), !body.contains("-"), let u = Unicode.Scalar(value),
                TextCleaning.isXMLChar(u)
            else { throw error("&\(body); is not a character XML allows", at: start) }
            out.append(contentsOf: String(Character(u)).utf8)
        }
    }

    private mutating func comment() throws(ImportError) {
        let start = pos
        pos += 4
        let end = try find("--", what: "comment", from: start)
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else {
            throw error("'--' inside a comment", at: end)
        }
        pos = end + 3
    }

    private mutating func cdata() throws(ImportError) -> String {
        let start = pos
        pos += 9
        let end = try find("]]>", what: "CDATA section", from: start)
        let content = bytes[pos..<end]
        pos = end + 3
        if let bad = content.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            throw error("control character U+00\(hex2(bytes[bad])) in XML", at: bad)
        }
        guard content.contains(0x0D) else { return String(decoding: content, as: UTF8.self) }
        // Line ends as in text: CR LF and CR alone become LF.
        var normalized: [UInt8] = []
        normalized.reserveCapacity(content.count)
        var previous: UInt8 = 0
        for b in content {
            if !(b == 0x0A && previous == 0x0D) { normalized.append(b == 0x0D ? 0x0A : b) }
            previous = b
        }
        return String(decoding: normalized, as: UTF8.self)
    }

    private mutating func processingInstruction() throws(ImportError) {
        let start = pos
        pos += 2
        let target = try name()
        let end = try find("?>", what: "processing instruction", from: start)
        let body = String(decoding: bytes[pos..<end], as: UTF8.self)
        pos = end + 2
        guard target.lowercased() == "xml" else { return }
        guard start == text.start, target == "xml" else {
            throw error("the XML declaration must be the first thing in the file", at: start)
        }
        if let range = body.range(of: "encoding") {
            let rest = body[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            let encoding = rest.prefix { $0 != "\"" && $0 != "'" }.lowercased()
            guard encoding == "utf-8" || encoding == "utf8" || encoding == "us-ascii" || encoding == "ascii" else {
                throw error("the file declares the encoding \(encoding.prefix(30)); save it as UTF-8", at: start)
            }
        }
    }

    /// A DOCTYPE is skipped, but one whose internal subset declares entities is refused: no
    /// entity is ever expanded, and no external one fetched.
    private mutating func doctype() throws(ImportError) {
        let start = pos
        guard !sawRoot, !sawDoctype else { throw error("a DOCTYPE must come before the root element", at: start) }
        sawDoctype = true
        pos += 9
        var quote: UInt8?
        var inSubset = false
        while pos < bytes.count {
            let b = bytes[pos]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                inSubset = true
            } else if b == UInt8(ascii: "]") {
                inSubset = false
            } else if inSubset && has("<!ENTITY") {
                throw error("the DOCTYPE declares entities; entity declarations are refused", at: pos)
            } else if b == UInt8(ascii: ">") && !inSubset {
                pos += 1
                return
            }
            pos += 1
        }
        throw error("unclosed DOCTYPE: the file ends first", at: start)
    }
}
