import Foundation

/// The zones a calendar uses: resolves each item's zone once, and remembers the instants of
/// the events in each named zone to know which years its VTIMEZONE must describe.
struct CalendarZones {
    /// The most transitions one VTIMEZONE lists (eleven years of twice-yearly changes, with room).
    static let maxTransitions = 64
    /// One year, the margin a VTIMEZONE keeps around the events that use it.
    static let marginSeconds = 366 * 86_400
    /// The longest span of events one VTIMEZONE covers (8 years, 10 with the margins).
    static let maxEventSpanSeconds = 8 * 366 * 86_400

    private var resolved: [String: CalendarZone] = [:]
    private var instants: [String: (zone: TimeZone, instants: [Int])] = [:]

    /// The zone of `identifier` (an item's `timeZone ?? trip.timeZone`).
    mutating func zone(_ identifier: String?) -> CalendarZone {
        guard let identifier else { return .utc }
        if let known = resolved[identifier] { return known }
        let zone: CalendarZone
        if CalendarZone.isPlainIdentifier(identifier), let tz = TimeZone(identifier: identifier) {
            zone = .named(identifier, tz)
        } else {
            zone = .floating(identifier)
        }
        resolved[identifier] = zone
        return zone
    }

    /// Notes that an event starts or ends at `instant` in `zone`.
    mutating func use(_ zone: CalendarZone, at instant: Int) {
        guard case .named(let id, let tz) = zone else { return }
        instants[id, default: (tz, [])].instants.append(instant)
    }

    /// Writes one VTIMEZONE per named zone used, in identifier order.
    func writeTimeZones(into lines: inout CalendarLines) {
        for id in instants.keys.sorted() {
            guard let entry = instants[id], let (from, to) = CalendarZones.window(entry.instants) else { continue }
            CalendarZones.writeTimeZone(id: id, zone: entry.zone, from: from, to: to, into: &lines)
        }
    }

    /// The span a zone's VTIMEZONE describes: its events ±1 year. When the events are spread
    /// over more than 8 years (a hostile item in year 9999), the 8 years that hold the most of
    /// them, so that the output stays small and still covers the real trip; events outside
    /// keep their TZID, which readers resolve by name, and the last observance.
    static func window(_ instants: [Int]) -> (from: Int, to: Int)? {
        let sorted = instants.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        var from = first
        var to = last
        if last - first > maxEventSpanSeconds {
            var best = 0
            var lower = 0
            for upper in sorted.indices {
                while sorted[upper] - sorted[lower] > maxEventSpanSeconds { lower += 1 }
                if upper - lower + 1 > best {
                    best = upper - lower + 1
                    from = sorted[lower]
                    to = sorted[upper]
                }
            }
        }
        // Years 1…9999 are all an iCalendar DATE-TIME can write; keep a day for the offset.
        let earliest = LocalDate(year: 1, month: 1, day: 2).dayNumber * 86_400
        let latest = LocalDate(year: 9999, month: 12, day: 30).dayNumber * 86_400
        // Whole UTC days, so that the first observance starts at a midnight, not at 07:05.
        let start = (from - marginSeconds) - ((from - marginSeconds) % 86_400 + 86_400) % 86_400
        return (max(earliest, start), min(latest, to + marginSeconds))
    }

    /// One VTIMEZONE from Foundation's rules: each transition from `from` to `to` as its own
    /// STANDARD or DAYLIGHT, with the onset in the local time before it (RFC 5545 §3.6.5) and
    /// no RRULE to interpret. The walk starts a year before `from` so that the first
    /// observance is a real transition, whose offsets say which is daylight time (a reader
    /// such as dateutil derives the standard offset from them); a zone with no transition in
    /// that year gets one STANDARD from `from`.
    static func writeTimeZone(id: String, zone: TimeZone, from: Int, to: Int, into lines: inout CalendarLines) {
        lines.property("BEGIN", "VTIMEZONE")
        lines.property("TZID", id)
        var transitions: [Int] = []
        var cursor = Date(timeIntervalSince1970: Double(from - marginSeconds))
        while transitions.count < maxTransitions, let next = zone.nextDaylightSavingTimeTransition(after: cursor),
            next > cursor, next.timeIntervalSince1970 < Double(to)
        {
            transitions.append(Int(next.timeIntervalSince1970.rounded(.down)))
            cursor = next
        }
        if transitions.first.map({ $0 > from }) ?? true {
            let offset = CalendarZone.offset(zone, at: from)
            writeObservance(
                zone, at: from, kind: "STANDARD", onsetLocal: from + offset, from: offset, to: offset, into: &lines)
        }
        for instant in transitions {
            let before = CalendarZone.offset(zone, at: instant - 1)
            let after = CalendarZone.offset(zone, at: instant)
            writeObservance(zone, at: instant, onsetLocal: instant + before, from: before, to: after, into: &lines)
        }
        lines.property("END", "VTIMEZONE")
    }

    private static func writeObservance(
        _ zone: TimeZone, at instant: Int, kind: String? = nil, onsetLocal: Int, from: Int, to: Int,
        into lines: inout CalendarLines
    ) {
        let date = Date(timeIntervalSince1970: Double(instant))
        let kind = kind ?? (zone.isDaylightSavingTime(for: date) ? "DAYLIGHT" : "STANDARD")
        lines.property("BEGIN", kind)
        lines.property("DTSTART", CalendarFormat.dateTime(local: onsetLocal))
        lines.property("TZOFFSETFROM", CalendarFormat.utcOffset(from))
        lines.property("TZOFFSETTO", CalendarFormat.utcOffset(to))
        if let name = zone.abbreviation(for: date), !name.isEmpty { lines.text("TZNAME", name) }
        lines.property("END", kind)
    }
}
