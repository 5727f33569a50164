import ArgumentParser
import PlacesModel

/// The four item types a user creates (`place` items are places to go, managed with
/// `places itinerary add-place`).
enum ItemType: String, ExpressibleByArgument, CaseIterable {
    case lodging, transport, food, activity
}

/// A transport's mode.
enum TransportMode: String, ExpressibleByArgument, CaseIterable {
    case flight, train, bus, car, ferry, other
}

/// The fields of an item, shared by `item add` and `item edit`.
struct ItemFields: ParsableArguments {
    @Option(help: ArgumentHelp("Start (lodging: check-in), local: 2027-05-03 or 2027-05-03T09:10.", valueName: "when"))
    var start: String?

    @Option(help: ArgumentHelp("End (lodging: check-out; transport: arrival), local.", valueName: "when"))
    var end: String?

    @Option(help: ArgumentHelp("IANA time zone of --start, e.g. Europe/Lisbon.", valueName: "zone"))
    var tz: String?

    @Option(name: .customLong("end-tz"), help: ArgumentHelp("Transport: time zone of the arrival.", valueName: "zone"))
    var endTz: String?

    @Option(help: ArgumentHelp("Where (transport: from where): a name.", valueName: "name"))
    var at: String?

    @Option(help: "Street address of --at.")
    var address: String?

    @Option(name: .customLong("lat"), parsing: .unconditional, help: "Latitude of --at in decimal degrees.")
    var latitude: Double?

    @Option(name: .customLong("lon"), parsing: .unconditional, help: "Longitude of --at in decimal degrees.")
    var longitude: Double?

    @Option(help: ArgumentHelp("Transport: where it arrives, a name.", valueName: "name"))
    var to: String?

    @Option(name: .customLong("to-address"), help: "Transport: address of --to.")
    var toAddress: String?

    @Option(name: .customLong("to-lat"), parsing: .unconditional, help: "Transport: latitude of --to.")
    var toLatitude: Double?

    @Option(name: .customLong("to-lon"), parsing: .unconditional, help: "Transport: longitude of --to.")
    var toLongitude: Double?

    @Option(help: ArgumentHelp("Price with its currency, exact: \"12.50 EUR\".", valueName: "amount"))
    var price: String?

    @Option(help: "Free-form notes.")
    var notes: String?

    @Option(help: "A web page (booking, menu, tickets).")
    var url: String?

    @Option(help: ArgumentHelp("Lodging: confirmation code.", valueName: "code"))
    var code: String?

    @Option(help: "Lodging: how to reach the host.")
    var contact: String?

    @Option(help: "Transport: flight, train, bus, car, ferry or other (default other).")
    var mode: TransportMode?

    @Option(help: "Transport: the company (\"TAP\", \"CP\").")
    var carrier: String?

    @Option(help: "Transport: flight or train number.")
    var number: String?

    @Option(help: ArgumentHelp("Transport: booking reference.", valueName: "reference"))
    var booking: String?

    @Option(help: "Food: what to order or why go.")
    var recommendation: String?

    @Option(help: ArgumentHelp("Food: your rating from 0 to 5.", valueName: "0-5"))
    var rating: Double?

    @Option(help: "Activity: what it is.")
    var description: String?

    @Flag(inversion: .prefixedNo, help: "Activity: whether it is booked.")
    var booked: Bool?

    @Option(help: ArgumentHelp("Activity: the item or place to go it belongs to.", valueName: "item"))
    var link: String?

    func validate() throws {
        if let start { _ = try localDateTime(start, option: "--start") }
        if let end { _ = try localDateTime(end, option: "--end") }
        try validateCoordinates(latitude: latitude, longitude: longitude)
        try validateCoordinates(latitude: toLatitude, longitude: toLongitude)
        if (latitude == nil) != (longitude == nil) { throw ValidationError("give --lat and --lon together") }
        if (toLatitude == nil) != (toLongitude == nil) { throw ValidationError("give --to-lat and --to-lon together") }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating must be 0 to 5, not \(rating)") }
        if let price { _ = try parsePrice(price, option: "--price") }
    }

    /// The type-specific options given, with the type each belongs to.
    var typeSpecific: [(option: String, type: ItemType)] {
        var given: [(String, ItemType)] = []
        if code != nil { given.append(("--code", .lodging)) }
        if contact != nil { given.append(("--contact", .lodging)) }
        if endTz != nil { given.append(("--end-tz", .transport)) }
        if to != nil || toAddress != nil || toLatitude != nil { given.append(("--to", .transport)) }
        if mode != nil { given.append(("--mode", .transport)) }
        if carrier != nil { given.append(("--carrier", .transport)) }
        if number != nil { given.append(("--number", .transport)) }
        if booking != nil { given.append(("--booking", .transport)) }
        if recommendation != nil { given.append(("--recommendation", .food)) }
        if rating != nil { given.append(("--rating", .food)) }
        if description != nil { given.append(("--description", .activity)) }
        if booked != nil { given.append(("--booked", .activity)) }
        if link != nil { given.append(("--link", .activity)) }
        return given
    }

    /// Writes the given options into `body`; `location` and `to` as objects of the given
    /// sub-fields (the API merges them field by field).
    func fill(_ body: inout JSONBody) throws {
        if let start { body["start"] = .string(try localDateTime(start, option: "--start")) }
        if let end { body["end"] = .string(try localDateTime(end, option: "--end")) }
        if let tz { body["timeZone"] = .string(tz) }
        if let endTz { body["endTimeZone"] = .string(endTz) }
        let location = Self.location(at, address, latitude, longitude)
        if !location.isEmpty { body["location"] = .object(location) }
        let destination = Self.location(to, toAddress, toLatitude, toLongitude)
        if !destination.isEmpty { body["to"] = .object(destination) }
        if let price { body["price"] = try parsePrice(price, option: "--price").jsonValue }
        let texts: [(String, String?)] = [
            ("notes", notes), ("url", url), ("confirmationCode", code), ("contact", contact),
            ("mode", mode?.rawValue), ("carrier", carrier), ("number", number), ("bookingReference", booking),
            ("recommendation", recommendation), ("description", description), ("linkedItem", link),
        ]
        for (key, value) in texts { if let value { body[key] = .string(value) } }
        if let rating { body["rating"] = .double(rating) }
        if let booked { body["booked"] = .bool(booked) }
    }

    private static func location(
        _ name: String?, _ address: String?, _ latitude: Double?, _ longitude: Double?
    ) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        if let name { object["name"] = .string(name) }
        if let address { object["address"] = .string(address) }
        if let latitude { object["latitude"] = .double(latitude) }
        if let longitude { object["longitude"] = .double(longitude) }
        return object
    }
}

/// Fields `places item edit --clear` can empty, and where each lives in the PATCH body.
enum ClearableItemField: String, ExpressibleByArgument, CaseIterable {
    case start, end, tz, endTz = "end-tz", location, at, address, coordinates, to, toAddress = "to-address"
    case toCoordinates = "to-coordinates", price, notes, url, code, contact, carrier, number, booking
    case recommendation, rating, description, link

    /// The body key and, for a sub-field of `location` or `to`, the sub-keys to null.
    var path: (key: String, subKeys: [String]) {
        switch self {
        case .start: ("start", [])
        case .end: ("end", [])
        case .tz: ("timeZone", [])
        case .endTz: ("endTimeZone", [])
        case .location: ("location", [])
        case .at: ("location", ["name"])
        case .address: ("location", ["address"])
        case .coordinates: ("location", ["latitude", "longitude"])
        case .to: ("to", [])
        case .toAddress: ("to", ["address"])
        case .toCoordinates: ("to", ["latitude", "longitude"])
        case .price: ("price", [])
        case .notes: ("notes", [])
        case .url: ("url", [])
        case .code: ("confirmationCode", [])
        case .contact: ("contact", [])
        case .carrier: ("carrier", [])
        case .number: ("number", [])
        case .booking: ("bookingReference", [])
        case .recommendation: ("recommendation", [])
        case .rating: ("rating", [])
        case .description: ("description", [])
        case .link: ("linkedItem", [])
        }
    }

    /// Adds this field's `null` to `body`, refusing a clash with a value given for it.
    func clear(in body: inout JSONBody) throws {
        let (key, subKeys) = path
        let conflict = ValidationError("--clear \(rawValue) conflicts with a new value for it")
        guard !subKeys.isEmpty else {
            guard body[key] == nil else { throw conflict }
            body[key] = .null
            return
        }
        guard case .object(var object) = body[key] ?? .object([:]) else {
            throw ValidationError("--clear \(rawValue) conflicts with --clear \(key)")
        }
        for sub in subKeys {
            guard object[sub] == nil else { throw conflict }
            object[sub] = .null
        }
        body[key] = .object(object)
    }
}
