/// The library's places as files other tools read: GeoJSON, KML and GPX. Each is valid
/// UTF-8 that `PlaceImport` reads back to the same places (docs/import.md).
///
/// Give each place its library id in `sourceID`: it is written where the importer reads it
/// back (a GeoJSON feature `id`, a KML `<Data name="id">`, a GPX `places:id` extension).
public enum PlaceExport {
    /// The namespace of the GPX extension elements that carry what GPX has no element for
    /// (id, address, every category).
    public static let gpxExtensionNamespace = "urn:x-places:gpx:1"

    /// The places in `format`.
    public static func data(_ places: [ImportedPlace], as format: ImportFormat) -> [UInt8] {
        switch format {
        case .geoJSON: geoJSON(places)
        case .kml: kml(places)
        case .gpx: gpx(places)
        }
    }

    /// A GeoJSON FeatureCollection (`application/geo+json`): one Point feature per place,
    /// with `name`, `address`, `notes`, `url`, `opening_hours` and `categories` properties.
    public static func geoJSON(_ places: [ImportedPlace]) -> [UInt8] {
        var out = ExportBuffer(capacity: 256 * places.count + 64)
        out.raw("{\"type\":\"FeatureCollection\",\"features\":[")
        for (i, place) in places.enumerated() {
            out.raw(i > 0 ? ",\n{\"type\":\"Feature\"" : "\n{\"type\":\"Feature\"")
            if let id = place.sourceID {
                out.raw(",\"id\":")
                out.json(id)
            }
            out.raw(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            out.raw(number(place.longitude) + "," + number(place.latitude) + "]},\"properties\":{\"name\":")
            out.json(place.name)
            for (key, value) in [
                ("address", place.address), ("notes", place.notes), ("url", place.url),
                ("opening_hours", place.openingHours),
            ] {
                guard let value else { continue }
                out.raw(",\"\(key)\":")
                out.json(value)
            }
            out.raw(",\"categories\":[")
            for (j, category) in place.categories.enumerated() {
                if j > 0 { out.raw(",") }
                out.json(category)
            }
            out.raw("]}}")
        }
        out.raw("\n]}\n")
        return out.bytes
    }

    /// A KML 2.2 document (`application/vnd.google-earth.kml+xml`): one Placemark per
    /// place, the notes as its description (HTML-escaped, as KML readers expect HTML there),
    /// url, opening hours, id and categories as ExtendedData.
    public static func kml(_ places: [ImportedPlace]) -> [UInt8] {
        var out = ExportBuffer(capacity: 320 * places.count + 256)
        out.raw(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document>
            <name>Places</name>

            """)
        func element(_ name: String, _ value: String?) {
            guard let value else { return }
            out.raw("<\(name)>")
            out.xml(value)
            out.raw("</\(name)>\n")
        }
        for place in places {
            out.raw("<Placemark>\n")
            element("name", place.name)
            element("address", place.address)
            element("description", place.notes.map(HTMLText.escaped))
            var data: [(String, String)] = []
            if let id = place.sourceID { data.append(("id", id)) }
            if let url = place.url { data.append(("url", url)) }
            if let hours = place.openingHours { data.append(("opening_hours", hours)) }
            for category in place.categories { data.append(("category", category)) }
            if !data.isEmpty {
                out.raw("<ExtendedData>\n")
                for (name, value) in data {
                    out.raw("<Data name=\"\(name)\"><value>")
                    out.xml(value)
                    out.raw("</value></Data>\n")
                }
                out.raw("</ExtendedData>\n")
            }
            out.raw("<Point><coordinates>\(number(place.longitude)),\(number(place.latitude))</coordinates></Point>\n")
            out.raw("</Placemark>\n")
        }
        out.raw("</Document>\n</kml>\n")
        return out.bytes
    }

    /// A GPX 1.1 file (`application/gpx+xml`): one waypoint per place, the notes as its
    /// `desc`, the url as its `link`, the first category as its `type`; id, address and
    /// every category in `places:` extensions.
    public static func gpx(_ places: [ImportedPlace]) -> [UInt8] {
        var out = ExportBuffer(capacity: 320 * places.count + 256)
        out.raw(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Places" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:places="\(gpxExtensionNamespace)">

            """)
        func element(_ name: String, _ value: String?) {
            guard let value else { return }
            out.raw("<\(name)>")
            out.xml(value)
            out.raw("</\(name)>\n")
        }
        for place in places {
            out.raw("<wpt lat=\"\(number(place.latitude))\" lon=\"\(number(place.longitude))\">\n")
            element("name", place.name)
            element("desc", place.notes)
            if let url = place.url {
                out.raw("<link href=\"")
                out.xml(url)
                out.raw("\"/>\n")
            }
            element("type", place.categories.first)
            if place.sourceID != nil || place.address != nil || !place.categories.isEmpty {
                out.raw("<extensions>\n")
                element("places:id", place.sourceID)
                element("places:address", place.address)
                for category in place.categories { element("places:category", category) }
                out.raw("</extensions>\n")
            }
            out.raw("</wpt>\n")
        }
        out.raw("</gpx>\n")
        return out.bytes
    }

    /// The shortest decimal that reads back to the same Double, never with an exponent
    /// (some KML and GPX readers accept none).
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "0" }
        let s = String(d)
        guard let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(s[s.index(after: e)...])
        else { return s.hasSuffix(".0") ? String(s.dropLast(2)) : s }
        // "-1.2345e-05": move the point of the mantissa's digits by the exponent.
        let negative = s.hasPrefix("-")
        let mantissa = s[..<e].filter { $0 != "-" }
        let point =
            mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        let digits = mantissa.filter { $0 != "." }
        let position = point + exponent
        var out: String
        if position <= 0 {
            out = "0." + String(repeating: "0", count: -position) + digits
        } else if position >= digits.count {
            out = digits + String(repeating: "0", count: position - digits.count)
        } else {
            out = String(digits.prefix(position)) + "." + String(digits.dropFirst(position))
        }
        if out.contains(".") {
            while out.hasSuffix("0") { out.removeLast() }
            if out.hasSuffix(".") { out.removeLast() }
        }
        return (negative ? "-" : "") + out
    }
}
