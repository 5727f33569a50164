/// A place read from a file another tool wrote (GeoJSON, KML, GPX), before it becomes a
/// library place. Every field is already within the library's bounds (op-format §5 for
/// `place`) or the importer refused the file.
public struct ImportedPlace: Sendable, Hashable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var notes: String?
    public var url: String?
    public var categories: [String]

    public init(
        name: String, latitude: Double, longitude: Double, address: String? = nil, notes: String? = nil,
        url: String? = nil, categories: [String] = []
    ) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.notes = notes
        self.url = url
        self.categories = categories
    }
}
