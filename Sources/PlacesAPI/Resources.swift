import PlacesModel

// The JSON resources of the control API (see Protocol/control-api.yaml). Shared by the
// daemon, which encodes them, and the CLI, which decodes them.

/// `GET /v1/status`.
public struct Status: Codable, Sendable, Equatable {
    /// The identity's human id, once `places init` has run.
    public var id: String?
    /// The daemon version.
    public var version: String
    /// Whether an identity exists on this data dir.
    public var initialized: Bool
    /// Whether the identity is unlocked in the daemon.
    public var loggedIn: Bool
    /// Whether the key file is sealed with a passphrase.
    public var passphraseProtected: Bool?
    /// Profile name and username, while logged in.
    public var name: String?
    public var username: String?
    /// The data directory and control socket in use.
    public var dataDir: String
    public var socket: String
    /// The daemon's process id.
    public var pid: Int32
    /// Ops in the log.
    public var opCount: Int?
    /// The address peers connect to (`HOST:PORT` as bound; absent when not listening).
    public var listen: String?
    /// Whether LAN discovery beacons are on.
    public var discovery: Bool?
    /// This daemon as a device of its person (`Protocol/devices.md`): absent for a person's
    /// first device with no other.
    public var device: DeviceStatus?
    /// `relay` on a blind relay (`placesd --relay`, `Protocol/relay.md`); absent on a
    /// person's daemon.
    public var role: String?

    public init(
        id: String?, version: String, initialized: Bool, loggedIn: Bool, passphraseProtected: Bool?, name: String?,
        username: String?, dataDir: String, socket: String, pid: Int32, opCount: Int?, listen: String? = nil,
        discovery: Bool? = nil, device: DeviceStatus? = nil, role: String? = nil
    ) {
        self.device = device
        self.role = role
        self.id = id
        self.version = version
        self.initialized = initialized
        self.loggedIn = loggedIn
        self.passphraseProtected = passphraseProtected
        self.name = name
        self.username = username
        self.dataDir = dataDir
        self.socket = socket
        self.pid = pid
        self.opCount = opCount
        self.listen = listen
        self.discovery = discovery
    }
}

/// `POST /v1/init` body: register an identity and profile.
public struct InitRequest: Codable, Sendable {
    public var name: String
    public var username: String
    public var bio: String?
    /// Seal the key with this passphrase; omit together with `noPassphrase: true` for an
    /// unsealed key file.
    public var passphrase: String?
    public var noPassphrase: Bool?

    public init(name: String, username: String, bio: String?, passphrase: String?, noPassphrase: Bool?) {
        self.name = name
        self.username = username
        self.bio = bio
        self.passphrase = passphrase
        self.noPassphrase = noPassphrase
    }
}

/// `POST /v1/login` body.
public struct LoginRequest: Codable, Sendable {
    public var passphrase: String?
    public init(passphrase: String?) { self.passphrase = passphrase }
}

/// `GET /v1/profile`, and the result of `POST /v1/init`.
public struct Profile: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var username: String
    public var bio: String?
    /// The profile picture: a photo id (`GET /v1/photos/{id}`).
    public var picture: String?

    public init(id: String, name: String, username: String, bio: String? = nil, picture: String? = nil) {
        self.id = id
        self.name = name
        self.username = username
        self.bio = bio
        self.picture = picture
    }
}

/// A place in the user's library.
public struct Place: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    public var categories: [String]
    /// 1 (cheap) to 4 (expensive).
    public var priceLevel: Int?
    /// 0 to 5.
    public var rating: Double?
    public var notes: String?
    public var url: String?
    /// Whether the place is hearted.
    public var favorite: Bool
    public var createdAt: String
    public var updatedAt: String?
    /// The discover result the place was made from (`city:2267057`), if any.
    public var gazetteerId: String?
    /// Where it was copied from: `post:POST_ID` or `friend:PUBLIC_ID`.
    public var origin: String?
    /// The pin's photos (`POST /v1/places/{id}/photos`); absent when none.
    public var photos: [Photo]?
    /// When it is open, in OpenStreetMap's `opening_hours` syntax, as written.
    public var openingHours: String?
    /// How long a visit takes, in minutes (5–720).
    public var visitMinutes: Int?
    /// What a visit costs one person.
    public var entryPrice: Money?

    public init(
        id: String, name: String, latitude: Double, longitude: Double, address: String? = nil, categories: [String],
        priceLevel: Int? = nil, rating: Double? = nil, notes: String? = nil, url: String? = nil, favorite: Bool,
        createdAt: String, updatedAt: String? = nil, gazetteerId: String? = nil, origin: String? = nil,
        photos: [Photo]? = nil, openingHours: String? = nil, visitMinutes: Int? = nil, entryPrice: Money? = nil
    ) {
        self.photos = photos
        self.openingHours = openingHours
        self.visitMinutes = visitMinutes
        self.entryPrice = entryPrice
        self.gazetteerId = gazetteerId
        self.origin = origin
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.categories = categories
        self.priceLevel = priceLevel
        self.rating = rating
        self.notes = notes
        self.url = url
        self.favorite = favorite
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/places`.
public struct PlaceList: Codable, Sendable {
    public var places: [Place]
    public var count: Int

    public init(places: [Place], count: Int) {
        self.places = places
        self.count = count
    }
}

/// A favorite (a heart on a place), in the user's order.
public struct Favorite: Codable, Sendable, Equatable {
    public var id: String
    public var placeId: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// 1-based position in the list.
    public var position: Int
    public var addedAt: String

    public init(
        id: String, placeId: String, name: String, latitude: Double, longitude: Double, position: Int, addedAt: String
    ) {
        self.id = id
        self.placeId = placeId
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.position = position
        self.addedAt = addedAt
    }
}

/// `GET /v1/favorites`.
public struct FavoriteList: Codable, Sendable {
    public var favorites: [Favorite]
    public var count: Int

    public init(favorites: [Favorite], count: Int) {
        self.favorites = favorites
        self.count = count
    }
}

/// Lodging details of an itinerary.
public struct Lodging: Codable, Sendable, Equatable {
    public var name: String?
    public var address: String?
    /// `YYYY-MM-DD`.
    public var checkIn: String?
    public var checkOut: String?

    public init(name: String? = nil, address: String? = nil, checkIn: String? = nil, checkOut: String? = nil) {
        self.name = name
        self.address = address
        self.checkIn = checkIn
        self.checkOut = checkOut
    }
}

/// A place to go in an itinerary (a copy of the place, so that every member can see and
/// route it).
public struct Stop: Codable, Sendable, Equatable {
    public var id: String
    public var placeId: String?
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var address: String?
    /// 1-based position in the list.
    public var position: Int
    /// The day of the trip it is planned for (`YYYY-MM-DD`).
    public var day: String?
    /// The discover result its place was made from, if any.
    public var gazetteerId: String?

    public init(
        id: String, placeId: String? = nil, name: String, latitude: Double, longitude: Double, address: String? = nil,
        position: Int, day: String? = nil, gazetteerId: String? = nil
    ) {
        self.gazetteerId = gazetteerId
        self.day = day
        self.id = id
        self.placeId = placeId
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.position = position
    }
}

/// An itinerary (trip folder).
public struct Itinerary: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var startDate: String?
    public var endDate: String?
    public var transportation: String?
    public var lodging: Lodging?
    public var travelPrice: Money?
    public var lodgingPrice: Money?
    public var notes: String?
    public var places: [Stop]
    /// Everything's price summed per currency: travel and lodging prices and every item's.
    public var totalCost: [Money]
    /// Human id of the owner.
    public var owner: String
    /// The caller's role: `owner` for now.
    public var role: String
    public var createdAt: String
    public var updatedAt: String?
    /// The zone of items that name none (IANA).
    public var timeZone: String?
    /// How the travellers get around between the day's items (`walking`, `cycling`, `driving`).
    public var travelMode: String?
    /// The trip it was made from, when it was made from a published trip or another itinerary.
    public var origin: String?
    /// The currency the trip's balances and settle-up are in (ISO 4217), once set.
    public var settlementCurrency: String?
    /// The trip's exchange rates to the settlement currency (`{"USD": "0.92"}`), when it has any.
    public var rates: [String: String]?
    /// How many items the trip folder holds (lodging, transport, food, activities).
    public var itemCount: Int?
    /// Prices per section (`lodging`, `transport`, `food`, `activity`), each summed per
    /// currency; a section without prices is absent.
    public var costs: [String: [Money]]?

    public init(
        id: String, name: String, startDate: String? = nil, endDate: String? = nil, transportation: String? = nil,
        lodging: Lodging? = nil, travelPrice: Money? = nil, lodgingPrice: Money? = nil, notes: String? = nil,
        places: [Stop], totalCost: [Money], owner: String, role: String, createdAt: String, updatedAt: String? = nil
    ) {
        self.id = id
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
        self.transportation = transportation
        self.lodging = lodging
        self.travelPrice = travelPrice
        self.lodgingPrice = lodgingPrice
        self.notes = notes
        self.places = places
        self.totalCost = totalCost
        self.owner = owner
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A row of `GET /v1/itineraries`.
public struct ItinerarySummary: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var startDate: String?
    public var endDate: String?
    public var placeCount: Int
    public var totalCost: [Money]
    public var owner: String
    public var role: String

    public init(
        id: String, name: String, startDate: String? = nil, endDate: String? = nil, placeCount: Int, totalCost: [Money],
        owner: String, role: String
    ) {
        self.id = id
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
        self.placeCount = placeCount
        self.totalCost = totalCost
        self.owner = owner
        self.role = role
    }
}

/// `GET /v1/itineraries`.
public struct ItineraryList: Codable, Sendable {
    public var itineraries: [ItinerarySummary]
    public var count: Int

    public init(itineraries: [ItinerarySummary], count: Int) {
        self.itineraries = itineraries
        self.count = count
    }
}

/// One activity line.
public struct ActivityEntry: Codable, Sendable, Equatable {
    /// RFC 3339 time the author made the change.
    public var time: String
    /// Author's human id and, when known, name.
    public var author: String
    public var authorName: String?
    /// `created`, `edited`, `deleted`, `restored`, `moved`.
    public var action: String
    /// `itinerary` or `stop` (a place to go).
    public var kind: String
    public var entity: String
    /// The field edited, for `edited`.
    public var field: String?
    public var old: JSONValue?
    public var new: JSONValue?
    /// One readable sentence.
    public var summary: String

    public init(
        time: String, author: String, authorName: String? = nil, action: String, kind: String, entity: String,
        field: String? = nil, old: JSONValue? = nil, new: JSONValue? = nil, summary: String
    ) {
        self.time = time
        self.author = author
        self.authorName = authorName
        self.action = action
        self.kind = kind
        self.entity = entity
        self.field = field
        self.old = old
        self.new = new
        self.summary = summary
    }
}

/// `GET /v1/itineraries/{id}/activity`.
public struct ActivityList: Codable, Sendable {
    public var activity: [ActivityEntry]
    public var count: Int

    public init(activity: [ActivityEntry], count: Int) {
        self.activity = activity
        self.count = count
    }
}

/// One line of `GET /v1/events`.
public struct Event: Codable, Sendable, Equatable {
    /// `hello`, `changed`, `login`, `logout`.
    public var type: String
    public var time: String
    /// The document changed, for `changed`.
    public var doc: String?
    /// `itinerary`, `library` or `profile`.
    public var docKind: String?
    public var author: String?
    public var summary: String

    public init(
        type: String, time: String, doc: String? = nil, docKind: String? = nil, author: String? = nil, summary: String
    ) {
        self.type = type
        self.time = time
        self.doc = doc
        self.docKind = docKind
        self.author = author
        self.summary = summary
    }
}

/// `POST /v1/favorites` body.
public struct AddFavoriteRequest: Codable, Sendable {
    public var placeId: String
    /// 1-based; omitted = at the end.
    public var position: Int?
    public init(placeId: String, position: Int?) {
        self.placeId = placeId
        self.position = position
    }
}

/// Body of the move routes: a new 1-based position.
public struct MoveRequest: Codable, Sendable {
    public var position: Int
    public init(position: Int) { self.position = position }
}

/// `POST /v1/itineraries/{id}/places` body.
public struct AddStopRequest: Codable, Sendable {
    public var placeId: String
    public var position: Int?
    public init(placeId: String, position: Int?) {
        self.placeId = placeId
        self.position = position
    }
}
