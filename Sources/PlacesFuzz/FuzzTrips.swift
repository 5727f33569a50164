import PlacesModel
import PlacesRoutes
import PlacesTrips

/// The `trips` fuzz target: a trip folder made of whatever a peer could send (each field
/// within its op-format rule, but not cross-checked: ends before starts, unknown zones,
/// dates from year 1 to 9999, duplicate ids, dangling links), through the day view, the
/// warnings, the costs, the day routes' ends and the calendar. Invariants: nothing traps,
/// at most 366 days, every day's lodging and items are items of the trip, at most 101
/// warnings per code, and the calendar is CRLF lines of at most 75 octets between
/// BEGIN:VCALENDAR and END:VCALENDAR.
enum FuzzTrips {
    static let zones = [
        "Europe/Lisbon", "Asia/Tokyo", "America/New_York", "UTC", "Mars/Olympus", "Australia/Lord_Howe",
    ]
    static let modes = ["flight", "train", "bus", "car", "ferry", "other"]

    static func run(_ input: [UInt8]) {
        var reader = FuzzReader(input)
        var items = [TripItem]()
        let types: [TripItemType] = [.lodging, .transport, .food, .activity, .place]
        while items.count < 300, let kind = reader.byte() {
            let id = String(format: "%032x", Int(reader.byte() ?? 0) % 64)
            let start = dateTime(&reader)
            let end = dateTime(&reader)
            let zone = reader.byte().map { Int($0) < zones.count * 2 ? zones[Int($0) % zones.count] : nil } ?? nil
            let endZone = reader.byte().map { zones[Int($0) % zones.count] }
            let located = (reader.byte() ?? 0) & 1 == 0
            let point = (Double(reader.byte() ?? 0) * 0.7 - 89.0, Double(reader.byte() ?? 0) * 1.4 - 179.0)
            let location = located ? TripLocation(name: "L", latitude: point.0, longitude: point.1) : nil
            let price = reader.byte().map {
                Money(amountMinor: Int64($0) * 1_000_000_000, currency: $0 & 1 == 0 ? "EUR" : "JPY")
            }
            let title = String(repeating: "T", count: Int(reader.byte() ?? 1) % 5)
            items.append(
                TripItem(
                    id: id, type: types[Int(kind) % types.count], title: title, start: start, end: end,
                    timeZone: zone, endTimeZone: endZone, location: location, to: location, price: price,
                    position: reader.byte().map { String(UnicodeScalar(97 + $0 % 26)) },
                    mode: modes[Int(kind) % modes.count],
                    linkedItem: kind & 0x40 == 0 ? nil : String(format: "%032x", Int(kind) % 64)))
        }
        let trip = Trip(
            startDate: dateTime(&reader)?.date, endDate: dateTime(&reader)?.date,
            timeZone: reader.byte().map { zones[Int($0) % zones.count] }, travelMode: .walking, items: items)
        let ids = Set(items.map(\.id))
        let schedule = TripDays.plan(trip)
        precondition(schedule.days.count <= 366, "more than 366 days")
        for day in schedule.days {
            precondition(day.lodging.map(ids.contains) ?? true, "a night's lodging is not an item")
            precondition(day.items.allSatisfy(ids.contains), "a day lists an unknown item")
            let ends = TripDays.route(for: day.date, in: trip)
            precondition((ends.stops + [ends.start, ends.end].compactMap { $0 }).allSatisfy(ids.contains))
        }
        var perCode = [String: Int]()
        for warning in TripWarnings.check(trip) { perCode[warning.code, default: 0] += 1 }
        precondition(perCode.values.allSatisfy { $0 <= 101 }, "more than 101 warnings of one code")
        _ = TripCosts.of(trip)
        let calendar = TripCalendar.ics(name: "Fuzz", itineraryID: "f", trip: trip, stampMilliseconds: 0)
        precondition(calendar.hasPrefix("BEGIN:VCALENDAR\r\n") && calendar.hasSuffix("END:VCALENDAR\r\n"))
        for line in calendar.utf8.split(separator: UInt8(ascii: "\n")) {
            precondition(line.count <= 76 && line.last == UInt8(ascii: "\r"), "a calendar line is too long or not CRLF")
        }
    }

    /// A date between years 1 and 9999 (mostly around 2027), with a time or not; nil sometimes.
    static func dateTime(_ reader: inout FuzzReader) -> LocalDateTime? {
        guard let a = reader.byte(), a != 0 else { return nil }
        let b = Int(reader.byte() ?? 0)
        let day: LocalDate
        switch a % 8 {
        case 0: day = LocalDate("0001-01-01").map { $0.adding(days: b) } ?? LocalDate(dayNumber: 0)
        case 1: day = LocalDate("9999-12-31").map { $0.adding(days: -b) } ?? LocalDate(dayNumber: 0)
        default: day = LocalDate(dayNumber: 20_940 + Int(a) * 3 + b % 40)
        }
        let minute = a & 0x10 == 0 ? nil : (Int(reader.byte() ?? 0) * 6) % 1_440
        return LocalDateTime(date: day, minuteOfDay: minute)
    }
}
