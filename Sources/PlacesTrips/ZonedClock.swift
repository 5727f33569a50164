import Foundation

/// An absolute instant read from a local wall-clock time in a zone.
public struct ZonedInstant: Sendable, Hashable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// The zone's offset from UTC at that instant, in seconds (east positive).
    public var utcOffsetSeconds: Int
    /// False when the zone is unknown to this build and the time was read as UTC.
    public var zoneIsKnown: Bool
}

/// Reads local date-times in IANA zones as absolute instants, caching the zone lookups of
/// one computation (make one per trip; it is a value, not shared).
///
/// Wall-clock times that a daylight-saving change makes ambiguous follow RFC 5545 §3.3.5,
/// as calendar apps that import our `.ics` will read them:
/// - a time in a gap (01:30 on the day Lisbon springs forward from 01:00 to 02:00) is read
///   with the offset in force before the gap, so it lands as far after the gap's start as
///   it says: 02:30 summer time;
/// - a time that occurs twice (01:30 on the day Lisbon falls back from 02:00 to 01:00) is
///   the first of the two, in summer time.
public struct ZonedClock: Sendable {
    private var zones: [String: TimeZone?] = [:]
    /// The last zone looked up: most items share one or two zones.
    private var last: (name: String, zone: TimeZone?)?

    /// A clock with an empty zone cache.
    public init() {}

    /// The instant of `time` in `zone` (a date alone is read as its midnight). An unknown
    /// zone reads the time as UTC and says so in ``ZonedInstant/zoneIsKnown``; nil only for a
    /// date outside years 1…9999, which `LocalDate(_:)` never makes.
    public mutating func instant(of time: LocalDateTime, in zone: String) -> ZonedInstant? {
        guard let time = time.validated else { return nil }
        // Wall-clock seconds as if the zone were UTC; years 1…9999 keep this within ±2.6e11.
        let local = Int64(time.date.dayNumber) * 86_400 + Int64(time.minuteOfDay ?? 0) * 60
        guard let timeZone = lookUp(zone) else {
            return ZonedInstant(secondsSince1970: local, utcOffsetSeconds: 0, zoneIsKnown: false)
        }
        func offset(at seconds: Int64) -> Int {
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        // The offsets a day either side bracket any change near this time (zones change at
        // most once within two days).
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        let early = local - Int64(before)
        guard before != after else {
            return ZonedInstant(secondsSince1970: early, utcOffsetSeconds: before, zoneIsKnown: true)
        }
        let late = local - Int64(after)
        let earlyHolds = offset(at: early) == before
        let lateHolds = offset(at: late) == after
        switch (earlyHolds, lateHolds) {
        case (true, true):
            // Twice on the clock: the first occurrence.
            return early <= late
                ? ZonedInstant(secondsSince1970: early, utcOffsetSeconds: before, zoneIsKnown: true)
                : ZonedInstant(secondsSince1970: late, utcOffsetSeconds: after, zoneIsKnown: true)
        case (false, true):
            return ZonedInstant(secondsSince1970: late, utcOffsetSeconds: after, zoneIsKnown: true)
        case (true, false):
            return ZonedInstant(secondsSince1970: early, utcOffsetSeconds: before, zoneIsKnown: true)
        case (false, false):
            // In the gap: the offset before it, so the instant falls after the change, and
            // the offset actually in force there is the new one.
            return ZonedInstant(secondsSince1970: early, utcOffsetSeconds: offset(at: early), zoneIsKnown: true)
        }
    }

    private mutating func lookUp(_ zone: String) -> TimeZone? {
        if let last, last.name == zone { return last.zone }
        let found: TimeZone?
        if let cached = zones[zone] {
            found = cached
        } else {
            found = TripTime.timeZone(zone)
            if zones.count < 1_024 { zones[zone] = found }
        }
        last = (zone, found)
        return found
    }
}
