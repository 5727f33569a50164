import PlacesModel
import PlacesTrips

/// Trips the calendar tests export: a Lisbon → Tokyo trip with an item of every kind and
/// every kind of bad data, and a New York week-end across the spring-forward night.
enum CalendarFixture {
    static let itineraryID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    /// 2027-04-20T08:30:00Z.
    static let stampMilliseconds: Int64 = 1_808_209_800_000
    static let cafeNotes = "Ask for the table by the window; cash only, no cards\nTry the bica \\ the pastel"
    static let longTitle = String(repeating: "Ção à beira-rio ", count: 8)

    static func id(_ n: Int) -> String { "cafe0000000000000000000000000" + String(100 + n) }

    static func time(_ text: String) -> LocalDateTime? { LocalDateTime(text) }

    static let lisbonTokyo = Trip(
        startDate: LocalDate("2027-04-30"), endDate: LocalDate("2027-05-06"), timeZone: "Europe/Lisbon",
        items: [
            TripItem(
                id: id(1), type: .transport, title: "Flight to Tokyo", start: time("2027-05-01T10:00"),
                end: time("2027-05-02T07:05"), timeZone: "Europe/Lisbon", endTimeZone: "Asia/Tokyo",
                location: TripLocation(
                    name: "Lisbon", address: "Humberto Delgado Airport", latitude: 38.7742,
                    longitude: -9.1342),
                to: TripLocation(name: "Tokyo", address: "Narita Airport"), mode: "flight", detail: "TP 1234"),
            TripItem(
                id: id(2), type: .lodging, title: "Hotel Sakura", start: time("2027-05-02T15:00"),
                end: time("2027-05-05T11:00"), timeZone: "Asia/Tokyo",
                location: TripLocation(name: "Hotel Sakura", address: "1-2-3 Ginza, Chūō, Tokyo"), detail: "Conf. K7Q2"),
            TripItem(
                id: id(3), type: .food, title: "Café Ção", start: time("2027-05-03T12:30"), timeZone: "Asia/Tokyo",
                location: TripLocation(
                    name: "Café Ção", address: "4-5 Ginza; 2F, Tokyo", latitude: 35.6717,
                    longitude: 139.765),
                price: Money(amountMinor: 1800, currency: "JPY"), notes: cafeNotes),
            TripItem(
                id: id(4), type: .activity, title: "Museum day", start: time("2027-05-04"), booked: true),
            TripItem(
                id: id(5), type: .activity, title: "Tram 28", start: time("2027-04-30T16:00"),
                end: time("2027-04-30T17:30"), url: "https://example.org/tram?line=28&x=1,2"),
            TripItem(
                id: id(6), type: .activity, title: "Sunrise", start: time("2027-05-06T05:00"),
                timeZone: "Mars/Olympus"),
            TripItem(id: id(7), type: .activity, title: "Someday", timeZone: "Asia/Tokyo"),
            TripItem(
                id: id(8), type: .activity, title: "Backwards", start: time("2027-05-05T18:00"),
                end: time("2027-05-05T17:00"), timeZone: "Asia/Tokyo"),
            TripItem(
                id: id(9), type: .place, title: longTitle, start: time("2027-05-05T09:00"),
                end: time("2027-05-05T10:00"), timeZone: "Asia/Tokyo"),
            TripItem(
                id: id(10), type: .lodging, title: "No check-out", start: time("2027-04-30"),
                url: "not a link\r\nX-EVIL:1"),
        ])

    static let newYork = Trip(
        timeZone: "America/New_York",
        items: [
            // 22:00 EST to 10:00 EDT the next morning: 11 hours, not 12.
            TripItem(
                id: id(20), type: .activity, title: "Overnight", start: time("2027-03-13T22:00"),
                end: time("2027-03-14T10:00")),
            // 02:30 does not exist that night: read as 03:30 EDT (07:30Z), ends an hour later.
            TripItem(id: id(21), type: .activity, title: "In the gap", start: time("2027-03-14T02:30")),
            // 01:30 happens twice on 7 November: the first (EDT, 05:30Z); its default end,
            // 06:30Z, is the second 01:30, which only UTC can write.
            TripItem(id: id(22), type: .activity, title: "Twice", start: time("2027-11-07T01:30")),
            TripItem(
                id: id(23), type: .activity, title: "Sydney call", start: time("2027-04-04T02:30"),
                timeZone: "Australia/Sydney"),
            TripItem(
                id: id(24), type: .activity, title: "Lord Howe", start: time("2027-10-03T01:00"),
                end: time("2027-10-03T03:00"), timeZone: "Australia/Lord_Howe"),
        ])

    static var lisbonTokyoICS: String {
        TripCalendar.ics(
            name: "Lisbon, Tokyo; spring", itineraryID: itineraryID, trip: lisbonTokyo,
            stampMilliseconds: stampMilliseconds)
    }

    static var newYorkICS: String {
        TripCalendar.ics(name: "NY", itineraryID: itineraryID, trip: newYork, stampMilliseconds: stampMilliseconds)
    }

    /// The unfolded content lines of `ics` (RFC 5545 §3.1).
    static func unfolded(_ ics: String) -> [String] {
        var lines: [String] = []
        var line: [UInt8] = []
        let bytes = Array(ics.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 13, i + 1 < bytes.count, bytes[i + 1] == 10 {
                if i + 2 < bytes.count, bytes[i + 2] == 32 {
                    i += 3
                    continue
                }
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
                i += 2
                continue
            }
            line.append(bytes[i])
            i += 1
        }
        if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// The unfolded lines of the event whose UID starts with `id`.
    static func event(_ id: String, in ics: String) -> [String] {
        var current: [String] = []
        for line in unfolded(ics) {
            if line == "BEGIN:VEVENT" { current = [] }
            current.append(line)
            if line == "END:VEVENT", current.contains("UID:\(id)@\(itineraryID).places") { return current }
        }
        return []
    }
}
