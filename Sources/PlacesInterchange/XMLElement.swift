/// One element read whole (a KML `<Placemark>`, a GPX `<wpt>`): small trees, at most
/// `ImportLimits.maxDepth` deep because the reader refuses deeper files.
struct XMLElement {
    var name: String
    /// The name without its namespace prefix (`mwm:name` → `name`).
    var localName: String
    var attributes: [(name: String, value: String)]
    var children: [XMLElement] = []
    /// The element's own character data (text and CDATA), concatenated.
    var text = ""
    /// Where its start tag is, for errors.
    var offset: Int

    init(name: String, attributes: [(name: String, value: String)], offset: Int) {
        self.name = name
        localName = XMLElement.localName(name)
        self.attributes = attributes
        self.offset = offset
    }

    static func localName(_ name: String) -> String {
        let utf8 = name.utf8
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return String(Substring(utf8[utf8.index(after: colon)...]))
    }

    /// The value of the attribute `name` (compared without prefix), or nil.
    func attribute(_ name: String) -> String? {
        attributes.first { XMLElement.localName($0.name) == name }?.value
    }

    /// The first child called `name` (compared without prefix).
    func child(_ name: String) -> XMLElement? { children.first { $0.localName == name } }

    /// The text of the first child called `name`, or nil.
    func childText(_ name: String) -> String? { child(name)?.text }

    /// The first element called `name` at any depth below this one, in document order.
    func descendant(_ name: String) -> XMLElement? {
        for c in children {
            if c.localName == name { return c }
            if let d = c.descendant(name) { return d }
        }
        return nil
    }

    /// The text of this element and of all its descendants, in document order.
    var allText: String {
        var out = ""
        appendText(to: &out)
        return out
    }

    private func appendText(to out: inout String) {
        out += text
        for child in children { child.appendText(to: &out) }
    }

    /// Reads the rest of the element whose start event the reader just returned.
    static func read(
        _ reader: inout XMLReader, name: String, attributes: [(name: String, value: String)], offset: Int
    ) throws(ImportError) -> XMLElement {
        var stack = [XMLElement(name: name, attributes: attributes, offset: offset)]
        var elements = 1
        while let event = try reader.next() {
            switch event {
            case .start(let child, let attributes, let childOffset):
                elements += 1
                guard elements <= ImportLimits.maxXMLElementsPerFeature else {
                    throw reader.error(
                        "<\(name)> holds more than \(ImportLimits.maxXMLElementsPerFeature) elements", at: offset)
                }
                stack.append(XMLElement(name: child, attributes: attributes, offset: childOffset))
            case .text(let s):
                stack[stack.count - 1].text += s
            case .end:
                let done = stack.removeLast()
                guard !stack.isEmpty else { return done }
                stack[stack.count - 1].children.append(done)
            }
        }
        // The reader refuses a file that ends with open elements: not reached.
        return stack[0]
    }
}
