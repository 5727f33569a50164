/// A library or contact place that the daemon adds to a search (kind `place`): matched by
/// the same folding and quality rules as the gazetteer, with population 0.
public struct DiscoverCandidate: Sendable {
    /// Its discover id (`place:…`), also the key of the popularity map.
    public var id: String
    /// Its names (the first is its name); folded when searched.
    public var names: [String]
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double

    /// A candidate.
    public init(id: String, names: [String], latitude: Double, longitude: Double) {
        self.id = id
        self.names = names
        self.latitude = latitude
        self.longitude = longitude
    }
}
