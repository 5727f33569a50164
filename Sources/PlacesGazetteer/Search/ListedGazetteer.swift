/// A gazetteer given as a list of entries: the small hand-made ones that the search's tests
/// and the `discover` fuzz target rank over (the committed gazetteer is `Gazetteer`, loaded
/// from its resource). A region is named by its id and resolved to its index when asked.
public struct ListedGazetteer: DiscoverSource, Sendable {
    /// One place of the list.
    public struct Entry: Sendable {
        public var kind: GazetteerKind
        public var id: String
        public var name: String
        public var alternates: [String]
        public var latitude: Double
        public var longitude: Double
        public var population: Int64
        /// The id of the region that holds this place, if any.
        public var region: String?

        public init(
            kind: GazetteerKind, id: String, name: String, alternates: [String] = [], latitude: Double,
            longitude: Double, population: Int64, region: String? = nil
        ) {
            self.kind = kind
            self.id = id
            self.name = name
            self.alternates = alternates
            self.latitude = latitude
            self.longitude = longitude
            self.population = population
            self.region = region
        }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    public var count: Int { entries.count }
    public func kind(_ i: Int) -> GazetteerKind { entries[i].kind }
    public func id(_ i: Int) -> String { entries[i].id }
    public func name(_ i: Int) -> String { entries[i].name }
    public func alternateNames(_ i: Int) -> [String] { entries[i].alternates }
    public func latitude(_ i: Int) -> Double { entries[i].latitude }
    public func longitude(_ i: Int) -> Double { entries[i].longitude }
    public func population(_ i: Int) -> Int64 { entries[i].population }
    public func region(_ i: Int) -> Int? { entries[i].region.flatMap { index(ofID: $0) } }
    public func index(ofID id: String) -> Int? { entries.firstIndex { $0.id == id } }
}
