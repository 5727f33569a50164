import PlacesRoutes

/// How warnings write dates, times, durations and item names: "4 May", "4 May 15:00",
/// "1 h 20 min", a title cut to 60 characters. The year is written only when it is not
/// the trip's.
struct TripText {
    /// The year dates are written without.
    let year: Int

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    func date(_ d: LocalDate) -> String {
        "\(d.day) \(TripText.months[(d.month - 1) % 12])" + (d.year == year ? "" : " \(d.year)")
    }

    func dateTime(_ t: LocalDateTime) -> String {
        guard let minute = t.minuteOfDay else { return date(t.date) }
        return date(t.date) + " " + TripText.clock(minute)
    }

    /// "4–6 May", "30 Apr–2 May", "4 May" (one date).
    func range(_ first: LocalDate, _ last: LocalDate) -> String {
        guard first != last else { return date(first) }
        if first.year == last.year && first.month == last.month { return "\(first.day)–" + date(last) }
        if first.year == last.year {
            return "\(first.day) \(TripText.months[(first.month - 1) % 12])–" + date(last)
        }
        return date(first) + "–" + date(last)
    }

    /// "the night of 4 May", "the nights of 4–6 May" for day numbers first..<end.
    func nights(_ first: Int, _ end: Int) -> String {
        let last = max(first, end - 1)
        return (last == first ? "the night of " : "the nights of ")
            + range(LocalDate(dayNumber: first), LocalDate(dayNumber: last))
    }

    static func clock(_ minute: Int) -> String {
        LocalDate.pad(minute / 60, 2) + ":" + LocalDate.pad(minute % 60, 2)
    }

    /// "35 min", "1 h 20 min", "2 days 3 h".
    static func duration(minutes: Int64) -> String {
        let days = minutes / 1_440
        let hours = minutes % 1_440 / 60
        let rest = minutes % 60
        if days > 0 { return "\(days) day\(days == 1 ? "" : "s")" + (hours > 0 ? " \(hours) h" : "") }
        if hours > 0 { return "\(hours) h" + (rest > 0 ? " \(rest) min" : "") }
        return "\(rest) min"
    }

    /// "850 m", "2.9 km", "310 km".
    static func distance(meters: Double) -> String {
        guard meters.isFinite else { return "an unknown distance" }
        if meters < 1_000 { return "\(Int((meters / 10).rounded()) * 10) m" }
        if meters < 10_000 { return "\(Double(Int((meters / 100).rounded())) / 10) km" }
        return "\(Int(min(meters / 1_000, 1e9).rounded())) km"
    }

    /// The item's title, cut to 60 characters; "an untitled activity" when it has none.
    static func name(_ item: TripItem) -> String {
        let title = item.title.trimmingSpaces
        guard !title.isEmpty else { return "an untitled \(item.type.rawValue)" }
        return title.count > 60 ? String(title.prefix(59)) + "…" : title
    }

    /// "A", "A and B", "A, B and C", "A, B, C and 4 more".
    static func names(_ items: [TripItem]) -> String {
        let shown = items.prefix(3).map(name)
        if items.count > 3 { return shown.joined(separator: ", ") + " and \(items.count - 3) more" }
        guard shown.count > 1, let last = shown.last else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " and " + last
    }

    /// "walking", "cycling", "driving".
    static func verb(_ mode: TravelMode) -> String { mode.rawValue }
}

extension String {
    fileprivate var trimmingSpaces: String {
        // Most titles start and end with a visible ASCII character: no Unicode tables needed.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
