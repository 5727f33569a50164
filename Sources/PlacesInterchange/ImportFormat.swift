/// The file formats places are imported from and exported to.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
    /// GeoJSON (RFC 7946), Google Takeout's "Saved Places.json" among them.
    case geoJSON = "geojson"
    /// KML 2.2 (Organic Maps, Google My Maps, Google Earth).
    case kml
    /// GPX 1.0 and 1.1 waypoints.
    case gpx

    /// The media types `POST /v1/places/import` accepts, as an error message lists them.
    public static let supportedMediaTypes = [
        "application/geo+json", "application/json", "application/vnd.google-earth.kml+xml", "application/gpx+xml",
        "application/xml", "text/xml",
    ]

    /// The media type the exporter writes.
    public var mediaType: String {
        switch self {
        case .geoJSON: "application/geo+json"
        case .kml: "application/vnd.google-earth.kml+xml"
        case .gpx: "application/gpx+xml"
        }
    }

    /// The format a media type names (parameters such as `charset=utf-8` ignored, case
    /// ignored); nil for `application/xml` and `text/xml`, whose root element decides.
    static func named(by mediaType: String) throws(ImportError) -> ImportFormat? {
        let essence = (mediaType.split(separator: ";", omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmed.lowercased()
        switch essence {
        case "application/geo+json", "application/json", "application/vnd.geo+json": return .geoJSON
        case "application/vnd.google-earth.kml+xml": return .kml
        case "application/gpx+xml": return .gpx
        case "application/xml", "text/xml": return nil
        case "application/vnd.google-earth.kmz":
            throw ImportError(
                field: "Content-Type",
                message: "KMZ (zipped KML) is not read: unzip it and send its doc.kml as "
                    + "application/vnd.google-earth.kml+xml")
        default:
            let shown = essence.isEmpty ? "no media type" : "\(essence.prefix(100))"
            throw ImportError(
                field: "Content-Type",
                message: "\(shown) is not a format places import from; send one of "
                    + supportedMediaTypes.joined(separator: ", "))
        }
    }

    /// KML or GPX by the XML file's root element.
    static func sniffXML(_ text: SourceText) throws(ImportError) -> ImportFormat {
        var reader = XMLReader(text)
        while let event = try reader.next() {
            guard case .start(let name, _, let offset) = event else { continue }
            switch XMLElement.localName(name) {
            case "kml": return .kml
            case "gpx": return .gpx
            default:
                throw reader.error(
                    "the root element is <\(name.prefix(60))>; an XML file to import is KML or GPX", at: offset)
            }
        }
        throw reader.error("the file holds no XML element", at: text.start)
    }
}
