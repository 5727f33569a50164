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
    /// with `name`, `address`, `notes`, `url` and `categories` properties.
    public static func geoJSON(_ places: [ImportedPlace]) -> [UInt8] {
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        for (i, place) in places.enumerated() {
            if i > 0 { out += "," }
            out += "\n{\"type\":\"Feature\""
            if let id = place.sourceID { out += ",\"id\":" + json(id) }
            out += ",\"geometry\":{\"type\":\"Point\",\"coordinates\":["
            out += number(place.longitude) + "," + number(place.latitude) + "]}"
            out += ",\"properties\":{\"name\":" + json(place.name)
            if let address = place.address { out += ",\"address\":" + json(address) }
            if let notes = place.notes { out += ",\"notes\":" + json(notes) }
            if let url = place.url { out += ",\"url\":" + json(url) }
            out += ",\"categories\":[" + place.categories.map(json).joined(separator: ",") + "]}}"
        }
        out += "\n]}\n"
        return Array(out.utf8)
    }

    /// A KML 2.2 document (`application/vnd.google-earth.kml+xml`): one Placemark per
    /// place, the notes as its description (HTML-escaped, as KML readers expect HTML there),
    /// url, id and categories as ExtendedData.
    public static func kml(_ places: [ImportedPlace]) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document>
            <name>Places</name>

            """
        for place in places {
            out += "<Placemark>\n<name>\(xml(place.name))</name>\n"
            if let address = place.address { out += "<address>\(xml(address))</address>\n" }
            if let notes = place.notes { out += "<description>\(xml(HTMLText.escaped(notes)))</description>\n" }
            var data: [(String, String)] = []
            if let id = place.sourceID { data.append(("id", id)) }
            if let url = place.url { data.append(("url", url)) }
            for category in place.categories { data.append(("category", category)) }
            if !data.isEmpty {
                out += "<ExtendedData>\n"
                for (name, value) in data { out += "<Data name=\"\(name)\"><value>\(xml(value))</value></Data>\n" }
                out += "</ExtendedData>\n"
            }
            out += "<Point><coordinates>\(number(place.longitude)),\(number(place.latitude))</coordinates></Point>\n"
            out += "</Placemark>\n"
        }
        out += "</Document>\n</kml>\n"
        return Array(out.utf8)
    }

    /// A GPX 1.1 file (`application/gpx+xml`): one waypoint per place, the notes as its
    /// `desc`, the url as its `link`, the first category as its `type`; id, address and
    /// every category in `places:` extensions.
    public static func gpx(_ places: [ImportedPlace]) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Places" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:places="\(gpxExtensionNamespace)">

            """
        for place in places {
            out += "<wpt lat=\"\(number(place.latitude))\" lon=\"\(number(place.longitude))\">\n"
            out += "<name>\(xml(place.name))</name>\n"
            if let notes = place.notes { out += "<desc>\(xml(notes))</desc>\n" }
            if let url = place.url { out += "<link href=\"\(xml(url))\"/>\n" }
            if let first = place.categories.first { out += "<type>\(xml(first))</type>\n" }
            if place.sourceID != nil || place.address != nil || !place.categories.isEmpty {
                out += "<extensions>\n"
                if let id = place.sourceID { out += "<places:id>\(xml(id))</places:id>\n" }
                if let address = place.address { out += "<places:address>\(xml(address))</places:address>\n" }
                for category in place.categories { out += "<places:category>\(xml(category))</places:category>\n" }
                out += "</extensions>\n"
            }
            out += "</wpt>\n"
        }
        out += "</gpx>\n"
        return Array(out.utf8)
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
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
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

    /// A JSON string literal: `"` `\` and control characters escaped, the rest as UTF-8.
    static func json(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// XML character data or attribute value: `& < > " '` escaped, CR as a reference (so
    /// that it survives line-end normalization), characters XML cannot carry dropped.
    static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in TextCleaning.xmlSafe(s).unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\n", "\t": out.unicodeScalars.append(u)
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
