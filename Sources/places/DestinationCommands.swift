import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel

/// `places destination add|list|remove`: the places you are going (`docs/destinations.md`).
struct DestinationGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "destination",
        abstract: "The places you are going: add, list and remove destinations.",
        discussion: """
            A destination is a city, region or country (`places destination add Lisbon` takes \
            what `places discover Lisbon` ranks first; --id picks another result by its id), \
            or one of your places (--place). The cities of your upcoming trips are listed too, \
            marked "trip", without being added. `places dashboard` shows them all.
            """,
        subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: List.self)

    /// `places destination add QUERY | --id ID | --place PLACE`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a destination.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A city, region or country, as you would search it.") var query: String?
        @Option(help: ArgumentHelp("A discover result's id (city:2267057, country:PT).", valueName: "id"))
        var id: String?
        @Option(help: ArgumentHelp("One of your places, by name or id.", valueName: "place")) var place: String?

        func validate() throws {
            guard [query, id, place].compactMap({ $0 }).count == 1 else {
                throw ValidationError("give one of QUERY, --id or --place")
            }
        }

        func run() throws {
            var body = JSONBody()
            if let query { body["query"] = .string(query) }
            if let id { body["gazetteerId"] = .string(id) }
            if let place { body["place"] = .string(place) }
            let reply = try global.api.post(Target.v1("destinations"), body)
            if global.json { return printRaw(reply) }
            let d = try reply.decode([String: JSONValue].self)
            print(
                "added \(d["name"]?.stringValue ?? "?") (\(d["id"]?.stringValue ?? "?"), \(d["timeZone"]?.stringValue ?? "?"))"
            )
        }
    }

    /// `places destination list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your destinations and your trips' cities.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("destinations"))
            if global.json { return printRaw(reply) }
            let list = try reply.decode([String: JSONValue].self)["destinations"]?.arrayValue ?? []
            if list.isEmpty { return print("no destinations: `places destination add CITY`") }
            for d in list.compactMap(\.objectValue) {
                let trips = (d["trips"]?.arrayValue ?? []).compactMap { $0.objectValue?["name"]?.stringValue }
                var line = "\(d["id"]?.stringValue ?? "?")  \(d["name"]?.stringValue ?? "?")"
                if let country = d["country"]?.stringValue, d["kind"]?.stringValue != "country" {
                    line += ", \(country)"
                }
                line += "  \(d["timeZone"]?.stringValue ?? "")"
                if d["source"]?.stringValue == "trip" { line += "  (trip)" }
                if !trips.isEmpty { line += "  · " + trips.joined(separator: ", ") }
                print(line)
            }
        }
    }

    /// `places destination remove ID|NAME`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a destination you added.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its id or name.") var destination: String

        func run() throws {
            let id = try DestinationNames.id(destination, api: global.api)
            _ = try global.api.delete(Target.v1("destinations", id))
            if !global.json { print("removed \(destination)") }
        }
    }
}

/// Destination names to ids (`places destination remove Lisbon`).
enum DestinationNames {
    static func id(_ reference: String, api: APIClient) throws -> String {
        let list =
            try api.get(Target.v1("destinations")).decode([String: JSONValue].self)["destinations"]?.arrayValue ?? []
        let objects = list.compactMap(\.objectValue)
        if objects.contains(where: { $0["id"]?.stringValue == reference }) { return reference }
        let folded = NameFolding.fold(reference)
        let named = objects.filter { NameFolding.fold($0["name"]?.stringValue ?? "") == folded }
        guard named.count == 1, let id = named[0]["id"]?.stringValue else {
            throw CLIExit.fail(
                named.isEmpty
                    ? "no destination '\(reference)': `places destination list` shows them"
                    : "'\(reference)' names \(named.count) destinations: give its id",
                CLIExit.refused)
        }
        return id
    }
}

/// `places here LAT,LON | PLACE`.
struct HereCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "here",
        abstract: "Say where you are (a position or one of your places), for the dashboard.",
        discussion: "Kept on this device only. `places dashboard` compares each destination's time with here's.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "LAT,LON or one of your places.") var position: String

    func run() throws {
        var body = JSONBody()
        let parts = position.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            body["latitude"] = .number(lat)
            body["longitude"] = .number(lon)
        } else {
            body["place"] = .string(position)
        }
        let reply = try global.api.send("PUT", Target.v1("here"), body: body)
        if global.json { return printRaw(reply) }
        let here = try reply.decode([String: JSONValue].self)
        print("here: \(here["name"]?.stringValue ?? "?") (\(here["timeZone"]?.stringValue ?? "?"))")
    }
}

/// `places config weather URL|off`.
struct ConfigGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Settings of this person's daemon.", subcommands: [Weather.self])

    /// `places config weather URL|off`.
    struct Weather: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the weather source (an Open-Meteo-compatible forecast URL), or turn it off.",
            discussion: """
                Off by default: Places sends nothing anywhere. With a source, the daemon asks it for \
                the forecast at each destination (latitude and longitude rounded to 0.01°) at most \
                once an hour, only while the dashboard is shown or a trip starts within 7 days. \
                Without an argument, shows the source.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The source's URL, or off.") var source: String?

        func run() throws {
            let reply: APIClient.Reply
            if let source {
                var body = JSONBody()
                body["weatherSource"] = source == "off" ? .null : .string(source)
                reply = try global.api.send("PUT", Target.v1("preferences"), body: body)
            } else {
                reply = try global.api.get(Target.v1("preferences"))
            }
            if global.json { return printRaw(reply) }
            let kept = try reply.decode([String: JSONValue].self)
            print(
                kept["weatherSource"]?.stringValue.map { "weather source: \($0)" } ?? "no weather source (weather off)")
        }
    }
}

/// `places visited [PLACE_ID] [--undo]`: places marked visited, which the spot of the day
/// skips.
struct VisitedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visited",
        abstract: "Mark a place (yours or a friend's, by id) visited, or list those marked.",
        discussion: "The dashboard's spot of the day never picks a place marked visited.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The place's id.") var place: String?
    @Flag(help: "Unmark it.") var undo = false

    func run() throws {
        let reply: APIClient.Reply
        switch (place, undo) {
        case (nil, true): throw ValidationError("--undo needs the place's id")
        case (nil, false): reply = try global.api.get(Target.v1("visited"))
        case (let id?, true): reply = try global.api.delete(Target.v1("visited", id))
        case (let id?, false):
            var body = JSONBody()
            body["placeId"] = .string(id)
            reply = try global.api.post(Target.v1("visited"), body)
        }
        if global.json { return printRaw(reply) }
        let ids = (try reply.decode([String: JSONValue].self)["placeIds"]?.arrayValue ?? []).compactMap(\.stringValue)
        print(ids.isEmpty ? "no place marked visited" : "visited: " + ids.joined(separator: ", "))
    }
}
