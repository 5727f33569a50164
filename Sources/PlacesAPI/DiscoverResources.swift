/// Discover, preferences, favorite sharing and contact profiles (issue 15;
/// `Protocol/control-api.yaml`).

/// One result of `GET /v1/discover`: a continent, country, region or city of the gazetteer,
/// or a place (yours or a contact's shared favorite).
public struct DiscoverResult: Codable, Sendable, Equatable {
    /// `city:2267057`, `region:PT.14`, `country:PT`, `continent:EU`, `place:<32 hex>` (yours)
    /// or `place:<owner 64 hex>.<32 hex>` (a contact's).
    public var id: String
    /// `city`, `region`, `country`, `continent` or `place`.
    public var kind: String
    public var name: String
    /// Where it is, by name; nil when it has none (a continent's country).
    public var region: String?
    public var country: String?
    public var countryCode: String?
    public var continent: String?
    public var latitude: Double
    public var longitude: Double
    /// GeoNames population (a region's: the sum of its cities of 1,000 or more); 0 for a place.
    public var population: Int64
    /// People other than you, among those this daemon knows, who saved it.
    public var popularity: Int
    /// Whether one of your favorites is this place.
    public var favorite: Bool
    /// For a place: its owner's public id when it is a contact's, nil when yours.
    public var owner: String?

    public init(
        id: String, kind: String, name: String, region: String?, country: String?, countryCode: String?,
        continent: String?, latitude: Double, longitude: Double, population: Int64, popularity: Int, favorite: Bool,
        owner: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.continent = continent
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.popularity = popularity
        self.favorite = favorite
        self.owner = owner
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, name, region, country, countryCode, continent, latitude, longitude, population, popularity
        case favorite, owner
    }

    /// Encodes every contract field, null ones included (scripts read them by name).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(name, forKey: .name)
        try c.encode(region, forKey: .region)
        try c.encode(country, forKey: .country)
        try c.encode(countryCode, forKey: .countryCode)
        try c.encode(continent, forKey: .continent)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(population, forKey: .population)
        try c.encode(popularity, forKey: .popularity)
        try c.encode(favorite, forKey: .favorite)
        try c.encodeIfPresent(owner, forKey: .owner)
    }
}

/// `GET /v1/discover`.
public struct DiscoverResults: Codable, Sendable {
    public var results: [DiscoverResult]
    /// The popularity sort applied (`descending`, `ascending` or `off`).
    public var sort: String

    public init(results: [DiscoverResult], sort: String) {
        self.results = results
        self.sort = sort
    }
}

/// `GET|PUT /v1/preferences`.
public struct Preferences: Codable, Sendable, Equatable {
    /// `descending`, `ascending` or `off` (the default).
    public var discoverSort: String
    /// The forecast source the dashboard's weather comes from (`docs/destinations.md`); nil:
    /// none, nothing is sent anywhere. Omitted from a request body when nil (a body names only
    /// the preferences it changes); the daemon's answer writes it, null included.
    public var weatherSource: String?

    public init(discoverSort: String, weatherSource: String? = nil) {
        self.discoverSort = discoverSort
        self.weatherSource = weatherSource
    }
}

/// `GET|PUT /v1/favorites/sharing`.
public struct FavoriteSharingSetting: Codable, Sendable, Equatable {
    /// `all`, `selected` or `off`.
    public var sharing: String
    /// The library places shared when `sharing` is `selected` (empty otherwise).
    public var placeIds: [String]
    /// How many favorites your contacts receive now (in the answer only).
    public var shared: Int?

    public init(sharing: String, placeIds: [String], shared: Int? = nil) {
        self.sharing = sharing
        self.placeIds = placeIds
        self.shared = shared
    }
}

/// A favorite a contact shares with you.
public struct SharedFavorite: Codable, Sendable, Equatable {
    /// `place:<owner 64 hex>.<32 hex>`, as discover names it.
    public var id: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var categories: [String]
    public var gazetteerId: String?
    /// The pin's notes and photos, as their owner wrote them.
    public var notes: String?
    public var photos: [Photo]?

    public init(
        id: String, name: String, latitude: Double, longitude: Double, address: String?, categories: [String],
        gazetteerId: String?, notes: String? = nil, photos: [Photo]? = nil
    ) {
        self.notes = notes
        self.photos = photos
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.categories = categories
        self.gazetteerId = gazetteerId
    }
}

/// `GET /v1/contacts/{personId}`: what this daemon knows of a person.
public struct ContactProfile: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var username: String?
    public var bio: String?
    /// Whether they are a contact (you accepted them).
    public var contact: Bool
    /// Whether you share an itinerary with them.
    public var coMember: Bool
    /// The favorites they share with you, in their order.
    public var favorites: [SharedFavorite]

    public init(
        id: String, name: String?, username: String?, bio: String?, contact: Bool, coMember: Bool,
        favorites: [SharedFavorite]
    ) {
        self.id = id
        self.name = name
        self.username = username
        self.bio = bio
        self.contact = contact
        self.coMember = coMember
        self.favorites = favorites
    }
}
