/// A place read from a file another tool wrote (GeoJSON, KML, GPX), before it becomes a
/// library place. Every field is already within the library's bounds (op-format §5 for
/// `place`) or the importer refused the file.
///
/// `PlaceExport` writes the same type: there `sourceID` carries the library place's id.
public struct ImportedPlace: Sendable, Hashable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var notes: String?
    public var url: String?
    public var categories: [String]
    /// The identifier the file gave the feature (a GeoJSON `id`, a KML `id` or
    /// `<Data name="id">`, a GPX `places:id` extension), at most 200 characters; `nil` when
    /// it gave none. Informational on import: it is never a library id. On export, set it to
    /// the library place's id and the writers put it where the importer reads it back.
    public var sourceID: String?

    public init(
        name: String, latitude: Double, longitude: Double, address: String? = nil, notes: String? = nil,
        url: String? = nil, categories: [String] = [], sourceID: String? = nil
    ) {
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
