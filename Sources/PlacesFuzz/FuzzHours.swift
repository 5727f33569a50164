import PlacesPlanner

/// The `hours` fuzz target: `OpeningHours` over arbitrary text (issue 31's place field, as
/// a client or a peer sends it). The first byte picks raw UTF-8 (even) or text assembled
/// from the syntax's own words, one per byte (odd), so mutations reach the rule logic.
/// Invariants: nothing traps; the text is kept as given; the same text reads the same
/// twice; an unknown value answers nil everywhere; a known one has seven days of sorted,
/// disjoint, non-touching, non-empty ranges that start that day and end by 2880; `isOpen`
/// agrees with the ranges (the previous day's too) at every range edge; `closedPhrase` is
/// given exactly for the days without ranges.
enum FuzzHours {
    static let words = [
        "Mo", "Tu", "We", "Th", "Fr", "Sa", "Su", "PH", "SH", "off", "closed", "open", "24/7", "-", ",", ";", " ",
        "||", "00:00", "02:00", "09:00", "12:00", "12:30", "17:00", "18:00", "23:59", "24:00", "26:00", "48:00",
        "9:30", "Jan", "Dec 25", "week 1", "sunrise", "+", "\"x\"", "[1]", "/", ":", "0", "mo", "FR",
    ]

    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let body = input.dropFirst()
        let text =
            mode & 1 == 0
            ? String(decoding: body, as: UTF8.self)
            // A byte widened to Int cannot trap; `% words.count` keeps the index in range.
            : body.map { words[Int($0) % words.count] }.joined()
        let hours = OpeningHours(text)
        precondition(hours.text == text, "the text is not kept as written")
        precondition(hours == OpeningHours(text), "the same text reads differently")
        FuzzLog.note("hours \(hours.isKnown ? "known" : "unknown"): \(text.prefix(80))")
        guard hours.isKnown else {
            for day in 1...7 {
                precondition(hours.ranges(isoWeekday: day) == nil, "unknown hours give ranges")
                precondition(hours.isOpen(isoWeekday: day, minute: 600) == nil, "unknown hours say open or closed")
                precondition(hours.closedPhrase(isoWeekday: day) == nil, "unknown hours say closed")
            }
            return
        }
        precondition(hours.ranges(isoWeekday: 0) == nil && hours.ranges(isoWeekday: 8) == nil)
        precondition(hours.isOpen(isoWeekday: 1, minute: 1440) == nil && hours.isOpen(isoWeekday: 1, minute: -1) == nil)
        let week = (1...7).map { hours.ranges(isoWeekday: $0) }
        for (index, day) in week.enumerated() {
            guard let ranges = day else { preconditionFailure("known hours without a day's ranges") }
            for range in ranges {
                precondition(
                    !range.isEmpty && range.lowerBound >= 0 && range.lowerBound < 1440, "a range starts off the day")
                precondition(range.upperBound <= 2880, "a range runs past the next midnight")
            }
            for (earlier, later) in zip(ranges, ranges.dropFirst()) {
                precondition(earlier.upperBound < later.lowerBound, "ranges unsorted, overlapping or touching")
            }
            precondition(
                (hours.closedPhrase(isoWeekday: index + 1) == nil) == !ranges.isEmpty,
                "closedPhrase disagrees with the ranges")
            let previous = week[(index + 6) % 7] ?? []
            var minutes: Set<Int> = [0, 1439]
            for range in ranges + previous {
                for edge in [range.lowerBound, range.upperBound] {
                    for minute in [edge - 1, edge, edge + 1] { minutes.insert((minute % 1440 + 1440) % 1440) }
                }
            }
            for minute in minutes {
                let expected =
                    ranges.contains { $0.contains(minute) } || previous.contains { $0.contains(minute + 1440) }
                precondition(hours.isOpen(isoWeekday: index + 1, minute: minute) == expected, "isOpen disagrees")
            }
        }
    }
}
