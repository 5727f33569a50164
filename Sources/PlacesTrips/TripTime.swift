import Foundation

/// Which IANA time zones this build knows, and the checks on dates that every planning
/// rule shares.
public enum TripTime {
    /// Zone names the API accepts: the tz database names Foundation lists on this machine
    /// (443 on the reference Linux image), plus `UTC` and `Etc/UTC`, which it omits from its
    /// list but knows, plus any `Area/Location` name Foundation opens as itself (its list
    /// has `Asia/Calcutta` but not the current `Asia/Kolkata`, which it knows). Abbreviations
    /// (`PST`) and offsets (`GMT+5`) are refused even though `TimeZone(identifier:)` reads
    /// some of them: calendars and peers need real zone names.
    static let knownZones: Set<String> = {
        var zones = Set(TimeZone.knownTimeZoneIdentifiers)
        for alias in ["UTC", "Etc/UTC"] where TimeZone(identifier: alias) != nil { zones.insert(alias) }
        return zones
    }()

    /// Whether `zone` is an IANA zone this build can convert times in (for the API to
    /// refuse an unknown `timeZone` or `endTimeZone` with a 400).
    public static func isKnownZone(_ zone: String) -> Bool {
        guard zone.utf8.count <= 64 else { return false }
        if knownZones.contains(zone) { return true }
        return zone.utf8.contains(UInt8(ascii: "/")) && TimeZone(identifier: zone)?.identifier == zone
    }

    /// The Foundation zone for `zone`, nil when ``isKnownZone(_:)`` says no.
    static func timeZone(_ zone: String) -> TimeZone? {
        isKnownZone(zone) ? TimeZone(identifier: zone) : nil
    }
}

extension LocalDate {
    /// Whether the fields make a real date of years 1…9999. `LocalDate(_:)` only makes such
    /// dates, but the fields are public and mutable: the rules check once, on entry, and
    /// read anything else as "no date" rather than overflow or index out of range.
    var isValid: Bool {
        (1...9_999).contains(year) && (1...12).contains(month)
            && (1...LocalDate.daysIn(month: month, year: year)).contains(day)
    }
}

extension LocalDateTime {
    /// This value with an out-of-range time of day dropped (read as the date alone), or nil
    /// when the date itself is not valid.
    var validated: LocalDateTime? {
        guard date.isValid else { return nil }
        guard let minute = minuteOfDay else { return self }
        return (0..<1_440).contains(minute) ? self : LocalDateTime(date: date)
    }
}
