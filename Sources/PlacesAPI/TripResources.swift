import PlacesModel

// The JSON resources of a trip's items, days, warnings, checklist and imports (issue 13; see
// Protocol/control-api.yaml, schemas `TripItem` … `ImportResult`). Shared by the daemon,
// which encodes them, and the CLI, which decodes them. Every optional property is omitted
// from the JSON when nil (synthesized `encodeIfPresent`), as the API's conventions require.

/// A named place an item happens at (`location`) or, for a transport, arrives at (`to`).
public struct ItemLocation: Codable, Sendable, Equatable {
    public var name: String?
    public var address: String?
    /// Decimal degrees; latitude and longitude come together or not at all.
    public var latitude: Double?
    public var longitude: Double?

    public init(name: String? = nil, address: String? = nil, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One item of a trip: a stay, a transport leg, a meal or an activity; inside day views also
/// a place to go (`type` = `place`, `id` = the stop id).
///
/// `start` and `end` are local (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`) in `timeZone`; a
/// transport's `end` is in `endTimeZone` when given. The itinerary's own `lodging` and
/// `transportation` fields appear as read-only items with `legacy` = true and the ids
/// `legacy-lodging` and `legacy-transport`.
public struct TripItem: Codable, Sendable, Equatable {
    /// 32 lowercase hex, a stop id (`place`), or `legacy-lodging` / `legacy-transport`.
    public var id: String
    /// `lodging`, `transport`, `food`, `activity`, or `place` (day views only).
    public var type: String
    public var title: String
    public var start: String?
    public var end: String?
    /// IANA zone of `start` (and of `end`, unless `endTimeZone` is set).
    public var timeZone: String?
    /// Transport: the zone of the arrival.
    public var endTimeZone: String?
    public var location: ItemLocation?
    /// Transport: where it arrives.
    public var to: ItemLocation?
    public var price: Money?
    public var notes: String?
    public var url: String?
    /// Lodging.
    public var confirmationCode: String?
    public var contact: String?
    /// Transport: `flight`, `train`, `bus`, `car`, `ferry` or `other`.
    public var mode: String?
    public var carrier: String?
    public var number: String?
    public var bookingReference: String?
    /// Food.
    public var recommendation: String?
    /// Food: 0 to 5.
    public var rating: Double?
    /// Activity.
    public var description: String?
    /// Activity: present (false by default) on every activity, absent on other types.
    public var booked: Bool?
    /// Activity: the id of another item or of a place to go (stop).
    public var linkedItem: String?
    /// True for the itinerary's own lodging/transportation shown as items; absent otherwise.
    public var legacy: Bool?
    /// Type `place`: the library place the stop was copied from.
    public var placeId: String?
    /// RFC 3339 UTC; absent on legacy and place items.
    public var createdAt: String?
    public var updatedAt: String?

    public init(
        id: String, type: String, title: String, start: String? = nil, end: String? = nil, timeZone: String? = nil,
        endTimeZone: String? = nil, location: ItemLocation? = nil, to: ItemLocation? = nil, price: Money? = nil,
        notes: String? = nil, url: String? = nil, confirmationCode: String? = nil, contact: String? = nil,
        mode: String? = nil, carrier: String? = nil, number: String? = nil, bookingReference: String? = nil,
        recommendation: String? = nil, rating: Double? = nil, description: String? = nil, booked: Bool? = nil,
        linkedItem: String? = nil, legacy: Bool? = nil, placeId: String? = nil, createdAt: String? = nil,
        updatedAt: String? = nil
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
        self.notes = notes
        self.url = url
        self.confirmationCode = confirmationCode
        self.contact = contact
        self.mode = mode
        self.carrier = carrier
        self.number = number
        self.bookingReference = bookingReference
        self.recommendation = recommendation
        self.rating = rating
        self.description = description
        self.booked = booked
        self.linkedItem = linkedItem
        self.legacy = legacy
        self.placeId = placeId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/itineraries/{id}/items`: by start (undated last), then position.
public struct ItemList: Codable, Sendable, Equatable {
    public var items: [TripItem]
    public var count: Int

    public init(items: [TripItem], count: Int) {
        self.items = items
        self.count = count
    }
}

/// One date of a trip: where you sleep that night and what happens that day, in time order
/// (untimed items after the timed ones, in the user's order).
public struct TripDay: Codable, Sendable, Equatable {
    /// `YYYY-MM-DD`.
    public var date: String
    /// 1-based day of the trip; nil only in a move's answer for a date the day view does
    /// not show.
    public var number: Int?
    /// The stay that covers the night after `date`; absent when there is none.
    public var lodging: TripItem?
    public var items: [TripItem]
    /// The kept forecast for the day (`GET …/days` only); nil when none.
    public var weather: TripDayWeather?

    public init(
        date: String, number: Int?, lodging: TripItem? = nil, items: [TripItem], weather: TripDayWeather? = nil
    ) {
        self.date = date
        self.number = number
        self.lodging = lodging
        self.items = items
        self.weather = weather
    }
}

/// A day's forecast on a trip's day view: from the weather source's last answer for the
/// destination the day's places lie in (docs/destinations.md).
public struct TripDayWeather: Codable, Sendable, Equatable {
    /// The destination whose forecast it is.
    public struct Place: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public var minC: Double
    public var maxC: Double
    /// In words ("partly cloudy").
    public var condition: String
    public var precipitationMm: Double
    /// The weather source's URL.
    public var source: String
    /// RFC 3339.
    public var fetchedAt: String
    public var destination: Place
}

/// `GET /v1/itineraries/{id}/days`: every day of the trip, and the items on no day.
public struct DayList: Codable, Sendable, Equatable {
    public var days: [TripDay]
    public var unscheduled: [TripItem]

    public init(days: [TripDay], unscheduled: [TripItem]) {
        self.days = days
        self.unscheduled = unscheduled
    }
}

/// One problem found in a trip, naming the items involved and saying what to fix.
public struct TripWarning: Codable, Sendable, Equatable {
    /// Stable code, e.g. `lodging-overlap`, `night-without-lodging`, `items-overlap`.
    public var code: String
    /// Ids of the items involved, in the order the message names them.
    public var items: [String]
    /// One readable sentence.
    public var message: String

    public init(code: String, items: [String], message: String) {
        self.code = code
        self.items = items
        self.message = message
    }
}

/// `GET /v1/itineraries/{id}/warnings`.
public struct WarningList: Codable, Sendable, Equatable {
    public var warnings: [TripWarning]

    public init(warnings: [TripWarning]) { self.warnings = warnings }
}

/// One entry of an itinerary's shared checklist.
public struct ChecklistItem: Codable, Sendable, Equatable {
    public var id: String
    public var text: String
    public var checked: Bool
    /// The list it belongs to ("Packing", "To do"); absent for the default list.
    public var list: String?
    /// The member it is assigned to (human id).
    public var assignee: String?
    /// The assignee's profile name, when this daemon knows it.
    public var assigneeName: String?
    /// 1-based position in the checklist.
    public var position: Int
    public var createdAt: String
    public var updatedAt: String?

    public init(
        id: String, text: String, checked: Bool, list: String? = nil, assignee: String? = nil,
        assigneeName: String? = nil, position: Int, createdAt: String, updatedAt: String? = nil
    ) {
        self.id = id
        self.text = text
        self.checked = checked
        self.list = list
        self.assignee = assignee
        self.assigneeName = assigneeName
        self.position = position
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/itineraries/{id}/checklist`, in position order.
public struct ChecklistList: Codable, Sendable, Equatable {
    public var items: [ChecklistItem]
    public var count: Int

    public init(items: [ChecklistItem], count: Int) {
        self.items = items
        self.count = count
    }
}

/// `POST /v1/itineraries/{id}/items/{itemId}/move` body: a day (by `date` or 1-based `day`
/// number, not both) and/or a 1-based position among that day's items.
public struct ItemMoveRequest: Codable, Sendable, Equatable {
    public var date: String?
    public var day: Int?
    public var position: Int?

    public init(date: String? = nil, day: Int? = nil, position: Int? = nil) {
        self.date = date
        self.day = day
        self.position = position
    }
}

/// `POST /v1/itineraries/{id}/checklist` body.
public struct ChecklistCreate: Codable, Sendable, Equatable {
    public var text: String
    public var list: String?
    /// A member's human id.
    public var assignee: String?
    public var checked: Bool?

    public init(text: String, list: String? = nil, assignee: String? = nil, checked: Bool? = nil) {
        self.text = text
        self.list = list
        self.assignee = assignee
        self.checked = checked
    }
}

/// A feature of an import file that was not imported (not a duplicate: unusable).
public struct ImportIgnored: Codable, Sendable, Equatable {
    /// 0-based index of the feature, placemark or waypoint in the file.
    public var index: Int
    /// Why, in words ("no coordinates", "latitude 91 is out of range").
    public var reason: String

    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}

/// `POST /v1/places/import`.
public struct ImportResult: Codable, Sendable, Equatable {
    /// Places added to the library.
    public var imported: Int
    /// Places left out as duplicates of library places (or of earlier ones in the file).
    public var skipped: Int
    /// Unusable entries, at most 100 listed.
    public var ignored: [ImportIgnored]
    /// Ids of the places added, in file order.
    public var places: [String]

    public init(imported: Int, skipped: Int, ignored: [ImportIgnored] = [], places: [String] = []) {
        self.imported = imported
        self.skipped = skipped
        self.ignored = ignored
        self.places = places
    }
}

/// An itinerary's costs per section, each summed per currency (sorted by currency, never
/// converted); a section with nothing priced is absent.
public struct ItineraryCosts: Codable, Sendable, Equatable {
    /// Lodging items plus the itinerary's own `lodgingPrice`.
    public var lodging: [Money]?
    /// Transport items plus the itinerary's own `travelPrice`.
    public var transport: [Money]?
    public var food: [Money]?
    public var activity: [Money]?

    public init(
        lodging: [Money]? = nil, transport: [Money]? = nil, food: [Money]? = nil, activity: [Money]? = nil
    ) {
        self.lodging = lodging
        self.transport = transport
        self.food = food
        self.activity = activity
    }
}
