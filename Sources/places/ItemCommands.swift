import ArgumentParser
import PlacesAPI
import PlacesModel

/// `places item …`: the stays, transport, food and activities of an itinerary.
struct ItemGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "Add, list, show, edit, move and remove an itinerary's items.",
        discussion: """
            An item is a lodging (a stay: check-in to check-out), a transport (a leg from \
            --at to --to, departure and arrival each in its own time zone), food or an \
            activity. Times are local to the item's time zone (--tz; by default the \
            itinerary's). Without a subcommand, lists the items: `places item ITIN`.
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self, Move.self],
        defaultSubcommand: List.self,
        aliases: ["items"])
}

extension ItemGroup {
    /// `places item add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an item to an itinerary.",
            discussion: """
                Examples:
                  places item add ITIN transport "Lisbon → Porto" --mode train \\
                    --start 2027-05-03T09:10 --end 2027-05-03T12:05 \\
                    --at "Santa Apolónia" --to "Campanhã" --carrier CP --number 123
                  places item add ITIN lodging "Casa Porto" --price "340 EUR" \\
                    --start 2027-05-03T15:00 --end 2027-05-06T11:00 --code X7K2
                  places item add ITIN food Ramiro --start 2027-05-03T20:00 --rating 4.5
                  places item add ITIN activity "Livraria Lello" --start 2027-05-04 --booked
                """,
            aliases: ["new"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "lodging, transport, food or activity.")
        var type: ItemType

        @Argument(help: "The item's title (a lodging's or restaurant's name, \"Lisbon → Porto\").")
        var title: String

        @OptionGroup var fields: ItemFields

        func validate() throws {
            if let wrong = fields.typeSpecific.first(where: { $0.type != type }) {
                throw ValidationError("\(wrong.option) is for \(wrong.type.rawValue) items, not \(type.rawValue)")
            }
        }

        func run() throws {
            var body = JSONBody()
            body["type"] = .string(type.rawValue)
            body["title"] = .string(title)
            try fields.fill(&body)
            let reply = try global.api.post(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "items"), body)
            if global.json { return printRaw(reply) }
            let item = try reply.decode(TripItem.self)
            print("added \(item.type) \(Format.shortID(item.id)) \(item.title)")
        }
    }

    /// `places item list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List an itinerary's items, by start (undated last).", aliases: ["ls"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Option(help: "Only items of this type: lodging, transport, food or activity.")
        var type: ItemType?

        func run() throws {
            let reply = try global.api.get(
                Target.v1(
                    "itineraries", try global.names.itinerary(itinerary), "items", query: [("type", type?.rawValue)]))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(ItemList.self)
            guard !list.items.isEmpty else {
                return print("no items yet: `places item add \(itinerary) TYPE TITLE`")
            }
            print(TripFormat.itemTable(list.items))
            print("\(list.count) item\(list.count == 1 ? "" : "s")")
        }
    }

    /// `places item show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every field of an item.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The item id (or a unique prefix of 4+ hex digits).")
        var item: String

        func run() throws {
            let reply = try global.api.get(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "items", item))
            if global.json { return printRaw(reply) }
            print(TripFormat.itemFields(try reply.decode(TripItem.self)))
        }
    }

    /// `places item edit`.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change some fields of an item.",
            discussion: """
                Only the options given are sent. --at/--address/--lat/--lon (and the --to \
                ones) change only those parts of the location. --clear empties a field: \
                \(ClearableItemField.allCases.map(\.rawValue).joined(separator: ", ")) \
                (location and to: all of it; at: its name; coordinates: --lat and --lon).
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The item id (or a unique prefix of 4+ hex digits).")
        var item: String

        @Option(help: "New title.")
        var title: String?

        @OptionGroup var fields: ItemFields

        @Option(help: ArgumentHelp("Clear this field (repeatable).", valueName: "field"))
        var clear: [ClearableItemField] = []

        func run() throws {
            var body = JSONBody()
            if let title { body["title"] = .string(title) }
            try fields.fill(&body)
            for field in clear { try field.clear(in: &body) }
            guard !body.fields.isEmpty else {
                throw ValidationError("nothing to change: give at least one field option or --clear FIELD")
            }
            let reply = try global.api.patch(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "items", item), body)
            if global.json { return printRaw(reply) }
            print(TripFormat.itemFields(try reply.decode(TripItem.self)))
        }
    }

    /// `places item remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an item.", aliases: ["rm"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The item id (or a unique prefix of 4+ hex digits).")
        var item: String

        func run() throws {
            let reply = try global.api.delete(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "items", item))
            if global.json { return printRaw(reply) }
            print("removed item \(item)")
        }
    }

    /// `places item move`.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an item (or a place to go) to another day and/or position in its day.",
            discussion: """
                --day takes a day number (1 = the trip's first day) or a date. A timed item keeps \
                its time of day (its end moves by as many days); --position is 1-based among \
                that day's items. A place to go is moved by its stop id. Prints the day.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The item id, or a place to go's stop id.")
        var item: String

        @Option(help: ArgumentHelp("The day: its number or its date.", valueName: "N|YYYY-MM-DD"))
        var day: String?

        @Option(help: "1-based position among the day's items.")
        var position: Int?

        @OptionGroup var style: TripStyle

        func validate() throws {
            if let day { _ = try dayReference(day) }
            if let position, position < 1 { throw ValidationError("--position starts at 1") }
            if day == nil && position == nil { throw ValidationError("give --day, --position or both") }
        }

        func run() throws {
            let reference = try day.map { try dayReference($0) }
            let request = ItemMoveRequest(date: reference?.date, day: reference?.number, position: position)
            let reply = try global.api.post(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "items", item, "move"), request)
            if global.json { return printRaw(reply) }
            print(TripFormat.day(try reply.decode(TripDay.self), plain: style.plain))
        }
    }
}
