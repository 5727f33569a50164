/// A trip as an RFC 5545 calendar (`GET /v1/itineraries/{id}/calendar`,
/// `places itinerary export ITIN --format ics`): one VEVENT per item that has a start, one
/// VTIMEZONE per zone the events use. docs/trips.md "Calendar export" says what each field
/// becomes and what is done with bad data (it is shown, never refused).
public enum TripCalendar {
    /// The media type of `ics(…)`'s text, for the HTTP answer's `Content-Type`.
    public static let mediaType = "text/calendar; charset=utf-8"

    /// How long a timed item without a usable end (none, a date alone, or one before its
    /// start) lasts in the calendar: one hour, for every type.
    public static let defaultDurationSeconds = 3600

    /// The calendar of `trip` as iCalendar text: UTF-8, CRLF line endings, lines folded at
    /// 75 octets.
    ///
    /// - Parameters:
    ///   - name: The calendar's name (`X-WR-CALNAME`), e.g. the itinerary's name.
    ///   - itineraryID: Makes each event's UID (`<item id>@<itineraryID>.places`), so that a
    ///     calendar that subscribes to the export updates the same events.
    ///   - trip: The itinerary's items; items without a start are left out.
    ///   - stampMilliseconds: When the export is made (milliseconds since 1970 UTC), each
    ///     event's `DTSTAMP`; clamped to years 1970…9999.
    /// - Returns: The whole VCALENDAR. Events are in start order (then item id), so the same
    ///   trip gives the same text.
    public static func ics(name: String, itineraryID: String, trip: Trip, stampMilliseconds: Int64) -> String {
        var zones = CalendarZones()
        let items = trip.items
        let dated = items.indices.compactMap { i in items[i].start.map { (start: $0, index: i) } }
            .sorted { ($0.start, items[$0.index].id) < ($1.start, items[$1.index].id) }
        let events = dated.compactMap {
            CalendarEvent(items[$0.index], itineraryID: itineraryID, zones: &zones, tripZone: trip.timeZone)
        }
        var lines = CalendarLines(capacity: 1024 + 512 * events.count)
        lines.property("BEGIN", "VCALENDAR")
        lines.property("VERSION", "2.0")
        lines.property("PRODID", "-//Places//placesd//EN")
        lines.property("CALSCALE", "GREGORIAN")
        lines.text("X-WR-CALNAME", name)
        zones.writeTimeZones(into: &lines)
        let stamp = CalendarFormat.dateTime(local: stampSeconds(stampMilliseconds)) + "Z"
        for event in events { event.write(into: &lines, stamp: stamp) }
        lines.property("END", "VCALENDAR")
        return lines.text
    }

    /// Seconds since 1970 of `milliseconds`, within what a DATE-TIME can write.
    static func stampSeconds(_ milliseconds: Int64) -> Int {
        Int(min(max(milliseconds / 1000, 0), Int64(CalendarFormat.lastSecond)))
    }
}
