import PlacesPlanner
import PlacesRoutes
import Testing

/// Seeded random inputs: arbitrary text never traps and always answers consistently, and
/// generated well-formed rules read to what a minute-by-minute model of OSM's
/// "later rule replaces the named days" says.
@Suite("Opening hours: properties")
struct OpeningHoursPropertyTests {
    static let pieces = [
        "Mo", "Tu", "We", "Th", "Fr", "Sa", "Su", "PH", "SH", "off", "closed", "open", "24/7", "-", ",", ";", " ",
        "||", "09:00", "17:00", "18:00", "02:00", "24:00", "00:00", "26:00", "48:00", "12:30", "Jan", "+", "\"",
        "9:5", "1", "week", "sunrise", "\u{0}", "é", "🕘",
    ]

    static func text(_ random: inout SplitMix64) -> String {
        if random.next() % 4 == 0 {
            let scalars = (0..<Int(random.next() % 40)).compactMap { _ in UnicodeScalar(UInt32(random.next() % 0x80)) }
            return String(String.UnicodeScalarView(scalars))
        }
        return (0..<Int(random.next() % 24)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    /// The invariants every known value keeps: seven days of sorted, disjoint, non-touching,
    /// non-empty ranges starting that day and ending by the next midnight; `isOpen` and
    /// `closedPhrase` say what the ranges say.
    static func checkInvariants(_ hours: OpeningHours) {
        guard hours.isKnown else {
            #expect(
                (1...7).allSatisfy {
                    hours.ranges(isoWeekday: $0) == nil && hours.isOpen(isoWeekday: $0, minute: 0) == nil
                })
            return
        }
        let week = (1...7).map { hours.ranges(isoWeekday: $0) ?? [] }
        for (index, ranges) in week.enumerated() {
            #expect(
                ranges.allSatisfy { !$0.isEmpty && $0.lowerBound >= 0 && $0.lowerBound < 1440 && $0.upperBound <= 2880 }
            )
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "\(hours.text)")
            #expect((hours.closedPhrase(isoWeekday: index + 1) == nil) == !ranges.isEmpty)
            let previous = week[(index + 6) % 7]
            let boundaries = (ranges + previous).flatMap { [$0.lowerBound, $0.upperBound] }
            let minutes = Set(
                ([0, 1439] + boundaries.flatMap { [$0 - 1, $0, $0 + 1] }).map { ($0 % 1440 + 1440) % 1440 })
            for minute in minutes {
                let expected =
                    ranges.contains { $0.contains(minute) } || previous.contains { $0.contains(minute + 1440) }
                #expect(
                    hours.isOpen(isoWeekday: index + 1, minute: minute) == expected,
                    "\(hours.text) \(index + 1) \(minute)")
            }
        }
    }

    @Test("random text never traps and its answers agree with each other")
    func randomText() {
        var random = SplitMix64(seed: 31)
        var known = 0
        for _ in 0..<4000 {
            let hours = OpeningHours(Self.text(&random))
            if hours.isKnown { known += 1 }
            Self.checkInvariants(hours)
        }
        // The generator must reach the parser's accepting paths, not only its refusals.
        #expect(known > 50)
    }

    static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    @Test("generated rules joined by ';' read to the minute-by-minute model")
    func generatedRules() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            var model = [[Bool]](repeating: [Bool](repeating: false, count: 2880), count: 7)
            var rules: [String] = []
            for _ in 0..<(1 + Int(random.next() % 4)) {
                var days = [Bool](repeating: false, count: 7)
                var selector = ""
                switch random.next() % 3 {
                case 0:
                    let first = Int(random.next() % 7)
                    let last = Int(random.next() % 7)
                    selector = "\(Self.dayNames[first])-\(Self.dayNames[last])"
                    var day = first
                    while true {
                        days[day] = true
                        if day == last { break }
                        day = (day + 1) % 7
                    }
                case 1:
                    let chosen = (0..<7).filter { _ in random.next() % 2 == 0 }
                    if chosen.isEmpty {
                        days = [Bool](repeating: true, count: 7)
                    } else {
                        chosen.forEach { days[$0] = true }
                        selector = chosen.map { Self.dayNames[$0] }.joined(separator: ",")
                    }
                default:
                    days = [Bool](repeating: true, count: 7)
                }
                var open = [Bool](repeating: false, count: 2880)
                var spans: [String] = []
                if random.next() % 5 != 0 {
                    for _ in 0..<(1 + Int(random.next() % 3)) {
                        let start = Int(random.next() % 96) * 15
                        let end = start + 15 + Int(random.next() % 94) * 15
                        (start..<end).forEach { open[$0] = true }
                        spans.append(Self.clock(start) + "-" + Self.clock(end <= 1440 ? end : end - 1440))
                    }
                }
                let words = [selector, spans.joined(separator: ","), spans.isEmpty ? "off" : ""]
                rules.append(words.filter { !$0.isEmpty }.joined(separator: " "))
                for day in 0..<7 where days[day] { model[day] = open }
            }
            let text = rules.joined(separator: "; ")
            let hours = OpeningHours(text)
            #expect(hours.isKnown, "\(text)")
            Self.checkInvariants(hours)
            for day in 0..<7 {
                var expected: [Range<Int>] = []
                var minute = 0
                while minute < 2880 {
                    guard model[day][minute] else {
                        minute += 1
                        continue
                    }
                    let start = minute
                    while minute < 2880 && model[day][minute] { minute += 1 }
                    expected.append(start..<minute)
                }
                #expect(hours.ranges(isoWeekday: day + 1) == expected, "\(text) day \(day + 1)")
            }
        }
    }
}
