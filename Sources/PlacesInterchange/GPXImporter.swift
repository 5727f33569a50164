/// GPX 1.0 and 1.1: every `<wpt>` is a place; routes and tracks are passed over with a
/// reason (docs/import.md).
enum GPXImporter {
    static func read(_ text: SourceText) throws(ImportError) -> ImportResult {
        var reader = XMLReader(text)
        var result = ImportResult(places: [], ignored: [])
        var index = 0
        var sawRoot = false
        while let event = try reader.next() {
            guard case .start(let name, let attributes, let offset) = event else { continue }
            let local = XMLElement.localName(name)
            if !sawRoot {
                sawRoot = true
                guard local == "gpx" else {
                    throw reader.error("the root element is <\(name)>, not <gpx>: this is not a GPX file", at: offset)
                }
                continue
            }
            // Only the root's children are features (a <wpt> nested elsewhere, e.g. in an
            // extension, is not).
            guard reader.open.count == 2 else { continue }
            switch local {
            case "wpt", "rte", "trk":
                guard index < ImportLimits.maxFeatures else {
                    throw reader.error(
                        "more than \(ImportLimits.maxFeatures) waypoints, routes and tracks; at most "
                            + "\(ImportLimits.maxFeatures) are accepted in one file", at: offset)
                }
                if local == "wpt" {
                    let element = try XMLElement.read(&reader, name: name, attributes: attributes, offset: offset)
                    try add(element, index: index, reader: reader, to: &result)
                } else {
                    let kind = local == "rte" ? "route" : "track"
                    try reader.skipElement()
                    result.ignored.append(ImportIgnored(index: index, reason: "a \(kind) is not a place"))
                }
                index += 1
            default:
                try reader.skipElement()
            }
        }
        return result
    }

    private static func add(_ wpt: XMLElement, index: Int, reader: XMLReader, to result: inout ImportResult)
        throws(ImportError)
    {
        guard let latText = wpt.attribute("lat"), let lonText = wpt.attribute("lon") else {
            throw reader.error("waypoint \(index + 1): a <wpt> needs lat and lon attributes", at: wpt.offset)
        }
        let name = wpt.childText("name").flatMap { $0.trimmed.isEmpty ? nil : $0 }
        let label = name.map { " \"\(TextCleaning.line($0).prefix(60))\"" } ?? ""
        guard let lat = Double(latText.trimmed), let lon = Double(lonText.trimmed) else {
            throw reader.error(
                "waypoint \(index + 1)\(label): lat \"\(latText.prefix(30))\" and lon \"\(lonText.prefix(30))\" "
                    + "must be decimal degrees", at: wpt.offset)
        }
        if let problem = PlaceDraft.coordinateProblem(latitude: lat, longitude: lon) {
            throw reader.error("waypoint \(index + 1)\(label): \(problem)", at: wpt.offset)
        }
        guard !PlaceDraft.isNullIsland(latitude: lat, longitude: lon) else {
            result.ignored.append(ImportIgnored(index: index, reason: "waypoint \(index + 1)\(label) is at 0, 0"))
            return
        }
        var draft = PlaceDraft(name: name, latitude: lat, longitude: lon)
        let desc = wpt.childText("desc")?.trimmed ?? ""
        let cmt = wpt.childText("cmt")?.trimmed ?? ""
        // GPS units often write the same text in both.
        draft.notes = [desc, cmt].filter { !$0.isEmpty }.reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        .joined(separator: "\n\n")
        draft.url =
            wpt.children.first { $0.localName == "link" && $0.attribute("href") != nil }?.attribute("href")
            ?? wpt.childText("url")
        let extensions = wpt.child("extensions")
        var extensionCategories: [String] = []
        for element in extensions?.children ?? [] {
            switch element.localName {
            case "id": draft.sourceID = element.text
            case "address": draft.address = element.text
            case "category": extensionCategories.append(element.text)
            // Garmin's gpxx:WaypointExtension holds an <gpxx:Address> of street, city, …
            case "WaypointExtension":
                if let garmin = element.child("Address") {
                    draft.address = garmin.children.map { $0.allText.trimmed }.filter { !$0.isEmpty }
                        .joined(separator: ", ")
                }
                for category in element.child("Categories")?.children ?? [] {
                    extensionCategories.append(category.text)
                }
            default: break
            }
        }
        draft.categories = extensionCategories.isEmpty ? [wpt.childText("type")].compactMap { $0 } : extensionCategories
        result.places.append(draft.place())
    }
}
