import ArgumentParser
import PlacesAPI
import PlacesModel

extension ItineraryGroup {
    /// `places itinerary days`.
    struct Days: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The trip day by day: where you sleep, transport, food, activities and places.",
            discussion: """
                Each day lists its items in time order, untimed ones after the timed ones in \
                the order you set (`places item move`). Items without a date come last. \
                `places itinerary show ITIN --day N` shows one day.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var id: String

        @OptionGroup var style: TripStyle

        func run() throws {
            let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(id), "days"))
            if global.json { return printRaw(reply) }
            print(TripFormat.days(try reply.decode(DayList.self), plain: style.plain))
        }
    }

    /// `places itinerary check`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the trip for problems and say what to fix.",
            discussion: """
                Finds overlapping stays and nights without a bed, overlapping timed items, items \
                outside the trip dates, transport that arrives after the next item starts, and \
                too little time to get from one item to the next. Prints one `⚠ code: message` \
                line per problem. Exits 0 either way: the warnings are advice; scripts read \
                `--json`.
                """,
            aliases: ["warnings"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var id: String

        @OptionGroup var style: TripStyle

        func run() throws {
            let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(id), "warnings"))
            if global.json { return printRaw(reply) }
            print(TripFormat.warnings(try reply.decode(WarningList.self), plain: style.plain))
        }
    }

    /// `places itinerary export`.
    struct Export: ParsableCommand {
        /// What the trip exports as.
        enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
            case ics, geojson
        }

        static let configuration = CommandConfiguration(
            abstract: "Export the trip as a calendar (ics) or a map of its day routes (geojson).",
            discussion: """
                ics: an RFC 5545 calendar, every timed item an event in its own time zone and \
                stays as all-day spans; import it into any calendar app. geojson: the day \
                routes, `{"days": [{"date", "route": FeatureCollection}]}`. Written to \
                standard output unless --output.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var id: String

        @Option(help: "ics or geojson.")
        var format: ExportFormat

        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file.", valueName: "file"))
        var output: String?

        func run() throws {
            let target =
                switch format {
                case .ics: Target.v1("itineraries", try global.names.itinerary(id), "calendar")
                case .geojson:
                    Target.v1(
                        "itineraries", try global.names.itinerary(id), "route",
                        query: [("day", "all"), ("format", "geojson")])
                }
            try emit(try global.api.get(target).response.body, output: output)
        }
    }
}
