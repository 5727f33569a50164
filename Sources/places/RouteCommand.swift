import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel
import PlacesRoutes

extension TravelMode: ExpressibleByArgument {}
extension RouteCriterion: ExpressibleByArgument {}

extension PlacesCommand {
    /// `places route`: the best order through an itinerary's places to go.
    struct Route: ParsableCommand {
        /// What the daemon renders.
        enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
            case json, geojson, gpx, gmaps, svg
        }

        static let configuration = CommandConfiguration(
            abstract: "Plan the best order through an itinerary's places to go.",
            discussion: """
                Minimises travel time (--by duration) or distance (--by distance) for a mode of \
                travel, on an open path or a --round-trip, optionally with a fixed --start \
                and/or --end stop. The plan is printed as a numbered list of stops with legs \
                and totals; --format geojson|gpx|svg gives a file (use --output), gmaps the \
                Google Maps directions link(s), one per line. --apply reorders the itinerary's places to go to \
                the planned order. --day N (or a date) plans one day: its places to go and \
                located items, from that night's lodging and back (or from the previous \
                night's lodging to the next on a transfer day), timed items in time order.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Option(
            help: "How you travel: walking, cycling or driving (default: the itinerary's travel mode, else walking).")
        var mode: TravelMode?

        @Option(
            help: ArgumentHelp(
                "Only one day: its number, its date, or `all` (with --format geojson) for every day.",
                valueName: "N|YYYY-MM-DD|all"))
        var day: String?

        @Option(help: ArgumentHelp("What to minimise: duration or distance.", valueName: "criterion"))
        var by: RouteCriterion = .duration

        @Flag(help: "Come back to the first stop at the end.")
        var roundTrip = false

        @Option(help: ArgumentHelp("Start at this stop (stop id or place id).", valueName: "stop"))
        var start: String?

        @Option(help: ArgumentHelp("End at this stop (stop id or place id).", valueName: "stop"))
        var end: String?

        @Option(help: "json (printed as a table unless --json), geojson, gpx, gmaps or svg.")
        var format: OutputFormat = .json

        @Option(help: ArgumentHelp("Write the result to this file instead of standard output.", valueName: "file"))
        var output: String?

        @Flag(help: "Reorder the itinerary's places to go to the planned order.")
        var apply = false

        func validate() throws {
            if roundTrip && start != nil {
                throw ValidationError("--round-trip and --start exclude each other: a round trip has no fixed start")
            }
            if let day, day != "all" { _ = try dayReference(day) }
            if day == "all" && format != .geojson {
                throw ValidationError("--day all gives the whole trip as GeoJSON: add --format geojson")
            }
            if apply && day != nil {
                throw ValidationError("--apply reorders the places to go of the whole itinerary; drop --day")
            }
            if apply && (format != .json || output != nil) {
                throw ValidationError("--apply prints the reordered itinerary; drop --format and --output")
            }
        }

        private var query: [(String, String?)] {
            [
                ("day", day), ("mode", mode?.rawValue), ("by", by.rawValue),
                ("roundTrip", roundTrip ? "true" : "false"),
                ("start", start), ("end", end), ("format", apply ? nil : format.rawValue),
            ]
        }

        func run() throws {
            let api = global.api
            if apply {
                let reply = try api.post(
                    Target.v1("itineraries", try global.names.itinerary(itinerary), "route", "apply", query: query))
                if global.json { return printRaw(reply) }
                print("places to go reordered by the planned route\n")
                return printItinerary(try reply.decode(Itinerary.self), trip: ItineraryTripFields(reply))
            }
            let reply = try api.get(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "route", query: query))
            var content = reply.response.body
            if format == .gmaps && !global.json {
                // The API wraps the links in JSON; people and files want the links themselves.
                let directions = try reply.decode(GoogleMapsDirections.self)
                if let note = directions.note { printError("note: \(note)") }
                content = Array(directions.urls.map { $0 + "\n" }.joined().utf8)
            }
            if format == .json && !global.json && output == nil {
                return Self.printPlan(
                    try reply.decode([String: JSONValue].self), mode: mode, by: by, roundTrip: roundTrip)
            }
            try emit(content, output: output)
        }

        /// Prints a route plan decoded loosely: its exact JSON shape is owned by PlacesRoutes.
        /// The options asked for stand in for what the plan leaves out (`places explore route`
        /// prints with it too).
        static func printPlan(
            _ plan: [String: JSONValue], mode: TravelMode?, by: RouteCriterion, roundTrip: Bool
        ) {
            var names: [String: String] = [:]
            var stops: [(order: String, id: String, name: String)] = []
            let stopValues = plan["stops"]?.arrayValue ?? plan["order"]?.arrayValue ?? []
            for (index, value) in stopValues.enumerated() {
                let object = value.objectValue ?? [:]
                let place = object["place"]?.objectValue ?? object
                let id = place["id"]?.stringValue ?? value.stringValue ?? "?"
                let name = place["name"]?.stringValue ?? id
                let order = object["order"]?.intValue.map(String.init) ?? String(index + 1)
                names[id] = name
                stops.append((order, id, name))
            }
            var table = Table("#", "STOP", "NAME", "NEXT LEG", alignments: [.right])
            let legs = plan["legs"]?.arrayValue ?? []
            for (index, stop) in stops.enumerated() {
                var leg = ""
                if index < legs.count, let object = legs[index].objectValue {
                    let distance = object["distanceMeters"]?.doubleValue.map { Format.distance(meters: $0) } ?? "?"
                    let duration = object["durationSeconds"]?.doubleValue.map { Format.duration(seconds: $0) } ?? "?"
                    let to = object["to"]?.stringValue.map { names[$0] ?? Format.shortID($0) } ?? "?"
                    leg = "→ \(to): \(distance), \(duration)"
                }
                table.append("\(stop.order).", Format.shortID(stop.id), stop.name, leg)
            }
            table.print()
            let totals = plan["totals"]?.objectValue
            let distance = (totals?["distanceMeters"] ?? plan["totalDistanceMeters"])?.doubleValue
            let duration = (totals?["durationSeconds"] ?? plan["totalDurationSeconds"])?.doubleValue
            var fields = Fields()
            fields["day"] = plan["date"]?.stringValue
            fields["mode"] = plan["mode"]?.stringValue ?? mode?.rawValue
            fields["minimising"] = plan["criterion"]?.stringValue ?? by.rawValue
            fields["round trip"] =
                (plan["roundTrip"].flatMap { if case .bool(let b) = $0 { b } else { nil } } ?? roundTrip)
                ? "yes" : "no"
            fields["total"] = [
                distance.map { Format.distance(meters: $0) }, duration.map { Format.duration(seconds: $0) },
            ]
            .compactMap { $0 }.joined(separator: ", ")
            if case .bool(let optimal)? = plan["optimal"] {
                fields["optimal"] = optimal ? "yes (proven for the cost model)" : "best found (not proven optimal)"
            }
            print("")
            fields.print()
        }
    }
}

extension JSONValue {
    /// The elements, if this is an array.
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, if this is an object.
    var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
}
