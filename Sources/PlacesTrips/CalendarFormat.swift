/// The value formats of RFC 5545 that the calendar writes (§3.3): dates, date-times, UTC
/// offsets, geographic floats and URIs. Inputs are bounded by the callers (years 1…9999,
/// offsets under a day, coordinates within the globe), so nothing here can overflow.
enum CalendarFormat {
    /// `YYYYMMDD`; a day after 9999-12-31 (the end of a stay that starts then) is written
    /// as that day, the last one a DATE can hold.
    static func date(_ date: LocalDate) -> String {
        guard date.year <= 9999 else { return "99991231" }
        return LocalDate.pad(date.year, 4) + LocalDate.pad(date.month, 2) + LocalDate.pad(date.day, 2)
    }

    /// `YYYYMMDDTHHMMSS` of a wall-clock time given as seconds since 1970-01-01T00:00,
    /// clamped to years 1…9999 (an hour after 9999-12-31T23:30 can't be written).
    static func dateTime(local unclamped: Int) -> String {
        let seconds = min(max(unclamped, firstSecond), lastSecond)
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - day * 86_400
        return date(LocalDate(dayNumber: day)) + "T" + LocalDate.pad(second / 3600, 2)
            + LocalDate.pad(second / 60 % 60, 2) + LocalDate.pad(second % 60, 2)
    }

    /// The local date and minute of a wall-clock time given as seconds since 1970-01-01T00:00.
    static func localDateTime(_ seconds: Int) -> LocalDateTime {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return LocalDateTime(date: LocalDate(dayNumber: day), minuteOfDay: (seconds - day * 86_400) / 60)
    }

    /// 0001-01-01T00:00:00 and 9999-12-31T23:59:59, as seconds since 1970-01-01T00:00.
    static let firstSecond = LocalDate(year: 1, month: 1, day: 1).dayNumber * 86_400
    static let lastSecond = LocalDate(year: 9999, month: 12, day: 31).dayNumber * 86_400 + 86_399

    /// Seconds since 1970-01-01T00:00 on the wall clock of a local date and time.
    static func localSeconds(_ date: LocalDate, minuteOfDay: Int) -> Int {
        date.dayNumber * 86_400 + minuteOfDay * 60
    }

    /// `+HHMM` or `-HHMMSS` (seconds only when there are some).
    static func utcOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = min(abs(seconds), 86_399)
        let rest = magnitude % 60
        return sign + LocalDate.pad(magnitude / 3600, 2) + LocalDate.pad(magnitude / 60 % 60, 2)
            + (rest == 0 ? "" : LocalDate.pad(rest, 2))
    }

    /// A coordinate with 6 decimals (about 0.1 m), never in exponent notation, which a FLOAT
    /// may not use; nil when it is not a finite number within `limit` degrees.
    static func coordinate(_ value: Double, limit: Double) -> String? {
        guard value.isFinite, abs(value) <= limit else { return nil }
        let micro = Int((abs(value) * 1_000_000).rounded())
        let whole = String(micro / 1_000_000)
        let fraction = LocalDate.pad(micro % 1_000_000, 6)
        return (value < 0 && micro != 0 ? "-" : "") + whole + "." + fraction
    }

    /// `lat;lon` for GEO (§3.8.1.6), when both coordinates are there and on the globe.
    static func geo(_ location: TripLocation?) -> String? {
        guard let latitude = location?.latitude, let longitude = location?.longitude,
            let lat = coordinate(latitude, limit: 90), let lon = coordinate(longitude, limit: 180)
        else { return nil }
        return lat + ";" + lon
    }

    /// `text` when it can be written as a URI value: printable ASCII without spaces, quotes
    /// or angle brackets, starting with a scheme; nil otherwise (the link then goes to the
    /// description as text, where anything can be escaped).
    static func uri(_ text: String) -> String? {
        let u = Array(text.utf8)
        guard (1...4096).contains(u.count), let colon = u.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            u[0..<colon].allSatisfy({ isSchemeByte($0) }), (65...90).contains(u[0]) || (97...122).contains(u[0]),
            u.allSatisfy({
                (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "<")
                    && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "\\")
            })
        else { return nil }
        return text
    }

    private static func isSchemeByte(_ b: UInt8) -> Bool {
        (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || b == UInt8(ascii: "+")
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }
}
