import ArgumentParser
import PlacesAPI
import PlacesModel

/// `places place …`: the user's library of places.
struct PlaceGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Add, list, show, edit, remove, import and export places in your library.",
        discussion: "Without a subcommand, lists places. `places places` is the same as `places place list`.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self, Import.self, Export.self, Photos.self],
        defaultSubcommand: List.self,
        aliases: ["places"])
}

/// The optional descriptive fields of a place, shared by `place add` and `place edit`.
struct PlaceDetails: ParsableArguments {
    @Option(help: "Street address.")
    var address: String?

    @Option(name: .customLong("category"), help: "A category (repeat for several), e.g. food, museum.")
    var categories: [String] = []

    @Option(help: ArgumentHelp("Price level from 1 (cheap) to 4 (expensive).", valueName: "1-4"))
    var price: Int?

    @Option(help: ArgumentHelp("Your rating from 0 to 5 (decimals allowed).", valueName: "0-5"))
    var rating: Double?

    @Option(help: "Free-form notes.")
    var notes: String?

    @Option(help: "A web page for the place.")
    var url: String?

    @Option(
        help: ArgumentHelp(
            "Opening hours in OpenStreetMap's syntax, e.g. \"Mo-Fr 09:00-18:00; Sa 10:00-14:00; Su off\".",
            valueName: "hours"))
    var hours: String?

    @Option(help: ArgumentHelp("How long a visit takes, in minutes (5 to 720).", valueName: "minutes"))
    var visit: Int?

    @Option(help: ArgumentHelp("What a visit costs one person, e.g. \"12.50 EUR\".", valueName: "amount"))
    var entryPrice: String?

    func validate() throws {
        if let price, !(1...4).contains(price) { throw ValidationError("--price must be 1 to 4, not \(price)") }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating must be 0 to 5, not \(rating)") }
        if let visit, !(5...720).contains(visit) {
            throw ValidationError("--visit must be 5 to 720 minutes, not \(visit)")
        }
        if let entryPrice { _ = try parsePrice(entryPrice, option: "--entry-price") }
    }

    /// Writes the given options into `body`.
    func fill(_ body: inout JSONBody) {
        if let address { body["address"] = .string(address) }
        if !categories.isEmpty { body["categories"] = .array(categories.map(JSONValue.string)) }
        if let price { body["priceLevel"] = .int(Int64(price)) }
        if let rating { body["rating"] = .double(rating) }
        if let notes { body["notes"] = .string(notes) }
        if let url { body["url"] = .string(url) }
        if let hours { body["openingHours"] = .string(hours) }
        if let visit { body["visitMinutes"] = .int(Int64(visit)) }
        if let entryPrice, let money = try? parsePrice(entryPrice, option: "--entry-price") {
            body["entryPrice"] = .object(["amountMinor": .int(money.amountMinor), "currency": .string(money.currency)])
        }
    }
}

/// Checks latitude/longitude ranges.
func validateCoordinates(latitude: Double?, longitude: Double?) throws {
    if let latitude, !(-90...90).contains(latitude) {
        throw ValidationError("--lat must be between -90 and 90, not \(latitude)")
    }
    if let longitude, !(-180...180).contains(longitude) {
        throw ValidationError("--lon must be between -180 and 180, not \(longitude)")
    }
}

/// Prints one place as a `key: value` block.
func printPlace(_ place: Place) {
    var fields = Fields()
    fields["id"] = place.id
    fields["name"] = place.name
    fields["location"] = Format.coordinates(place.latitude, place.longitude)
    fields["address"] = place.address
    fields["categories"] = place.categories.isEmpty ? nil : place.categories.joined(separator: ", ")
    fields["price"] = Format.priceLevel(place.priceLevel)
    fields["rating"] = place.rating.map { Format.number($0) + " / 5" }
    fields["favorite"] = place.favorite ? "yes" : "no"
    fields["url"] = place.url
    fields["hours"] = place.openingHours
    fields["visit"] = place.visitMinutes.map { "\($0) min" }
    fields["entry"] = place.entryPrice?.description
    fields["notes"] = place.notes
    fields["created"] = Format.time(place.createdAt)
    fields["updated"] = place.updatedAt.map(Format.time)
    fields.print()
}

extension PlaceGroup {
    /// `places place add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a place to your library: by name, from a discover result, or at coordinates.",
            discussion: """
                Without --lat/--lon the coordinates come from discover: NAME may be a result id \
                (city:2267057, place:…) or a name (`places place add Lisbon`); the first result \
                is used and named on standard error. --in CITY looks for NAME near CITY, and puts \
                NAME at CITY's centre when nothing of that name is within 50 km. A result already \
                in your library (same gazetteer id) is not added twice. Coordinates are decimal \
                degrees; negative values work as `--lat -33.9` or `--lat=-33.9`.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(
            help: "The place's name, or a discover result's id or name; with --from-friend, the friend's place.")
        var name: String?

        @Option(help: ArgumentHelp("Copy the place a post names (a post id or its start).", valueName: "post"))
        var fromPost: String?

        @Option(help: ArgumentHelp("Copy one of the places this friend shares (NAME is that place).", valueName: "id"))
        var fromFriend: String?

        @Option(name: .customLong("lat"), parsing: .unconditional, help: "Latitude in decimal degrees (-90 to 90).")
        var latitude: Double?

        @Option(name: .customLong("lon"), parsing: .unconditional, help: "Longitude in decimal degrees (-180 to 180).")
        var longitude: Double?

        @Option(
            name: .customLong("in"),
            help: ArgumentHelp("Look for NAME in or near this city (or region, country).", valueName: "city"))
        var within: String?

        @OptionGroup var details: PlaceDetails

        func validate() throws {
            if fromPost != nil || fromFriend != nil {
                guard fromPost == nil || fromFriend == nil else {
                    throw ValidationError("give --from-post or --from-friend, not both")
                }
                guard latitude == nil, longitude == nil, within == nil else {
                    throw ValidationError("a copied place keeps its coordinates: drop --lat/--lon/--in")
                }
                guard fromPost == nil || name == nil else {
                    throw ValidationError("--from-post takes the post's place: drop NAME")
                }
                guard fromFriend == nil || name != nil else {
                    throw ValidationError("--from-friend ID needs the place: `places place add --from-friend ID PLACE`")
                }
                return
            }
            guard name != nil else { throw ValidationError("give the place's NAME") }
            try validateCoordinates(latitude: latitude, longitude: longitude)
            if (latitude == nil) != (longitude == nil) {
                throw ValidationError("give both --lat and --lon, or neither")
            }
            if within != nil && latitude != nil {
                throw ValidationError("--in looks the coordinates up; drop --lat/--lon")
            }
        }

        func run() throws {
            if fromPost != nil || fromFriend != nil { return try addCopy() }
            guard let latitude, let longitude else { return try addFromDiscover() }
            var body = JSONBody()
            body["name"] = .string(name ?? "")
            body["latitude"] = .double(latitude)
            body["longitude"] = .double(longitude)
            details.fill(&body)
            let reply = try global.api.post(Target.v1("places"), body)
            if global.json { return printRaw(reply) }
            let place = try reply.decode(Place.self)
            print("added place \(Format.shortID(place.id)) \(place.name)")
        }

        /// `--from-post` / `--from-friend`: the daemon copies the place and remembers where from.
        func addCopy() throws {
            var body = JSONBody()
            if let fromPost {
                body["fromPost"] = .string(try global.social.post(fromPost))
            } else if let fromFriend, let name {
                body["fromFriend"] = .string(try global.social.friend(fromFriend))
                body["placeId"] = .string(name)
            }
            details.fill(&body)
            let reply = try global.api.post(Target.v1("places"), body)
            if global.json { return printRaw(reply) }
            let place = try reply.decode(Place.self)
            let origin = place.origin.map { " (from \($0.hasPrefix("post:") ? "a post" : "a friend"))" } ?? ""
            print("added place \(Format.shortID(place.id)) \(place.name)\(origin)")
        }
    }

    /// `places place list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the places in your library.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("places"))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(PlaceList.self)
            guard !list.places.isEmpty else {
                return print("no places yet: add one with `places place add NAME` (e.g. `places place add Lisbon`)")
            }
            var table = Table("ID", "NAME", "LOCATION", "CATEGORIES", "PRICE", "RATING", "FAV")
            for place in list.places {
                table.append(
                    Format.shortID(place.id), place.name, Format.coordinates(place.latitude, place.longitude),
                    place.categories.joined(separator: ","), Format.priceLevel(place.priceLevel) ?? "",
                    place.rating.map(Format.number) ?? "", place.favorite ? "♥" : "")
            }
            table.print()
            print("\(list.count) place\(list.count == 1 ? "" : "s")")
        }
    }

    /// `places place show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every field of a place.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The place: its id, its name or a unique start of either (case and accents ignored).")
        var id: String

        func run() throws {
            let reply = try global.api.get(Target.v1("places", try global.names.place(id)))
            if global.json { return printRaw(reply) }
            printPlace(try reply.decode(Place.self))
        }
    }

    /// `places place edit`.
    struct Edit: ParsableCommand {
        /// Fields `--clear` can empty.
        enum ClearableField: String, ExpressibleByArgument, CaseIterable {
            case address, categories, price, rating, notes, url, hours, visit
            case entryPrice = "entry-price"

            var jsonKey: String {
                switch self {
                case .price: "priceLevel"
                case .hours: "openingHours"
                case .visit: "visitMinutes"
                case .entryPrice: "entryPrice"
                default: rawValue
                }
            }
        }

        static let configuration = CommandConfiguration(
            abstract: "Change some fields of a place.",
            discussion: """
                Only the options given are sent; everything else stays as it is. --clear empties \
                an optional field (address, categories, price, rating, notes, url, hours, visit, \
                entry-price).
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The place: its id, its name or a unique start of either (case and accents ignored).")
        var id: String

        @Option(help: "New name.")
        var name: String?

        @Option(name: .customLong("lat"), parsing: .unconditional, help: "New latitude in decimal degrees.")
        var latitude: Double?

        @Option(name: .customLong("lon"), parsing: .unconditional, help: "New longitude in decimal degrees.")
        var longitude: Double?

        @OptionGroup var details: PlaceDetails

        @Option(help: ArgumentHelp("Clear this field (repeatable).", valueName: "field"))
        var clear: [ClearableField] = []

        func validate() throws {
            try validateCoordinates(latitude: latitude, longitude: longitude)
        }

        func run() throws {
            var body = JSONBody()
            if let name { body["name"] = .string(name) }
            if let latitude { body["latitude"] = .double(latitude) }
            if let longitude { body["longitude"] = .double(longitude) }
            details.fill(&body)
            for field in clear {
                guard body[field.jsonKey] == nil else {
                    throw ValidationError("--clear \(field.rawValue) conflicts with a new value for it")
                }
                body[field.jsonKey] = field == .categories ? .array([]) : .null
            }
            guard !body.fields.isEmpty else {
                throw ValidationError("nothing to change: give at least one field option or --clear FIELD")
            }
            let reply = try global.api.patch(Target.v1("places", try global.names.place(id)), body)
            if global.json { return printRaw(reply) }
            printPlace(try reply.decode(Place.self))
        }
    }

    /// `places place remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a place from your library.",
            discussion: "Itineraries keep their own copy of the place as a stop.",
            aliases: ["rm"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The place: its id, its name or a unique start of either (case and accents ignored).")
        var id: String

        func run() throws {
            let reply = try global.api.delete(Target.v1("places", try global.names.place(id)))
            if global.json { return printRaw(reply) }
            print("removed place \(id)")
        }
    }
}
