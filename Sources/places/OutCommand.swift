import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel

extension PlacesCommand {
    /// `places out`: say "I'm out" to friends, end it, or see who is out now.
    struct Out: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell friends you are out, or list the friends who are out now.",
            discussion: """
                With --at, tells --to (friends by default; a group, or friends' names separated \
                by commas) where you are until --until (default 3 hours, at most 24): a place is \
                shown as itself; LAT,LON is rounded to about 200 m unless --exact. Only they \
                get it, and every daemon hides it at --until by itself. --stop ends it early. \
                Without options, lists friends who are out now (nearest first with --near) and \
                your own note.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Where you are: a place (name or id) or LAT,LON.", valueName: "place"))
        var at: String?

        @Option(help: ArgumentHelp("Until when: HH:MM (the next such time) or an RFC 3339 time.", valueName: "time"))
        var until: String?

        @Option(
            help: ArgumentHelp("Who: friends, a group, or friends (names or ids, comma-separated).", valueName: "who"))
        var to: String?

        @Option(help: ArgumentHelp("A short note (at most 280 characters).", valueName: "text"))
        var note: String?

        @Flag(help: "Send LAT,LON as given instead of rounded to about 200 m.")
        var exact = false

        @Flag(help: "End your note now, for everyone it went to.")
        var stop = false

        @Option(help: ArgumentHelp("List: nearest first from LAT,LON or a place.", valueName: "place"))
        var near: String?

        func validate() throws {
            if stop, at != nil { throw ValidationError("--stop ends your note: give it alone") }
            if at == nil, until != nil || to != nil || note != nil || exact {
                throw ValidationError("--until, --to, --note and --exact go with --at")
            }
            if let until, Self.untilTime(until) == nil {
                throw ValidationError("--until is HH:MM or an RFC 3339 time, like 22:00")
            }
        }

        func run() throws {
            if stop {
                let reply = try global.api.delete(Target.v1("out"))
                if global.json { return printRaw(reply) }
                let stopped = try reply.decode([String: JSONValue].self)["stopped"] == .bool(true)
                return print(stopped ? "your note has ended" : "you had no live note")
            }
            if let at { return try say(at) }
            let reply = try global.api.get(Target.v1("out", query: [("near", near)]))
            if global.json { return printRaw(reply) }
            let answer = try reply.decode([String: JSONValue].self)
            let friends = answer["friends"]?.arrayValue?.compactMap(\.objectValue) ?? []
            if friends.isEmpty { print("no friend is out now") }
            for friend in friends {
                var line = (friend["name"]?.stringValue ?? "?") + " is out"
                line += " " + Self.where_(friend)
                if let meters = friend["distanceMeters"]?.doubleValue {
                    line += ", \(Format.distance(meters: meters)) away"
                }
                line += " · said so \(Self.ago(friend["since"]?.stringValue)) · until "
                line += Self.clock(friend["until"]?.stringValue)
                print(line)
                if let note = friend["note"]?.stringValue { print("    “\(note)”") }
            }
            if let mine = answer["mine"]?.objectValue {
                print("you: out \(Self.where_(mine)) until \(Self.clock(mine["until"]?.stringValue))")
            }
        }

        func say(_ at: String) throws {
            var body: [String: JSONValue] = [:]
            let parts = at.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
                body["latitude"] = .number(lat)
                body["longitude"] = .number(lon)
                if exact { body["exact"] = .bool(true) }
            } else {
                body["place"] = .string(at)
            }
            if let until, let date = Self.untilTime(until) {
                body["until"] = .string(ISO8601DateFormatter().string(from: date))
            }
            if let to {
                let names = to.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                body["audience"] = names.count > 1 ? .array(names.map(JSONValue.string)) : .string(to)
            }
            if let note { body["note"] = .string(note) }
            let reply = try global.api.send("PUT", Target.v1("out"), body: body)
            if global.json { return printRaw(reply) }
            let mine = try reply.decode([String: JSONValue].self)
            let readers = mine["readers"]?.intValue ?? 0
            print(
                "you are out \(Self.where_(mine)) until \(Self.clock(mine["until"]?.stringValue)), "
                    + "told \(readers) friend\(readers == 1 ? "" : "s")")
        }

        /// "at Time Out Market", or "near 38.7100, -9.1432".
        static func where_(_ note: [String: JSONValue]) -> String {
            if let place = note["place"]?.stringValue { return "at \(place)" }
            let lat = note["latitude"]?.doubleValue ?? 0, lon = note["longitude"]?.doubleValue ?? 0
            return (note["exact"] == .bool(true) ? "at " : "near ") + Format.coordinates(lat, lon)
        }

        /// HH:MM local time of an RFC 3339 time.
        static func clock(_ text: String?) -> String {
            guard let text, let date = Format.parseTime(text) else { return "?" }
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = "HH:mm"
            return f.string(from: date)
        }

        static func ago(_ text: String?) -> String {
            guard let text, let date = Format.parseTime(text) else { return "?" }
            let minutes = max(0, Int(Date().timeIntervalSince(date) / 60))
            return minutes < 1 ? "just now" : minutes < 60 ? "\(minutes) min ago" : "\(minutes / 60) h ago"
        }

        /// `HH:MM`: the next such local time (today, or tomorrow if it has passed); or an
        /// RFC 3339 time.
        static func untilTime(_ text: String, now: Date = Date()) -> Date? {
            if let date = Format.parseTime(text) { return date }
            let parts = text.split(separator: ":")
            guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let h = Int(parts[0]),
                let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m),
                let today = Calendar.current.date(bySettingHour: h, minute: m, second: 0, of: now)
            else { return nil }
            return today > now ? today : Calendar.current.date(byAdding: .day, value: 1, to: today)
        }
    }
}
