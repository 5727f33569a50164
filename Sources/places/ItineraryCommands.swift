import ArgumentParser
import PlacesAPI
import PlacesModel
import PlacesRoutes

/// `places itinerary …`: trips and their places to go.
struct ItineraryGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "itinerary",
        abstract: "Create, show, edit and delete itineraries and their places to go.",
        discussion: """
            An itinerary is a trip folder: dates, transportation, lodging, prices, notes, an \
            ordered list of places to go, and items (`places item`) and a checklist \
            (`places checklist`). `days` and `show --day N` show it day by day. Without a subcommand, lists itineraries; \
            `places itineraries` and `places trip` work too.
            """,
        subcommands: [
            Create.self, List.self, Show.self, Days.self, Check.self, Export.self, Edit.self, Delete.self,
            AddPlace.self, RemovePlace.self, MovePlace.self, Share.self, MembersCommand.self, Rates.self,
            Publish.self, Unpublish.self,
        ],
        defaultSubcommand: List.self,
        aliases: ["itineraries", "trip"])
}

/// The descriptive fields of an itinerary, shared by `create` and `edit`.
struct ItineraryFields: ParsableArguments {
    @Option(help: ArgumentHelp("First day of the trip.", valueName: "YYYY-MM-DD"))
    var start: String?

    @Option(help: ArgumentHelp("Last day of the trip.", valueName: "YYYY-MM-DD"))
    var end: String?

    @Option(help: ArgumentHelp("How you get there, e.g. \"train\".", valueName: "text"))
    var transport: String?

    @Option(help: "Where you stay.")
    var lodgingName: String?

    @Option(help: "The lodging's address.")
    var lodgingAddress: String?

    @Option(help: ArgumentHelp("Lodging check-in day.", valueName: "YYYY-MM-DD"))
    var checkIn: String?

    @Option(help: ArgumentHelp("Lodging check-out day.", valueName: "YYYY-MM-DD"))
    var checkOut: String?

    @Option(help: ArgumentHelp("Travel price, e.g. 120.50 (exact, in --currency).", valueName: "decimal"))
    var travelPrice: String?

    @Option(help: ArgumentHelp("Lodging price, e.g. 340 (exact, in --currency).", valueName: "decimal"))
    var lodgingPrice: String?

    @Option(help: "ISO 4217 currency of --travel-price and --lodging-price.")
    var currency: String = "EUR"

    @Option(help: "Free-form notes.")
    var notes: String?

    @Option(help: ArgumentHelp("The trip's IANA time zone, the default of its items' times.", valueName: "zone"))
    var tz: String?

    @Option(help: "How you get around on day routes: walking, cycling or driving.")
    var travelMode: TravelMode?

    func validate() throws {
        try validateDate(start, option: "--start")
        try validateDate(end, option: "--end")
        try validateDate(checkIn, option: "--check-in")
        try validateDate(checkOut, option: "--check-out")
        if let start, let end, end < start { throw ValidationError("--end \(end) is before --start \(start)") }
        if let checkIn, let checkOut, checkOut < checkIn {
            throw ValidationError("--check-out \(checkOut) is before --check-in \(checkIn)")
        }
        guard Money.isValidCurrency(currency.uppercased()) else {
            throw ValidationError("--currency '\(currency)' is not an ISO 4217 code like EUR")
        }
        _ = try prices()
    }

    /// The parsed prices, exact in minor units.
    func prices() throws -> (travel: Money?, lodging: Money?) {
        let code = currency.uppercased()
        return (
            try travelPrice.map { try parseMoney($0, currency: code, option: "--travel-price") },
            try lodgingPrice.map { try parseMoney($0, currency: code, option: "--lodging-price") }
        )
    }

    /// Writes the given options into `body` (lodging as an object of the given sub-fields).
    func fill(_ body: inout JSONBody) throws {
        if let start { body["startDate"] = .string(start) }
        if let end { body["endDate"] = .string(end) }
        if let transport { body["transportation"] = .string(transport) }
        var lodging: [String: JSONValue] = [:]
        if let lodgingName { lodging["name"] = .string(lodgingName) }
        if let lodgingAddress { lodging["address"] = .string(lodgingAddress) }
        if let checkIn { lodging["checkIn"] = .string(checkIn) }
        if let checkOut { lodging["checkOut"] = .string(checkOut) }
        if !lodging.isEmpty { body["lodging"] = .object(lodging) }
        let (travel, lodgingCost) = try prices()
        if let travel { body["travelPrice"] = travel.jsonValue }
        if let lodgingCost { body["lodgingPrice"] = lodgingCost.jsonValue }
        if let notes { body["notes"] = .string(notes) }
        if let tz { body["timeZone"] = .string(tz) }
        if let travelMode { body["travelMode"] = .string(travelMode.rawValue) }
    }
}

extension ItineraryGroup {
    /// `places itinerary create`.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an itinerary, or copy one (--from) to new dates.",
            discussion: """
                Prices are exact decimals in --currency (default EUR): 12.5 is 1250 cents; more \
                decimals than the currency has are refused. --place adds places from your \
                library as places to go, in the order given.

                --from ID --start YYYY-MM-DD copies a published trip (`places explore`) or one of \
                your itineraries as a new itinerary of yours starting that day: its days, items \
                and places to go shift with it. NAME is optional then (the copy keeps the \
                original's name); no other field goes with --from.
                """,
            aliases: ["new"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary's name (with --from: a new name for the copy).")
        var name: String?

        @Option(
            help: ArgumentHelp(
                "Copy this published trip or itinerary of yours (its id, the start of it, or its name); needs --start.",
                valueName: "trip"))
        var from: String?

        @OptionGroup var fields: ItineraryFields

        @Option(name: .customLong("place"), help: "A library place (id or name) to go to (repeat, in order).")
        var places: [String] = []

        func validate() throws {
            guard from != nil else {
                if name == nil {
                    throw ValidationError("give the itinerary's name (or --from TRIP --start YYYY-MM-DD to copy one)")
                }
                return
            }
            guard fields.start != nil else {
                throw ValidationError("--from needs --start YYYY-MM-DD: the day the copy begins")
            }
            var others = places.isEmpty ? [] : ["--place"]
            let given: [(String, Bool)] = [
                ("--end", fields.end != nil), ("--transport", fields.transport != nil),
                ("--lodging-name", fields.lodgingName != nil), ("--lodging-address", fields.lodgingAddress != nil),
                ("--check-in", fields.checkIn != nil), ("--check-out", fields.checkOut != nil),
                ("--travel-price", fields.travelPrice != nil), ("--lodging-price", fields.lodgingPrice != nil),
                ("--notes", fields.notes != nil), ("--tz", fields.tz != nil),
                ("--travel-mode", fields.travelMode != nil),
            ]
            others += given.filter(\.1).map(\.0)
            if !others.isEmpty {
                throw ValidationError(
                    "--from copies a trip as it is: only --start and a NAME go with it, not \(others.joined(separator: ", "))"
                        + " (change the copy with `places itinerary edit` afterwards)")
            }
        }

        func run() throws {
            if let from { return try copy(from) }
            var body = JSONBody()
            body["name"] = .string(name ?? "")
            try fields.fill(&body)
            if !places.isEmpty {
                let names = global.names
                body["places"] = .array(try places.map { JSONValue.string(try names.place($0)) })
            }
            let reply = try global.api.post(Target.v1("itineraries"), body)
            if global.json { return printRaw(reply) }
            let itinerary = try reply.decode(Itinerary.self)
            print("created itinerary \(Format.shortID(itinerary.id)) \(itinerary.name)")
        }

        /// `POST /v1/itineraries {"from", "startDate", "name"?}`: a copy of a published trip or
        /// of an itinerary, from `--start` on.
        private func copy(_ from: String) throws {
            let source = try global.explore.template(from)
            var body = JSONBody()
            body["from"] = .string(source)
            body["startDate"] = fields.start.map(JSONValue.string)
            if let name { body["name"] = .string(name) }
            let reply = try global.api.post(Target.v1("itineraries"), body)
            if global.json { return printRaw(reply) }
            let itinerary = try reply.decode(Itinerary.self)
            print(
                "created itinerary \(Format.shortID(itinerary.id)) \(itinerary.name), "
                    + Format.dateRange(itinerary.startDate, itinerary.endDate))
            print("copied from \(itinerary.origin ?? Format.shortID(source))")
            print("`places itinerary days \(Format.shortID(itinerary.id))` shows it day by day")
        }
    }

    /// `places itinerary list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List itineraries: yours and those shared with you.", aliases: ["ls"])

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Only itineraries you own.")
        var mine = false

        @Flag(help: "Only itineraries others shared with you.")
        var shared = false

        func validate() throws {
            if mine && shared { throw ValidationError("give --mine or --shared, not both") }
        }

        func run() throws {
            let scope = mine ? "mine" : shared ? "shared" : "all"
            let reply = try global.api.get(Target.v1("itineraries", query: [("scope", scope)]))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(ItineraryList.self)
            guard !list.itineraries.isEmpty else {
                return print(
                    shared
                        ? "no itineraries shared with you yet"
                        : "no itineraries yet: create one with `places itinerary create NAME`")
            }
            var table = Table(
                "ID", "NAME", "DATES", "PLACES", "TOTAL", "ROLE", alignments: [.left, .left, .left, .right])
            for row in list.itineraries {
                table.append(
                    Format.shortID(row.id), row.name, Format.dateRange(row.startDate, row.endDate),
                    String(row.placeCount),
                    Format.money(row.totalCost), row.role)
            }
            table.print()
            print("\(list.count) itinerar\(list.count == 1 ? "y" : "ies")")
        }
    }

    /// `places itinerary show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show an itinerary: every field, places to go in order, costs; or one day (--day).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var id: String

        @Option(help: ArgumentHelp("Only this day: its number (1 = first) or its date.", valueName: "N|YYYY-MM-DD"))
        var day: String?

        @OptionGroup var style: TripStyle

        func validate() throws {
            if let day { _ = try dayReference(day) }
        }

        func run() throws {
            if let day {
                let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(id), "days", day))
                if global.json { return printRaw(reply) }
                return print(TripFormat.day(try reply.decode(TripDay.self), plain: style.plain))
            }
            let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(id)))
            if global.json { return printRaw(reply) }
            printItinerary(try reply.decode(Itinerary.self), trip: ItineraryTripFields(reply))
        }
    }

    /// `places itinerary edit`.
    struct Edit: ParsableCommand {
        /// Fields `--clear` can empty.
        enum ClearableField: String, ExpressibleByArgument, CaseIterable {
            case start, end, transport, lodging, lodgingName = "lodging-name", lodgingAddress = "lodging-address"
            case checkIn = "check-in", checkOut = "check-out", travelPrice = "travel-price"
            case lodgingPrice = "lodging-price", notes, tz, travelMode = "travel-mode"
        }

        static let configuration = CommandConfiguration(
            abstract: "Change some fields of an itinerary.",
            discussion: """
                Only the options given are sent. Lodging sub-fields merge one by one. --clear \
                empties a field: start, end, transport, lodging (all of it), lodging-name, \
                lodging-address, check-in, check-out, travel-price, lodging-price, notes, tz, \
                travel-mode. \
                --settlement-currency sets the currency balances are kept in (refused while \
                expenses settle in another one). \
                Manage places to go with add-place, remove-place and move-place.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var id: String

        @Option(help: "New name.")
        var name: String?

        @OptionGroup var fields: ItineraryFields

        @Option(help: ArgumentHelp("Clear this field (repeatable).", valueName: "field"))
        var clear: [ClearableField] = []

        @Option(
            name: .customLong("settlement-currency"),
            help: ArgumentHelp("The currency expenses are settled in (ISO 4217).", valueName: "code"))
        var settlementCurrency: String?

        func validate() throws {
            if let settlementCurrency {
                _ = try AmountText.currency(settlementCurrency, what: "--settlement-currency")
            }
        }

        func run() throws {
            var body = JSONBody()
            if let name { body["name"] = .string(name) }
            if let settlementCurrency { body["settlementCurrency"] = .string(settlementCurrency.uppercased()) }
            try fields.fill(&body)
            for field in clear {
                switch field {
                case .start: try set(&body, "startDate", .null)
                case .end: try set(&body, "endDate", .null)
                case .transport: try set(&body, "transportation", .null)
                case .lodging: try set(&body, "lodging", .null)
                case .travelPrice: try set(&body, "travelPrice", .null)
                case .lodgingPrice: try set(&body, "lodgingPrice", .null)
                case .notes: try set(&body, "notes", .null)
                case .tz: try set(&body, "timeZone", .null)
                case .travelMode: try set(&body, "travelMode", .null)
                case .lodgingName, .lodgingAddress, .checkIn, .checkOut:
                    let key =
                        [
                            "lodging-name": "name", "lodging-address": "address", "check-in": "checkIn",
                            "check-out": "checkOut",
                        ][field.rawValue] ?? field.rawValue
                    guard case .object(var lodging) = body["lodging"] ?? .object([:]) else {
                        throw ValidationError("--clear \(field.rawValue) conflicts with --clear lodging")
                    }
                    guard lodging[key] == nil else {
                        throw ValidationError("--clear \(field.rawValue) conflicts with a new value for it")
                    }
                    lodging[key] = .null
                    body["lodging"] = .object(lodging)
                }
            }
            guard !body.fields.isEmpty else {
                throw ValidationError("nothing to change: give at least one field option or --clear FIELD")
            }
            let reply = try global.api.patch(Target.v1("itineraries", try global.names.itinerary(id)), body)
            if global.json { return printRaw(reply) }
            printItinerary(try reply.decode(Itinerary.self), trip: ItineraryTripFields(reply))
            if settlementCurrency != nil, let code = try? reply.decode(SettlementCurrencyField.self).settlementCurrency
            {
                print("\nsettlement currency: \(code) (rates: `places itinerary rates \(Format.shortID(id))`)")
            }
        }

        private func set(_ body: inout JSONBody, _ key: String, _ value: JSONValue) throws {
            guard body[key] == nil else { throw ValidationError("--clear conflicts with a new value for \(key)") }
            body[key] = value
        }
    }

    /// `places itinerary delete`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an itinerary.",
            discussion: "The owner's delete removes it for every member; anyone else's only leaves it.",
            aliases: ["rm"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var id: String

        func run() throws {
            // Whether this is a delete or a leave depends on the caller's role.
            let list = try? global.api.get(Target.v1("itineraries")).decode(ItineraryList.self)
            let role = list?.itineraries.first { $0.id.hasPrefix(id.lowercased()) }?.role
            let reply = try global.api.delete(Target.v1("itineraries", try global.names.itinerary(id)))
            if global.json { return printRaw(reply) }
            if let role, role != "owner" {
                print("left itinerary \(id): it stays for its other members")
            } else {
                print("deleted itinerary \(id) for every member")
            }
        }
    }

    /// `places itinerary add-place`.
    struct AddPlace: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-place",
            abstract: "Add a place from your library to an itinerary's places to go.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "A library place (id, name or unique start) or a discover result (id or name).")
        var place: String

        @Option(help: "1-based position among the places to go (default: last).")
        var position: Int?

        func validate() throws {
            if let position, position < 1 { throw ValidationError("--position starts at 1") }
        }

        func run() throws {
            let target = Target.v1("itineraries", try global.names.itinerary(itinerary), "places")
            let placeID = try ResultResolver(global: global).libraryPlace(place).id
            let reply = try global.api.post(target, AddStopRequest(placeId: placeID, position: position))
            if global.json { return printRaw(reply) }
            printItinerary(try reply.decode(Itinerary.self), trip: ItineraryTripFields(reply))
        }
    }

    /// `places itinerary remove-place`.
    struct RemovePlace: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-place",
            abstract: "Remove a place to go from an itinerary.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The place to go: its name, its stop id or its place id (or a unique start).")
        var stop: String

        func run() throws {
            let itineraryID = try global.names.itinerary(itinerary)
            let stopID = try global.names.stop(stop, in: itineraryID)
            let reply = try global.api.delete(Target.v1("itineraries", itineraryID, "places", stopID))
            if global.json { return printRaw(reply) }
            printItinerary(try reply.decode(Itinerary.self), trip: ItineraryTripFields(reply))
        }
    }

    /// `places itinerary move-place`.
    struct MovePlace: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-place",
            abstract: "Move a place to go to another position.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The place to go: its name, its stop id or its place id (or a unique start).")
        var stop: String

        @Option(help: "The new 1-based position.")
        var to: Int

        func validate() throws {
            if to < 1 { throw ValidationError("--to starts at 1") }
        }

        func run() throws {
            let itineraryID = try global.names.itinerary(itinerary)
            let stopID = try global.names.stop(stop, in: itineraryID)
            let reply = try global.api.post(
                Target.v1("itineraries", itineraryID, "places", stopID, "move"),
                MoveRequest(position: to))
            if global.json { return printRaw(reply) }
            printItinerary(try reply.decode(Itinerary.self), trip: ItineraryTripFields(reply))
        }
    }
}
