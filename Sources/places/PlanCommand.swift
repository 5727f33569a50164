import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel
import PlacesRoutes

extension PlacesCommand {
    /// `places plan`: a suggested trip from the places you and your friends saved.
    struct Plan: ParsableCommand {
        enum Pace: String, ExpressibleByArgument, CaseIterable { case relaxed, normal, packed }

        static let configuration = CommandConfiguration(
            abstract: "Suggest a day-by-day trip from the places you and your friends saved.",
            discussion: """
                Picks and orders stops for each day from your library, your friends' shared places \
                and the published trips of people you know: open when you get there, within \
                --budget, back at --stay by the end of the day, with why each stop was picked and \
                why good places were left out. Every option has a default: with --for ITIN its \
                dates, stay (first lodging) and travel mode; otherwise today, 09:30-19:00, walking, \
                no budget, every category. --like raises the score of those categories (it never \
                excludes the others); --more CATEGORY raises one twice as much. The same inputs give \
                the same plan. --create NAME writes it as a new trip, --apply ITIN into that trip: \
                each stop becomes a timed item of its day (docs/planner.md).
                """)

        @OptionGroup var global: GlobalOptions

        @Option(
            name: .customLong("in"),
            help: ArgumentHelp("Where: a city or region, one of your places, or LAT,LON.", valueName: "place"))
        var near: String?

        @Option(help: ArgumentHelp("Only places this far from there (default 10).", valueName: "km"))
        var radius: Double?

        @Option(help: ArgumentHelp("First day.", valueName: "YYYY-MM-DD"))
        var from: String?

        @Option(help: ArgumentHelp("Last day.", valueName: "YYYY-MM-DD"))
        var to: String?

        @Option(help: ArgumentHelp("Where each day starts and ends: a place, or LAT,LON.", valueName: "place"))
        var stay: String?

        @Option(help: "How you get around: walking, cycling or driving.")
        var mode: TravelMode?

        @Option(help: ArgumentHelp("The hours of a day out (default 09:30-19:00).", valueName: "HH:MM-HH:MM"))
        var day: String?

        @Option(help: ArgumentHelp("The most to spend on entries and meals, e.g. 150EUR.", valueName: "amount"))
        var budget: String?

        @Option(help: ArgumentHelp("Categories you like, comma-separated: food,museum.", valueName: "categories"))
        var like: String?

        @Option(help: ArgumentHelp("A category to weigh twice (repeatable).", valueName: "category"))
        var more: [String] = []

        @Option(help: "relaxed, normal or packed.")
        var pace: Pace?

        @Option(help: ArgumentHelp("A place the plan must visit (repeatable).", valueName: "place"))
        var must: [String] = []

        @Option(help: ArgumentHelp("A place the plan must not visit (repeatable).", valueName: "place"))
        var avoid: [String] = []

        @Option(name: .customLong("for"), help: ArgumentHelp("Plan for this trip (its defaults).", valueName: "itin"))
        var itinerary: String?

        @Option(help: ArgumentHelp("Write the plan as a new trip with this name.", valueName: "name"))
        var create: String?

        @Option(help: ArgumentHelp("Write the plan into this trip.", valueName: "itin"))
        var apply: String?

        func validate() throws {
            try validateDate(from, option: "--from")
            try validateDate(to, option: "--to")
            if let day { _ = try Self.dayHours(day) }
            if let budget { _ = try parsePrice(budget, option: "--budget") }
            if let radius, !(radius > 0 && radius <= 200) {
                throw ValidationError("--radius must be above 0 and at most 200 km")
            }
            if let apply, let itinerary, apply != itinerary {
                throw ValidationError("--apply writes into the trip planned for: give it once (--apply ITIN)")
            }
            if apply != nil && create != nil { throw ValidationError("--create and --apply exclude each other") }
        }

        static func dayHours(_ text: String) throws -> (String, String) {
            let parts = text.split(separator: "-").map(String.init)
            let ok = { (s: String) in s.count == 5 && s.dropFirst(2).first == ":" }
            guard parts.count == 2, ok(parts[0]), ok(parts[1]) else {
                throw ValidationError("--day '\(text)' is not hours like 09:30-19:00")
            }
            return (parts[0], parts[1])
        }

        func body() throws -> JSONBody {
            var body = JSONBody()
            if let near { body["near"] = .string(near) }
            if let radius { body["radiusKm"] = .double(radius) }
            if let from { body["startDate"] = .string(from) }
            if let to { body["endDate"] = .string(to) }
            if let day {
                let (start, end) = try Self.dayHours(day)
                body["dayStart"] = .string(start)
                body["dayEnd"] = .string(end)
            }
            if let stay {
                let parts = stay.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
                    body["stay"] = .object(["latitude": .double(lat), "longitude": .double(lon)])
                } else {
                    body["stay"] = .string(stay)
                }
            }
            if let mode { body["mode"] = .string(mode.rawValue) }
            if let budget {
                let money = try parsePrice(budget, option: "--budget")
                body["budget"] = .object(["amountMinor": .int(money.amountMinor), "currency": .string(money.currency)])
            }
            var interests = (like ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            for category in more { interests += [category, category] }
            if !interests.isEmpty { body["interests"] = .array(interests.map(JSONValue.string)) }
            if let pace { body["pace"] = .string(pace.rawValue) }
            if !must.isEmpty { body["must"] = .array(must.map(JSONValue.string)) }
            if !avoid.isEmpty { body["avoid"] = .array(avoid.map(JSONValue.string)) }
            if let trip = apply ?? itinerary { body["itinerary"] = .string(try global.names.itinerary(trip)) }
            if apply != nil { body["apply"] = .bool(true) }
            if let create { body["create"] = .string(create) }
            return body
        }

        func run() throws {
            let reply = try global.api.post(Target.v1("plans"), try body())
            if global.json { return printRaw(reply) }
            PlanFormat.print(try reply.decode([String: JSONValue].self))
        }
    }
}
