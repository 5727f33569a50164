/// KML 2.2: every `<Placemark>` with a `<Point>` at any depth of Documents and Folders,
/// including Organic Maps' `mwm:` extended data and Google My Maps' layers (docs/import.md).
enum KMLImporter {
    private struct Container {
        var depth: Int
        var name: String?
        var isFolder: Bool
    }

    static func read(_ text: SourceText) throws(ImportError) -> ImportResult {
        var reader = XMLReader(text)
        var result = ImportResult(places: [], ignored: [])
        var containers: [Container] = []
        var index = 0
        var sawRoot = false
        while let event = try reader.next() {
            switch event {
            case .start(let name, let attributes, let offset):
                let local = XMLElement.localName(name)
                if !sawRoot {
                    sawRoot = true
                    guard local == "kml" else {
                        throw reader.error(
                            "the root element is <\(name)>, not <kml>: this is not a KML file", at: offset)
                    }
                    continue
                }
                switch local {
                case "Placemark":
                    guard index < ImportLimits.maxFeatures else {
                        throw reader.error(
                            "more than \(ImportLimits.maxFeatures) placemarks; at most \(ImportLimits.maxFeatures) "
                                + "are accepted in one file", at: offset)
                    }
                    let element = try XMLElement.read(&reader, name: name, attributes: attributes, offset: offset)
                    let folders = containers.compactMap { $0.isFolder ? $0.name : nil }
                    try add(element, index: index, folders: folders, reader: reader, to: &result)
                    index += 1
                case "Document", "Folder":
                    containers.append(Container(depth: reader.open.count, name: nil, isFolder: local == "Folder"))
                case "name" where containers.last.map({ $0.depth == reader.open.count - 1 }) ?? false:
                    let element = try XMLElement.read(&reader, name: name, attributes: attributes, offset: offset)
                    containers[containers.count - 1].name = TextCleaning.line(element.allText)
                case "Style", "StyleMap", "Schema", "ExtendedData", "GroundOverlay", "ScreenOverlay", "PhotoOverlay",
                    "NetworkLink":
                    try reader.skipElement()
                default: break
                }
            case .end:
                if let last = containers.last, last.depth == reader.open.count + 1 { containers.removeLast() }
            case .text: break
            }
        }
        return result
    }

    private static func add(
        _ placemark: XMLElement, index: Int, folders: [String], reader: XMLReader, to result: inout ImportResult
    ) throws(ImportError) {
        let extended = placemark.child("ExtendedData")
        var data: [(name: String, value: String)] = []
        var mwm: [String: XMLElement] = [:]
        for element in extended?.children ?? [] {
            if element.localName == "Data", let name = element.attribute("name") {
                data.append((name.lowercased(), element.childText("value") ?? element.allText))
            } else if element.localName == "SimpleData", let name = element.attribute("name") {
                data.append((name.lowercased(), element.text))
            } else if mwm[element.localName] == nil {
                mwm[element.localName] = element
            }
        }
        func value(_ names: String...) -> String? {
            data.first { names.contains($0.name) && !$0.value.trimmed.isEmpty }?.value
        }
        var draft = PlaceDraft(latitude: 0, longitude: 0)
        draft.name =
            nonEmpty(placemark.childText("name"))
            ?? lang(mwm["customName"]) ?? lang(mwm["name"]) ?? value("name", "title")
        draft.notes =
            nonEmpty(placemark.child("description").map { HTMLText.plain($0.text) })
            ?? lang(mwm["description"]).map(HTMLText.plain) ?? value("notes", "description")
        draft.address = nonEmpty(placemark.childText("address")) ?? value("address")
        draft.url =
            value("url", "website", "link", "google maps url")
            ?? placemark.children.first { $0.name == "atom:link" || $0.localName == "link" }?.attribute("href")
        draft.sourceID = value("id") ?? placemark.attribute("id")
        draft.openingHours = value("opening_hours", "openinghours")
        // One category per <Data name="category"> (what the exporter writes); a
        // <Data name="categories"> holds a comma-separated list.
        for (name, listed) in data where name == "category" || name == "categories" {
            draft.categories += name == "category" ? [listed] : listed.split(separator: ",").map(String.init)
        }
        for type in mwm["featureTypes"]?.children ?? [] where type.localName == "value" {
            // Organic Maps' classifier names: "historic-castle" → "castle", "amenity-fast_food" → "fast food".
            let utf8 = type.text.utf8
            let last = utf8.lastIndex(of: UInt8(ascii: "-")).map { utf8.index(after: $0) } ?? utf8.startIndex
            draft.categories.append(
                String(decoding: utf8[last...].map { $0 == UInt8(ascii: "_") ? 0x20 : $0 }, as: UTF8.self))
        }
        draft.categories += folders
        let label = draft.name.map { " \"\(TextCleaning.line($0).prefix(60))\"" } ?? ""

        guard let point = placemark.child("Point") ?? placemark.child("MultiGeometry")?.descendant("Point") else {
            let geometry = placemark.children.first {
                ["LineString", "LinearRing", "Polygon", "MultiGeometry", "Track", "MultiTrack", "Model"].contains(
                    $0.localName)
            }
            let what = geometry.map { "is a \($0.localName), not a point" } ?? "has no location"
            result.ignored.append(ImportIgnored(index: index, reason: "Placemark \(index + 1)\(label) \(what)"))
            return
        }
        guard let coordinates = point.child("coordinates") else {
            throw reader.error("Placemark \(index + 1)\(label): a <Point> without <coordinates>", at: point.offset)
        }
        let tuple = firstTuple(coordinates.text)
        let parts = tuple.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let lon = Double(parts[0]), let lat = Double(parts[1]),
            parts.count == 2 || Double(parts[2]) != nil
        else {
            throw reader.error(
                "Placemark \(index + 1)\(label): coordinates \"\(tuple.prefix(60))\" are not "
                    + "longitude,latitude[,altitude]", at: coordinates.offset)
        }
        if let problem = PlaceDraft.coordinateProblem(latitude: lat, longitude: lon) {
            throw reader.error("Placemark \(index + 1)\(label): \(problem)", at: coordinates.offset)
        }
        guard !PlaceDraft.isNullIsland(latitude: lat, longitude: lon) else {
            result.ignored.append(
                ImportIgnored(index: index, reason: "Placemark \(index + 1)\(label) is at 0, 0: no location"))
            return
        }
        draft.latitude = lat
        draft.longitude = lon
        result.places.append(draft.place())
    }

    /// The first whitespace-separated tuple of a `<coordinates>` text (a Point has one),
    /// spaces after its commas dropped ("-9.14, 38.71" written by hand reads).
    private static func firstTuple(_ text: String) -> String {
        var out: [UInt8] = []
        var afterComma = false
        for b in text.utf8 {
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D {
                if out.isEmpty || afterComma { continue }
                break
            }
            afterComma = b == UInt8(ascii: ",")
            out.append(b)
            if out.count > 200 { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The `default` language of an Organic Maps `<mwm:name>`-style element, else its first.
    private static func lang(_ element: XMLElement?) -> String? {
        guard let langs = element?.children.filter({ $0.localName == "lang" }), !langs.isEmpty else { return nil }
        return nonEmpty((langs.first { $0.attribute("code") == "default" } ?? langs[0]).text)
    }

    private static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.trimmed.isEmpty else { return nil }
        return s
    }
}
