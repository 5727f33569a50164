import Foundation

/// How the local times of an item are written in a calendar.
enum CalendarZone: Hashable {
    /// In an IANA zone this build knows: `TZID=` with a VTIMEZONE for it.
    case named(String, TimeZone)
    /// The item and the trip have no zone, which the trip model reads as UTC: `…Z`.
    case utc
    /// The item's zone is unknown to this build: floating local times (RFC 5545 §3.3.5
    /// form 1), shown at the wall-clock time the user typed wherever the reader is.
    case floating(String)

    /// Seconds since 1970-01-01T00:00Z of the local time `local` (seconds since
    /// 1970-01-01T00:00 on the wall clock). A local time skipped by a forward transition is
    /// read with the offset before it (02:30 becomes 03:30), and one that occurs twice is
    /// the first occurrence — as RFC 5545 §3.3.5 says and Python's `zoneinfo` (fold 0) does.
    /// A floating time is taken as UTC, which is only used to order it.
    func instant(ofLocal local: Int) -> Int {
        guard case .named(_, let zone) = self else { return local }
        let before = CalendarZone.offset(zone, at: local - 86_400)
        let after = CalendarZone.offset(zone, at: local + 86_400)
        let candidates = [before, after].filter { CalendarZone.offset(zone, at: local - $0) == $0 }
        // Two valid offsets: the time occurs twice; the larger offset is the earlier instant.
        if let first = candidates.max() { return local - first }
        return local - before
    }

    /// The wall-clock time (seconds since 1970-01-01T00:00 local) of `instant`.
    func local(ofInstant instant: Int) -> Int {
        guard case .named(_, let zone) = self else { return instant }
        return instant + CalendarZone.offset(zone, at: instant)
    }

    /// Seconds east of Greenwich in `zone` at `instant`.
    static func offset(_ zone: TimeZone, at instant: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
    }

    /// Whether `identifier` can be a TZID parameter written bare: IANA names are letters,
    /// digits, `/`, `_`, `+` and `-`, none of which RFC 5545 asks to quote.
    static func isPlainIdentifier(_ identifier: String) -> Bool {
        let u = identifier.utf8
        return (1...64).contains(u.count)
            && u.allSatisfy { b in
                (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b)
                    || b == UInt8(ascii: "/") || b == UInt8(ascii: "_") || b == UInt8(ascii: "+")
                    || b == UInt8(ascii: "-")
            }
    }
}
