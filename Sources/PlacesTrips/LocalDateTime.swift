/// A calendar date with no zone (`2027-05-01`), as trips are written.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Parses `YYYY-MM-DD` (a real date, year 1…9999); nil otherwise.
    public init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
            let y = LocalDate.digits(u[0..<4]), let m = LocalDate.digits(u[5..<7]), let d = LocalDate.digits(u[8..<10]),
            y >= 1, (1...12).contains(m), (1...LocalDate.daysIn(month: m, year: y)).contains(d)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (proleptic Gregorian; negative before).
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// This date moved by `days` (negative goes back).
    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public var description: String {
        LocalDate.pad(year, 4) + "-" + LocalDate.pad(month, 2) + "-" + LocalDate.pad(day, 2)
    }

    static func daysIn(month m: Int, year y: Int) -> Int {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var n = 0
        for b in bytes {
            guard (48...57).contains(b) else { return nil }
            n = n * 10 + Int(b - 48)
        }
        return n
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}

/// A local date with an optional wall-clock time (`2027-05-01` or `2027-05-01T15:00`), the
/// API's `start` and `end`. Which zone it is in is the item's business.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: LocalDate
    /// Minutes after midnight (0…1439); nil = the date alone.
    public var minuteOfDay: Int?

    public init(date: LocalDate, minuteOfDay: Int? = nil) {
        self.date = date
        self.minuteOfDay = minuteOfDay
    }

    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`; nil otherwise.
    public init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        if u.count == 10 {
            guard let date = LocalDate(text) else { return nil }
            self.init(date: date)
            return
        }
        guard u.count == 16, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"),
            let date = LocalDate(String(decoding: u[0..<10], as: UTF8.self)),
            let h = LocalDate.digits(u[11..<13]), let m = LocalDate.digits(u[14..<16]), h < 24, m < 60
        else { return nil }
        self.init(date: date, minuteOfDay: h * 60 + m)
    }

    /// Whether it has a time of day.
    public var isTimed: Bool { minuteOfDay != nil }

    /// Ordered by date, then a date alone before its times.
    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date, a.minuteOfDay ?? -1) < (b.date, b.minuteOfDay ?? -1)
    }

    public var description: String {
        guard let minute = minuteOfDay else { return date.description }
        return date.description + "T" + LocalDate.pad(minute / 60, 2) + ":" + LocalDate.pad(minute % 60, 2)
    }
}
