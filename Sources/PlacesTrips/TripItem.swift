import PlacesModel
import PlacesRoutes

/// What kind of thing an item of a trip folder is. Raw values are the API's `type`.
public enum TripItemType: String, Sendable, Hashable, CaseIterable, Codable {
    /// Where you sleep: `start` is check-in, `end` check-out.
    case lodging
    /// A leg from `location` to `to`: `start` departs in `timeZone`, `end` arrives in `endTimeZone`.
    case transport
    /// A restaurant, café or bar.
    case food
    /// A tour, a museum, a booked thing to do.
    case activity
    /// A place to go of the itinerary (a stop), given a day with `start` (a date alone).
    case place
}

/// A place an item happens at (or a transport leaves from / arrives at). Coordinates are
/// optional: a booked hotel may have only an address.
public struct TripLocation: Sendable, Hashable {
    public var name: String?
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(name: String? = nil, address: String? = nil, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The point, when both coordinates are there.
    public var point: GeoPoint? {
        guard let latitude, let longitude else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }
}

/// One item of a trip folder, as the planning code sees it: what the daemon reads from the
/// store (lodging, transport, food, activity items and places to go), already validated
/// field by field — but NOT cross-checked (a peer may send an end before its start, a zone
/// this build does not know, a link to an item that does not exist): the planning code
/// must cope with each and say so in a warning, never trap.
public struct TripItem: Sendable, Hashable, Identifiable {
    /// The entity id (32 lowercase hex), or `legacy-lodging` / `legacy-transport` for the
    /// itinerary's own `lodging` / `transportation` fields shown as items.
    public var id: String
    public var type: TripItemType
    public var title: String
    /// Local date or date-time in `timeZone` (check-in for lodging, departure for transport).
    public var start: LocalDateTime?
    /// Local date or date-time in `endTimeZone ?? timeZone` (check-out, arrival).
    public var end: LocalDateTime?
    /// IANA zone of `start` (and of `end` unless `endTimeZone`); nil = the trip's zone.
    public var timeZone: String?
    /// IANA zone of `end` for a transport that lands elsewhere.
    public var endTimeZone: String?
    /// Where it is; for a transport, where it departs from.
    public var location: TripLocation?
    /// For a transport, where it arrives.
    public var to: TripLocation?
    public var price: Money?
    /// The user's order within a day (fractional index, op-format §6.4); nil sorts last.
    public var position: String?
    /// Transport mode (`flight`, `train`, `bus`, `car`, `ferry`, `other`).
    public var mode: String?
    /// An activity's link to another item or place to go (may dangle).
    public var linkedItem: String?
    /// The user's notes.
    public var notes: String?
    /// A link (booking page, menu).
    public var url: String?
    /// One line of what else the item says, for calendars and lists: an activity's
    /// description, a food item's recommendation, a transport's carrier and number, a
    /// lodging's confirmation code.
    public var detail: String?
    /// Whether an activity is booked.
    public var booked: Bool

    public init(
        id: String, type: TripItemType, title: String, start: LocalDateTime? = nil, end: LocalDateTime? = nil,
        timeZone: String? = nil, endTimeZone: String? = nil, location: TripLocation? = nil, to: TripLocation? = nil,
        price: Money? = nil, position: String? = nil, mode: String? = nil, linkedItem: String? = nil,
        notes: String? = nil, url: String? = nil, detail: String? = nil, booked: Bool = false
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.endTimeZone = endTimeZone
        self.location = location
        self.to = to
        self.price = price
        self.position = position
        self.mode = mode
        self.linkedItem = linkedItem
        self.notes = notes
        self.url = url
        self.detail = detail
        self.booked = booked
    }
}

/// A trip folder: the itinerary's dates and travel mode, and every item.
public struct Trip: Sendable, Hashable {
    /// First and last date of the trip, when the itinerary has them.
    public var startDate: LocalDate?
    public var endDate: LocalDate?
    /// The zone of items that have none (the itinerary's `timeZone`; nil = UTC).
    public var timeZone: String?
    /// How the travellers move between items (the itinerary's `travelMode`; default walking).
    public var travelMode: TravelMode
    public var items: [TripItem]

    public init(
        startDate: LocalDate? = nil, endDate: LocalDate? = nil, timeZone: String? = nil,
        travelMode: TravelMode = .walking, items: [TripItem]
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.timeZone = timeZone
        self.travelMode = travelMode
        self.items = items
    }
}
