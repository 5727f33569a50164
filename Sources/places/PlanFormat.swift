import PlacesAPI
import PlacesModel

/// `places plan`'s printout: per day the stops with their times, travel and why; the totals;
/// the good places left out and why.
enum PlanFormat {
    static func money(_ value: JSONValue?) -> String? {
        guard let o = value?.objectValue, let minor = o["amountMinor"]?.intValue,
            let currency = o["currency"]?.stringValue
        else { return nil }
        return Money(amountMinor: minor, currency: currency).description
    }

    /// "09:30" of "2027-05-01T09:30".
    static func clock(_ value: JSONValue?) -> String {
        guard let s = value?.stringValue, let t = s.firstIndex(of: "T") else { return "--:--" }
        return String(s[s.index(after: t)...])
    }

    static func print(_ plan: [String: JSONValue]) {
        let days = plan["days"]?.arrayValue ?? []
        let stops = days.reduce(0) { $0 + ($1.objectValue?["stops"]?.arrayValue?.count ?? 0) }
        var head = "\(days.count) day\(days.count == 1 ? "" : "s"), \(stops) stop\(stops == 1 ? "" : "s")"
        if let mode = plan["mode"]?.stringValue { head += ", \(mode)" }
        if let cost = money(plan["cost"]) {
            head += ", cost \(cost)" + (money(plan["budget"]).map { " of \($0)" } ?? "")
        }
        Swift.print(head)
        if let note = plan["note"]?.stringValue { Swift.print("note: \(note)") }
        for value in days {
            let day = value.objectValue ?? [:]
            Swift.print("\n\(day["date"]?.stringValue ?? "?")")
            let list = day["stops"]?.arrayValue ?? []
            if list.isEmpty { Swift.print("  nothing planned") }
            for stopValue in list {
                let stop = stopValue.objectValue ?? [:]
                let travel = stop["travelMinutesBefore"]?.intValue ?? 0
                let name = stop["name"]?.stringValue ?? "?"
                let reasons = (stop["reasons"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "; ")
                var line = "  \(clock(stop["arrive"]))–\(clock(stop["leave"]))  \(name)"
                if travel > 0 { line += "  (\(travel) min before)" }
                if let cost = money(stop["cost"]) { line += "  \(cost)" }
                Swift.print(line)
                if !reasons.isEmpty { Swift.print("      \(reasons)") }
            }
            var totals = "  back at the stay \(clock(day["backAt"]))"
            if let minutes = day["travelMinutes"]?.intValue { totals += " · travel \(minutes) min" }
            if let km = day["distanceKm"]?.doubleValue { totals += " · \(Format.number(km)) km" }
            if let cost = money(day["cost"]) { totals += " · \(cost)" }
            Swift.print(totals)
        }
        let left = plan["leftOut"]?.arrayValue ?? []
        if !left.isEmpty {
            Swift.print("\nLeft out:")
            for value in left {
                let o = value.objectValue ?? [:]
                Swift.print("  \(o["name"]?.stringValue ?? "?") — \(o["reason"]?.stringValue ?? "")")
            }
        }
        if let id = plan["itinerary"]?.stringValue { Swift.print("\nwritten to trip \(Format.shortID(id))") }
    }
}
