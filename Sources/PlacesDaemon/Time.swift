import Foundation

/// RFC 3339 timestamps (UTC, millisecond precision) from milliseconds since the epoch.
enum RFC3339 {
    static func string(ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int(ms % 1000)
        // Fixed-width digits written straight into 24 bytes: this runs once per list row.
        return String(unsafeUninitializedCapacity: 24) { buffer in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var v = value
                for i in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[i] = UInt8(48 + v % 10)
                    v /= 10
                }
            }
            put(Int(parts.tm_year) + 1900, 4, at: 0)
            buffer[4] = 45
            put(Int(parts.tm_mon) + 1, 2, at: 5)
            buffer[7] = 45
            put(Int(parts.tm_mday), 2, at: 8)
            buffer[10] = 84
            put(Int(parts.tm_hour), 2, at: 11)
            buffer[13] = 58
            put(Int(parts.tm_min), 2, at: 14)
            buffer[16] = 58
            put(Int(parts.tm_sec), 2, at: 17)
            buffer[19] = 46
            put(millis, 3, at: 20)
            buffer[23] = 90
            return 24
        }
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

extension RFC3339 {
    /// Milliseconds since 1970 of an RFC 3339 time (`2027-05-01T10:00:00Z`, optional
    /// fraction, `Z` or `±hh:mm`), nil when it is not one.
    static func parse(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970 * 1000) }
    }

    /// Milliseconds since 1970 of the start (UTC) of a `YYYY-MM-DD` calendar date.
    static func parseDate(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day
        else { return nil }
        return Int64(date.timeIntervalSince1970 * 1000)
    }
}
