/// Reads places out of files other tools write: GeoJSON (Google Takeout's "Saved Places"
/// among them), KML (Organic Maps, Google My Maps, Google Earth) and GPX waypoints.
/// docs/import.md says what is read from each and every bound.
public enum PlaceImport {
    /// The name given to a place whose file gives it neither a name nor an address.
    public static let unnamedPlaceName = PlaceDraft.unnamed

    /// The places in `bytes`, a file of the format `mediaType` names (the request's
    /// `Content-Type`): `application/geo+json` or `application/json` (GeoJSON),
    /// `application/vnd.google-earth.kml+xml` (KML), `application/gpx+xml` (GPX), or
    /// `application/xml`/`text/xml` (KML or GPX by the root element).
    ///
    /// Each place is within the library's bounds. Features that are not places (tracks,
    /// places without coordinates) are listed in `ignored`. A file that is malformed, too
    /// big, hostile or holds coordinates out of range is refused whole with an `ImportError`
    /// saying where and what. Duplicates are not removed here: see `ImportPlan`.
    public static func read(_ bytes: [UInt8], mediaType: String) throws(ImportError) -> ImportResult {
        let named = try ImportFormat.named(by: mediaType)
        let text = try SourceText(bytes)
        if let named { return try read(text, as: named) }
        return try read(text, as: try ImportFormat.sniffXML(text))
    }

    /// The places in `bytes`, read as `format`.
    public static func read(_ bytes: [UInt8], as format: ImportFormat) throws(ImportError) -> ImportResult {
        try read(try SourceText(bytes), as: format)
    }

    static func read(_ text: SourceText, as format: ImportFormat) throws(ImportError) -> ImportResult {
        switch format {
        case .geoJSON: try GeoJSONImporter.read(text)
        case .kml: try KMLImporter.read(text)
        case .gpx: try GPXImporter.read(text)
        }
    }
}
