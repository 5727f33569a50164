import PlacesModel

/// One VEVENT of a trip's calendar, made from one item: its times decided (all-day span,
/// zoned, UTC or floating), its words chosen, and the problems of its data said in its
/// description rather than refused.
struct CalendarEvent {
    /// When an event starts or ends.
    enum Time {
        /// An all-day boundary (`VALUE=DATE`).
        case date(LocalDate)
        /// A wall-clock time (seconds since 1970-01-01T00:00 local) in a zone.
        case local(Int, CalendarZone)
    }

    var uid: String
    var summary: String
    var start: Time
    var end: Time
    var location: String?
    var geo: String?
    var description: String
    var url: String?
    var category: String
    /// All-day items don't make the traveller busy (a hotel stay must not block the days).
    var transparent: Bool

    /// The event of `item`, or nil when it has no start (nothing to put on a calendar).
    init?(_ item: TripItem, itineraryID: String, zones: inout CalendarZones, tripZone: String?) {
        guard let start = item.start else { return nil }
        uid = item.id + "@" + itineraryID + ".places"
        category = item.type.rawValue
        var notes: [String] = []
        (summary, notes) = CalendarEvent.words(item)
        location = CalendarEvent.place(item.location)
        geo = CalendarFormat.geo(item.location)
        if let link = item.url, !link.isEmpty {
            url = CalendarFormat.uri(link)
            if url == nil { notes.append("Link: " + link) }
        }
        var problems: [String] = []
        if item.type == .lodging || !start.isTimed {
            (self.start, end) = CalendarEvent.allDay(item, start: start.date, problems: &problems)
            transparent = true
        } else {
            (self.start, end) = CalendarEvent.timed(
                item, start: start, zones: &zones, tripZone: tripZone, problems: &problems)
            transparent = false
        }
        description = (notes + problems).joined(separator: "\n")
    }

    /// A lodging's nights (check-in day to the check-out day, exclusive, as RFC 5545 ends a
    /// DATE span) or a date-only item's days (its last day included).
    private static func allDay(_ item: TripItem, start: LocalDate, problems: inout [String]) -> (Time, Time) {
        guard let end = item.end?.date else { return (.date(start), .date(start.adding(days: 1))) }
        if item.type == .lodging {
            if end < start { problems.append("Check-out is before check-in: shown as one night.") }
            return (.date(start), .date(end > start ? end : start.adding(days: 1)))
        }
        if end < start { problems.append("The end (\(end)) is before the start: shown as one day.") }
        return (.date(start), .date((end > start ? end : start).adding(days: 1)))
    }

    /// A timed item's start in its zone and end in its end zone; a missing, date-only or
    /// backwards end becomes the default duration, written in the start's zone.
    private static func timed(
        _ item: TripItem, start: LocalDateTime, zones: inout CalendarZones, tripZone: String?,
        problems: inout [String]
    ) -> (Time, Time) {
        let startZoneID = item.timeZone ?? tripZone
        let startZone = zones.zone(startZoneID)
        let endZone = item.endTimeZone.map { zones.zone($0) } ?? startZone
        let (startLocal, startInstant) = existing(start, in: startZone, problems: &problems)
        for zone in startZone == endZone ? [startZone] : [startZone, endZone] {
            if case .floating(let id) = zone {
                problems.append("Time zone “\(id)” is unknown: times are local times without a zone.")
            }
        }
        zones.use(startZone, at: startInstant)
        if let end = item.end {
            if end.isTimed {
                let (endLocal, endInstant) = existing(end, in: endZone, problems: &problems)
                if endInstant > startInstant {
                    zones.use(endZone, at: endInstant)
                    return (.local(startLocal, startZone), .local(endLocal, endZone))
                }
                if endInstant < startInstant {
                    problems.append("The end (\(readable(end))) is before the start: shown as one hour.")
                }
            } else {
                problems.append("Ends: \(readable(end)).")
            }
        }
        let defaultEnd = startInstant + TripCalendar.defaultDurationSeconds
        zones.use(startZone, at: defaultEnd)
        let defaultEndLocal = startZone.local(ofInstant: defaultEnd)
        // A wall-clock time that occurs twice (the hour after 01:00 on a fall-back night)
        // would read back as its first occurrence: then the end is written in UTC.
        let fallback: Time =
            startZone.instant(ofLocal: defaultEndLocal) == defaultEnd
            ? .local(defaultEndLocal, startZone) : .local(defaultEnd, .utc)
        return (.local(startLocal, startZone), fallback)
    }

    /// The wall-clock time to write for `time` in `zone`, and its instant. A time skipped by
    /// a spring-forward (02:30) is written as the time it means (03:30, RFC 5545 §3.3.5):
    /// readers disagree on the skipped one (dateutil reads it with the later offset).
    private static func existing(
        _ time: LocalDateTime, in zone: CalendarZone, problems: inout [String]
    ) -> (local: Int, instant: Int) {
        let typed = CalendarFormat.localSeconds(time.date, minuteOfDay: time.minuteOfDay ?? 0)
        let instant = zone.instant(ofLocal: typed)
        let local = zone.local(ofInstant: instant)
        if local != typed, case .named(let id, _) = zone {
            problems.append(
                "\(readable(time)) does not exist in \(id) (the clocks move forward): shown at "
                    + readable(CalendarFormat.localDateTime(local)) + ".")
        }
        return (local, instant)
    }

    /// The summary and the description's lines of what the item says.
    private static func words(_ item: TripItem) -> (String, [String]) {
        var lines: [String] = []
        let title = item.title.isEmpty ? typeWord(item.type) : item.title
        var summary: String
        switch item.type {
        case .transport:
            var parts = [CalendarEvent.modeWords(item.mode)]
            if let detail = item.detail, !detail.isEmpty { parts.append(detail) }
            if let from = item.location?.name, let to = item.to?.name, !from.isEmpty, !to.isEmpty {
                parts.append(from + " → " + to)
                if !item.title.isEmpty, item.title != from + " → " + to { lines.append(item.title) }
            } else if !item.title.isEmpty {
                parts.append(item.title)
            }
            summary = parts.joined(separator: " ")
            if let to = CalendarEvent.place(item.to) { lines.append("To: " + to) }
        case .lodging:
            summary = "🏨 " + title
            if let detail = item.detail, !detail.isEmpty { lines.append(detail) }
            lines.append("Check-in: " + (item.start.map(readable) ?? "not set"))
            lines.append("Check-out: " + (item.end.map(readable) ?? "not set"))
        case .food, .activity, .place:
            summary = title
            if let detail = item.detail, !detail.isEmpty { lines.append(detail) }
        }
        if item.type == .activity { lines.append(item.booked ? "Booked" : "Not booked") }
        if let price = item.price { lines.append("Price: " + price.description) }
        if let notes = item.notes, !notes.isEmpty { lines.append(notes) }
        return (summary, lines)
    }

    /// "✈ Flight", "🚆 Train"…: how a transport's summary begins.
    static func modeWords(_ mode: String?) -> String {
        switch mode {
        case "flight": "✈ Flight"
        case "train": "🚆 Train"
        case "bus": "🚌 Bus"
        case "car": "🚗 Drive"
        case "ferry": "⛴ Ferry"
        default: "Transport"
        }
    }

    /// "Lodging", "Food"…: the title of an item that has none.
    static func typeWord(_ type: TripItemType) -> String {
        switch type {
        case .lodging: "Lodging"
        case .transport: "Transport"
        case .food: "Food"
        case .activity: "Activity"
        case .place: "Place"
        }
    }

    /// "2027-05-01 15:00" or "2027-05-01": a local time as a description shows it.
    static func readable(_ time: LocalDateTime) -> String {
        time.description.replacing("T", with: " ")
    }

    /// "Name, address" of a location, nil when it has neither.
    static func place(_ location: TripLocation?) -> String? {
        let parts = [location?.name, location?.address].compactMap { $0 }.filter { !$0.isEmpty }
        let unique = parts.count == 2 && parts[0] == parts[1] ? [parts[0]] : parts
        return unique.isEmpty ? nil : unique.joined(separator: ", ")
    }

    /// Writes the VEVENT, stamped `stamp` (`YYYYMMDDTHHMMSSZ`).
    func write(into lines: inout CalendarLines, stamp: String) {
        lines.property("BEGIN", "VEVENT")
        lines.text("UID", uid)
        lines.property("DTSTAMP", stamp)
        CalendarEvent.write("DTSTART", start, into: &lines)
        CalendarEvent.write("DTEND", end, into: &lines)
        lines.text("SUMMARY", summary)
        if let location { lines.text("LOCATION", location) }
        if let geo { lines.property("GEO", geo) }
        if !description.isEmpty { lines.text("DESCRIPTION", description) }
        if let url { lines.property("URL", url) }
        lines.text("CATEGORIES", category)
        if transparent { lines.property("TRANSP", "TRANSPARENT") }
        lines.property("END", "VEVENT")
    }

    private static func write(_ name: String, _ time: Time, into lines: inout CalendarLines) {
        switch time {
        case .date(let date):
            lines.property(name, parameters: "VALUE=DATE", CalendarFormat.date(date))
        case .local(let local, .named(let id, _)):
            lines.property(name, parameters: "TZID=" + id, CalendarFormat.dateTime(local: local))
        case .local(let local, .utc):
            lines.property(name, CalendarFormat.dateTime(local: local) + "Z")
        case .local(let local, .floating):
            lines.property(name, CalendarFormat.dateTime(local: local))
        }
    }
}
