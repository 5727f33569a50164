import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel

extension PlacesCommand {
    /// `places nearby`: what you and your friends saved near here, nearest first.
    struct Nearby: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the places you and your friends saved near a point, nearest first.",
            discussion: """
                --near is LAT,LON or a place of yours or a friend's (its name or id). Each place \
                shows its distance and direction, its categories, who saved it, your (or the \
                friend's) notes and rating, and whether it is open now when it has opening hours. \
                Answers offline, from what your daemon holds.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Where you are: LAT,LON or a place.", valueName: "place"))
        var near: String

        @Option(help: ArgumentHelp("How far, in metres (default 1000).", valueName: "metres"))
        var radius: Double?

        @Option(help: ArgumentHelp("Saved by: me, friends, a friend or a group.", valueName: "who"))
        var who: String?

        @Option(help: "Only this category.")
        var category: String?

        @Flag(help: "Only places open now.")
        var openNow = false

        func validate() throws {
            if let radius, !(radius > 0 && radius <= 50_000) {
                throw ValidationError("--radius must be above 0 and at most 50000 metres")
            }
        }

        func run() throws {
            var query: [(String, String?)] = [("near", near), ("radius", radius.map { Format.number($0) })]
            query += [("who", who), ("category", category), ("openNow", openNow ? "true" : nil)]
            let reply = try global.api.get(Target.v1("nearby", query: query))
            if global.json { return printRaw(reply) }
            let answer = try reply.decode([String: JSONValue].self)
            let places = answer["places"]?.arrayValue?.compactMap(\.objectValue) ?? []
            if places.isEmpty { return print("nothing saved within \(Format.number(radius ?? 1_000)) m") }
            let me = try? global.api.get(Target.v1("profile")).decode([String: JSONValue].self)["id"]?.stringValue
            for place in places {
                let distance = Format.distance(meters: place["distanceMeters"]?.doubleValue ?? 0)
                let direction = Self.compass(place["bearing"]?.doubleValue ?? 0)
                let savers = (place["savedBy"]?.arrayValue ?? []).compactMap(\.objectValue).map {
                    $0["id"]?.stringValue == me ? "you" : $0["name"]?.stringValue ?? "?"
                }
                var line = "\(distance) \(direction)  \(place["name"]?.stringValue ?? "?")"
                let categories = (place["categories"]?.arrayValue ?? []).compactMap(\.stringValue)
                if !categories.isEmpty { line += "  [\(categories.joined(separator: ", "))]" }
                line += "  saved by " + Self.names(savers)
                switch place["openNow"] {
                case .bool(true): line += "  · open now"
                case .bool(false): line += "  · closed now"
                default: break
                }
                print(line)
                var details = [String]()
                if let rating = place["rating"]?.doubleValue { details.append("★ \(Format.number(rating))") }
                if let notes = place["notes"]?.stringValue {
                    details.append(notes.replacingOccurrences(of: "\n", with: " "))
                }
                if !details.isEmpty { print("    " + details.joined(separator: " · ")) }
            }
        }

        /// "N", "NE", … for a bearing in degrees.
        static func compass(_ degrees: Double) -> String {
            let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
            guard degrees.isFinite else { return "" }
            let index = Int((degrees / 45).rounded()) % 8
            return points[(index + 8) % 8]
        }

        static func names(_ list: [String]) -> String {
            switch list.count {
            case 0: "?"
            case 1: list[0]
            default: list.dropLast().joined(separator: ", ") + " and " + (list.last ?? "")
            }
        }
    }
}
