import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel

/// `places dashboard [DEST]`: here and each destination at a glance.
struct DashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Show here and your destinations: local time, daylight, weather, places, trips, spot of the day.",
        discussion: """
            DEST is a destination's name or id, or `here`; without it, every card. Sunrise and \
            sunset are computed on your machine; the weather needs a source \
            (`places config weather URL`).
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "One destination (name or id), or here.") var destination: String?

    func run() throws {
        if let destination {
            let reply = try global.api.get(Target.v1("dashboard", destination))
            if global.json { return printRaw(reply) }
            return Self.printCard(try reply.decode([String: JSONValue].self))
        }
        let reply = try global.api.get(Target.v1("dashboard"))
        if global.json { return printRaw(reply) }
        let answer = try reply.decode([String: JSONValue].self)
        var cards = (answer["destinations"]?.arrayValue ?? []).compactMap(\.objectValue)
        if let here = answer["here"]?.objectValue { cards.insert(here, at: 0) }
        if cards.isEmpty {
            return print("nothing to show: `places here LAT,LON` and `places destination add CITY`")
        }
        for (i, card) in cards.enumerated() {
            if i > 0 { print("") }
            printCard(card)
        }
    }

    private func printCard(_ card: [String: JSONValue]) { Self.printCard(card) }

    static func printCard(_ c: [String: JSONValue]) {
        func s(_ key: String) -> String? { c[key]?.stringValue }
        func int(_ key: String) -> Int? {
            c[key]?.doubleValue.flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
        }
        var title = (s("kind") == "here" ? "Here: " : "") + (s("name") ?? "?")
        var facts = [String]()
        if let kind = s("kind"), kind != "here" { facts.append(kind) }
        if let country = s("country"), s("kind") != "country" { facts.append(country) }
        if let population = int("population"), population > 0 { facts.append("pop. \(population)") }
        if !facts.isEmpty { title += " — " + facts.joined(separator: ", ") }
        print(title)
        let time = s("localTime").map { String($0.suffix(5)) } ?? "?"
        var zone = "  \(time) \(s("timeZone") ?? "")  (UTC\(offset(int("utcOffsetMinutes") ?? 0))"
        if let difference = int("differenceMinutes"), difference != 0 {
            zone += ", \(duration(abs(difference))) \(difference > 0 ? "ahead of" : "behind") you"
        }
        print(zone + ")")
        switch (s("sunrise"), s("sunset"), int("dayLengthMinutes")) {
        case (let rise?, let set?, let length?):
            print("  sunrise \(rise.suffix(5)) · sunset \(set.suffix(5)) · daylight \(duration(length))")
        case (_, _, 1_440?): print("  the sun does not set today (polar day)")
        case (_, _, 0?): print("  the sun does not rise today (polar night)")
        default: break
        }
        switch s("weatherStatus") {
        case "off": print("  no weather source")
        case "unavailable": print("  weather unavailable (\(s("weatherError") ?? "unknown"))")
        default:
            if let w = c["weather"]?.objectValue, let now = w["current"]?.objectValue {
                let age = w["ageMinutes"]?.doubleValue.map { " · \(Int(min(max($0, 0), 1e9)) ) min ago" } ?? ""
                let stale = s("weatherStatus") == "stale" ? " (stale: \(s("weatherError") ?? "old"))" : ""
                print(
                    "  weather: \(Format.number(now["temperatureC"]?.doubleValue ?? 0)) °C "
                        + "\(now["condition"]?.stringValue ?? ""), wind \(Format.number(now["windKmh"]?.doubleValue ?? 0)) km/h\(age)\(stale)"
                )
                for day in (w["daily"]?.arrayValue ?? []).compactMap(\.objectValue).prefix(7) {
                    print(
                        "    \(day["date"]?.stringValue ?? "")  \(Format.number(day["minC"]?.doubleValue ?? 0))–"
                            + "\(Format.number(day["maxC"]?.doubleValue ?? 0)) °C  \(day["condition"]?.stringValue ?? "")"
                            + "  \(Format.number(day["precipitationMm"]?.doubleValue ?? 0)) mm")
                }
            }
        }
        for trip in (c["trips"]?.arrayValue ?? []).compactMap(\.objectValue) {
            var line = "  your trip: \(trip["name"]?.stringValue ?? "?")"
            if let start = trip["startDate"]?.stringValue { line += " from \(start)" }
            if let days = trip["daysUntil"]?.doubleValue, days.isFinite, abs(days) < 1e6 {
                let n = Int(days)
                line += n > 0 ? " (in \(n) day\(n == 1 ? "" : "s"))" : n == 0 ? " (today)" : " (under way)"
            }
            print(line)
        }
        let places = (c["places"]?.arrayValue ?? []).compactMap(\.objectValue)
        if !places.isEmpty {
            let names = places.prefix(8).map { p in
                let by = (p["savedBy"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
                return "\(p["name"]?.stringValue ?? "?") (\(by))"
            }
            let total = int("placeCount") ?? places.count
            print("  places: " + names.joined(separator: "; ") + (total > names.count ? "; … \(total) in all" : ""))
        }
        if let spot = c["spotOfTheDay"]?.objectValue {
            print("  spot of the day: \(spot["name"]?.stringValue ?? "?") — \(spot["reason"]?.stringValue ?? "")")
        }
        for trip in (c["explore"]?.arrayValue ?? []).compactMap(\.objectValue) {
            let known = trip["likesKnown"]?.doubleValue.map { Int(min(max($0, 0), 1e9)) } ?? 0
            print(
                "  published trip: \(trip["name"]?.stringValue ?? "?") (\(known) like\(known == 1 ? "" : "s") from people you know)"
            )
        }
    }

    /// `+01:00`, `-09:30`.
    static func offset(_ minutes: Int) -> String {
        let m = abs(minutes)
        return (minutes < 0 ? "-" : "+") + (m / 60 < 10 ? "0" : "") + "\(m / 60):" + (m % 60 < 10 ? "0" : "")
            + "\(m % 60)"
    }

    /// `9 h 42 min`, `1 h`, `30 min`.
    static func duration(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        if h == 0 { return "\(m) min" }
        return m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }
}
