/// A place read from a file another tool wrote (GeoJSON, KML, GPX), before it becomes a
/// library place. Every field is already within the library's bounds (op-format §5 for
/// `place`) or the importer refused the file.
///
/// `PlaceExport` writes the same type: there `sourceID` carries the library place's id.
public struct ImportedPlace: Sendable, Hashable {
    /// 1–200 characters, one trimmed line.
    public var name: String
    /// Decimal degrees, −90…90.
    public var latitude: Double
    /// Decimal degrees, −180…180.
    public var longitude: Double
    /// At most 500 characters, one line; nil when the file gave none.
    public var address: String?
    /// At most 10,000 characters, line breaks kept; nil when the file gave none.
    public var notes: String?
    /// An http(s) URL with a host, at most 2,000 characters; nil when the file gave none
    /// the library would accept.
    public var url: String?
    /// At most 20 distinct categories of 1–50 characters.
    public var categories: [String]
    /// Opening hours in OpenStreetMap's `opening_hours` syntax (an `opening_hours` property
    /// or Data), one line of at most 255 characters; nil when the file gave none or a longer one.
    public var openingHours: String?
    /// The identifier the file gave the feature (a GeoJSON `id`, a KML `id` or
    /// `<Data name="id">`, a GPX `places:id` extension), at most 200 characters; `nil` when
    /// it gave none. Informational on import: it is never a library id. On export, set it to
    /// the library place's id and the writers put it where the importer reads it back.
    public var sourceID: String?

    /// A place with the given fields (the importer fills them within the bounds above).
    public init(
        name: String, latitude: Double, longitude: Double, address: String? = nil, notes: String? = nil,
        url: String? = nil, categories: [String] = [], sourceID: String? = nil, openingHours: String? = nil
    ) {
        self.openingHours = openingHours
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.notes = notes
        self.url = url
        self.categories = categories
        self.sourceID = sourceID
    }
}
