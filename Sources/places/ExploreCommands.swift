import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel
import PlacesRoutes

/// `places explore …`: trips others published (issue 17), to read, route, like, save and
/// copy (`places itinerary create --from ID --start DATE`).
struct ExploreGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Explore trips your friends and others published: search, show, route, like and save them.",
        discussion: """
            `places explore [QUERY]` lists published trips you can see: your friends' (and \
            groups' you are in) and those published to the whole network. \
            LIKES reads KNOWN/ALL: likes from people you know, of all likes. A trip is named by \
            its id, the start of it, or its name.

            Copy one into a trip of your own with `places itinerary create --from ID --start \
            YYYY-MM-DD`; publish yours with `places itinerary publish ITIN --to friends`.
            """,
        subcommands: [Search.self, Show.self, Route.self, Like.self, Unlike.self, Save.self, Unsave.self],
        defaultSubcommand: Search.self)

    /// How `explore` orders its trips.
    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case likes, newest
    }

    /// `places explore [search] [QUERY]`.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List published trips you can see, optionally matching a query.",
            discussion: """
                QUERY matches a trip's name, its cities and countries, ignoring case and accents. \
                --country keeps trips through that country (ISO 3166 code such as PT).
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Words to look for in names, cities and countries.") var query: String?

        @Option(help: ArgumentHelp("Only trips through this country (ISO 3166 code, e.g. PT).", valueName: "code"))
        var country: String?

        @Option(help: "likes (most liked first) or newest.") var sort: Sort?

        @Option(help: ArgumentHelp("How many trips, 1 to 100.", valueName: "n")) var limit: Int?

        func validate() throws {
            if let limit, !(1...100).contains(limit) { throw ValidationError("--limit must be 1 to 100, not \(limit)") }
            if let country,
                country.utf8.count != 2 || !country.utf8.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 })
            {
                throw ValidationError("--country '\(country)' is not a two-letter ISO 3166 code such as PT")
            }
            if let query, query.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("the query is empty: leave it out to list every trip")
            }
        }

        func run() throws {
            let target = Target.v1(
                "explore",
                query: [
                    ("q", query), ("country", country?.uppercased()), ("sort", sort?.rawValue),
                    ("limit", limit.map(String.init)),
                ])
            let reply = try global.api.get(target)
            if global.json { return printRaw(reply) }
            let trips = try reply.decode(ExploreList.self).trips
            guard !trips.isEmpty else {
                if query != nil || country != nil { return print("no published trips match") }
                return print(
                    "no published trips to explore yet: your friends' show here once they publish one "
                        + "(`places itinerary publish ITIN --to friends` publishes yours)")
            }
            print(ExploreFormat.table(trips))
            print("\(trips.count) trip\(trips.count == 1 ? "" : "s") · `places explore show ID` shows one")
        }
    }

    /// `places explore show ID [--day N]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a published trip: its days and items, places to go, costs and likes.",
            discussion: """
                Read-only: it is the author's copy as they published it. --day N (or a date) shows \
                one day. Copy it with `places itinerary create --from ID --start YYYY-MM-DD`.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The trip: its id, the start of it, or its name.") var id: String

        @Option(help: ArgumentHelp("Only this day: its number (1 = first) or its date.", valueName: "N|YYYY-MM-DD"))
        var day: String?

        @OptionGroup var style: TripStyle

        func validate() throws {
            if let day { _ = try dayReference(day) }
        }

        func run() throws {
            let trip = try global.explore.trip(id)
            if let day {
                let reply = try global.api.get(Target.v1("explore", trip, "days", day))
                if global.json { return printRaw(reply) }
                return print(ExploreFormat.day(try reply.decode(TripDay.self), plain: style.plain))
            }
            let reply = try global.api.get(Target.v1("explore", trip))
            if global.json { return printRaw(reply) }
            print(ExploreFormat.detail(try reply.decode(ExploreDetail.self), plain: style.plain))
        }
    }

    /// `places explore route ID`.
    struct Route: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plan the best order through a published trip's places to go (or one day).",
            discussion: """
                As `places route` plans an itinerary of yours: --day N (or a date) plans that day \
                from the night's lodging; --day all with --format geojson gives every day's route. \
                --format geojson|gpx|svg gives a file (use --output), gmaps the Google Maps links.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The trip: its id, the start of it, or its name.") var id: String

        @Option(
            help: ArgumentHelp(
                "Only one day: its number, its date, or `all` (with --format geojson) for every day.",
                valueName: "N|YYYY-MM-DD|all"))
        var day: String?

        @Option(help: "How you travel: walking, cycling or driving (default: the trip's travel mode, else walking).")
        var mode: TravelMode?

        @Option(help: ArgumentHelp("What to minimise: duration or distance.", valueName: "criterion"))
        var by: RouteCriterion = .duration

        @Flag(help: "Come back to the first stop at the end.") var roundTrip = false

        @Option(help: "json (printed as a table unless --json), geojson, gpx, gmaps or svg.")
        var format: PlacesCommand.Route.OutputFormat = .json

        @Option(help: ArgumentHelp("Write the result to this file instead of standard output.", valueName: "file"))
        var output: String?

        func validate() throws {
            if let day, day != "all" { _ = try dayReference(day) }
            if day == "all" && format != .geojson {
                throw ValidationError("--day all gives the whole trip as GeoJSON: add --format geojson")
            }
        }

        func run() throws {
            let query: [(String, String?)] = [
                ("day", day), ("mode", mode?.rawValue), ("by", by.rawValue),
                ("roundTrip", roundTrip ? "true" : "false"),
                ("format", format.rawValue),
            ]
            let reply = try global.api.get(Target.v1("explore", try global.explore.trip(id), "route", query: query))
            var content = reply.response.body
            if format == .gmaps && !global.json {
                let directions = try reply.decode(GoogleMapsDirections.self)
                if let note = directions.note { printError("note: \(note)") }
                content = Array(directions.urls.map { $0 + "\n" }.joined().utf8)
            }
            if format == .json && !global.json && output == nil {
                return PlacesCommand.Route.printPlan(
                    try reply.decode([String: JSONValue].self), mode: mode, by: by, roundTrip: roundTrip)
            }
            try emit(content, output: output)
        }
    }

    /// `places explore like ID`.
    struct Like: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Like a published trip (its author and everyone who can see it see the count).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The trip: its id, the start of it, or its name.") var id: String

        func run() throws { try ExploreGroup.mark(id, "PUT", "like", global) { "liked “\($0.name)”" } }
    }

    /// `places explore unlike ID`.
    struct Unlike: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take your like of a published trip back.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The trip: its id, the start of it, or its name.") var id: String

        func run() throws { try ExploreGroup.mark(id, "DELETE", "like", global) { "unliked “\($0.name)”" } }
    }

    /// `places explore save ID`.
    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a published trip to your list (`places saved`); only you see it.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The trip: its id, the start of it, or its name.") var id: String

        func run() throws {
            try ExploreGroup.mark(id, "PUT", "save", global) { "saved “\($0.name)” (`places saved` lists it)" }
        }
    }

    /// `places explore unsave ID`.
    struct Unsave: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a trip from your saved trips.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The trip: its id, the start of it, or its name.") var id: String

        func run() throws {
            try ExploreGroup.mark(id, "DELETE", "save", global) { "removed “\($0.name)” from your saved trips" }
        }
    }

    /// `PUT`/`DELETE /v1/explore/{id}/like|save`, then one line: what happened and the counts.
    static func mark(
        _ text: String, _ method: String, _ what: String, _ global: GlobalOptions,
        _ sentence: (ExploreSummary) -> String
    ) throws {
        let reply = try global.api.send(method, Target.v1("explore", try global.explore.trip(text), what), body: nil)
        if global.json { return printRaw(reply) }
        let trip = try reply.decode(ExploreSummary.self)
        print("\(sentence(trip)) · \(ExploreFormat.likeSentence(trip))")
    }
}

/// `places saved`: the published trips you saved.
struct SavedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved",
        abstract: "List the published trips you saved (`places explore save ID`).",
        discussion: """
            A trip its author unpublished since stays on the list, marked "(withdrawn by its \
            author)": its details are gone; `places explore unsave ID` removes it.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let reply = try global.api.get(Target.v1("saved"))
        if global.json { return printRaw(reply) }
        let trips = try reply.decode(ExploreList.self).trips
        guard !trips.isEmpty else {
            return print("no saved trips yet: `places explore save ID` keeps one here")
        }
        print(ExploreFormat.table(trips))
        print("\(trips.count) saved trip\(trips.count == 1 ? "" : "s")")
    }
}
