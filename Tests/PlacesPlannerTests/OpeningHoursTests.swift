import PlacesPlanner
import Testing

/// The forms of `opening_hours` the planner understands (docs/opening-hours.md), the
/// override rules between them, nights past midnight, and what stays unknown.
@Suite("Opening hours")
struct OpeningHoursTests {
    /// Monday … Sunday ranges of `text`; nil when unknown.
    func week(_ text: String) -> [[Range<Int>]]? {
        let hours = OpeningHours(text)
        let days = (1...7).map { hours.ranges(isoWeekday: $0) }
        return days.contains { $0 == nil } ? nil : days.compactMap { $0 }
    }

    @Test("24/7 and 00:00-24:00 are open around the clock every day")
    func aroundTheClock() {
        #expect(week("24/7") == Array(repeating: [0..<1440], count: 7))
        #expect(week("00:00-24:00") == Array(repeating: [0..<1440], count: 7))
        #expect(week("Mo-Su 00:00-24:00") == Array(repeating: [0..<1440], count: 7))
        let hours = OpeningHours("24/7")
        #expect(hours.isOpen(isoWeekday: 1, minute: 0) == true)
        #expect(hours.isOpen(isoWeekday: 7, minute: 1439) == true)
    }

    @Test("weekday selectors: single, range, list, mixed, wrapping past Sunday")
    func weekdaySelectors() {
        let nine = [540..<1020]
        #expect(week("Mo 09:00-17:00") == [nine, [], [], [], [], [], []])
        #expect(week("Tu-Th 09:00-17:00") == [[], nine, nine, nine, [], [], []])
        #expect(week("Sa,Su 09:00-17:00") == [[], [], [], [], [], nine, nine])
        #expect(week("Mo-We,Fr 09:00-17:00") == [nine, nine, nine, [], nine, [], []])
        #expect(week("Fr-Mo 09:00-17:00") == [nine, [], [], [], nine, nine, nine])
        #expect(week("Su-Mo 09:00-17:00") == [nine, [], [], [], [], [], nine])
    }

    @Test("a rule without days applies to every day; several time ranges per rule")
    func timeRanges() {
        #expect(week("10:00-18:00") == Array(repeating: [600..<1080], count: 7))
        #expect(
            week("Mo-Fr 10:00-12:00,14:00-18:00")?.first == [600..<720, 840..<1080])
        // Out of order and overlapping or touching ranges come back sorted and merged.
        #expect(week("Mo 14:00-18:00,10:00-12:00")?.first == [600..<720, 840..<1080])
        #expect(week("Mo 10:00-12:00,11:00-13:00")?.first == [600..<780])
        #expect(week("Mo 10:00-12:00,12:00-13:00")?.first == [600..<780])
        // A day name alone means open all that day (OSM: a rule without times is all day).
        #expect(week("Sa-Su") == [[], [], [], [], [], [0..<1440], [0..<1440]])
    }

    @Test("off and closed close the days they name")
    func offAndClosed() {
        #expect(week("Mo off") == Array(repeating: [], count: 7))
        #expect(week("off") == Array(repeating: [], count: 7))
        let nine = [540..<1020]
        #expect(week("Mo-Fr 09:00-17:00; We off") == [nine, nine, [], nine, nine, [], []])
        #expect(week("Mo-Fr 09:00-17:00; We closed") == [nine, nine, [], nine, nine, [], []])
        let hours = OpeningHours("Mo-Sa 10:00-20:00; Tu off")
        #expect(hours.closedPhrase(isoWeekday: 2) == "closed on Tuesdays")
        #expect(hours.closedPhrase(isoWeekday: 7) == "closed on Sundays")
        #expect(hours.closedPhrase(isoWeekday: 1) == nil)
        #expect(hours.isOpen(isoWeekday: 2, minute: 12 * 60) == false)
        #expect(hours.isOpen(isoWeekday: 3, minute: 12 * 60) == true)
    }

    @Test("after ';' a rule replaces the named days; after ',' it adds to them")
    func overrideSemantics() {
        // Tuesday is replaced, not widened: 10:00-14:00 only.
        #expect(week("Mo-Sa 10:00-20:00; Tu 10:00-14:00")?[1] == [600..<840])
        // A rule without days replaces every day.
        #expect(week("Mo 08:00-09:00; 14:00-16:00") == Array(repeating: [840..<960], count: 7))
        // Later wins both ways: closed then reopened.
        #expect(week("Mo-Fr off; We 10:00-12:00") == [[], [], [600..<720], [], [], [], []])
        // ',' keeps Wednesday's morning and adds the afternoon.
        #expect(week("Mo-Fr 08:00-12:00, We 14:00-18:00")?[2] == [480..<720, 840..<1080])
        #expect(week("Mo-Fr 08:00-12:00, We 14:00-18:00")?[1] == [480..<720])
        // ',' with off closes only the minutes it names.
        #expect(week("Mo-Fr 08:00-18:00, We 12:00-14:00 off")?[2] == [480..<720, 840..<1080])
        #expect(week("Mo-Fr 08:00-18:00, We off")?[2] == [])
    }

    @Test("ranges past midnight belong to the day they start; isOpen counts them the next morning")
    func pastMidnight() {
        let hours = OpeningHours("Fr-Sa 18:00-02:00")
        #expect(hours.ranges(isoWeekday: 5) == [1080..<1560])
        #expect(hours.ranges(isoWeekday: 7) == [])
        #expect(hours.isOpen(isoWeekday: 6, minute: 60) == true, "Friday night runs into Saturday 01:00")
        #expect(hours.isOpen(isoWeekday: 7, minute: 60) == true, "Saturday night runs into Sunday 01:00")
        #expect(hours.isOpen(isoWeekday: 7, minute: 120) == false, "closes at 02:00 sharp")
        #expect(hours.isOpen(isoWeekday: 7, minute: 119) == true)
        #expect(hours.isOpen(isoWeekday: 5, minute: 60) == false, "Thursday night is closed")
        #expect(hours.closedPhrase(isoWeekday: 7) == "closed on Sundays")
        // Sunday into Monday wraps the week.
        let sunday = OpeningHours("Su 22:00-03:00")
        #expect(sunday.isOpen(isoWeekday: 1, minute: 150) == true)
        #expect(sunday.isOpen(isoWeekday: 1, minute: 180) == false)
        // OSM's extended hours say the same.
        #expect(week("Fr 18:00-26:00")?[4] == [1080..<1560])
        // A later rule for Saturday does not cut Friday's night short.
        let override = OpeningHours("Mo-Fr 18:00-02:00; Sa off")
        #expect(override.isOpen(isoWeekday: 6, minute: 90) == true)
        #expect(override.isOpen(isoWeekday: 7, minute: 90) == false)
    }

    @Test("public and school holidays are parsed and ignored (no holiday calendar)")
    func holidays() {
        let nine = [540..<1020]
        let weekdays = [nine, nine, nine, nine, nine, [], []]
        #expect(week("Mo-Fr 09:00-17:00; PH off") == weekdays)
        #expect(week("Mo-Fr 09:00-17:00; PH 10:00-14:00") == weekdays)
        #expect(week("PH off; Mo-Fr 09:00-17:00") == weekdays)
        #expect(week("Mo-Fr,PH 09:00-17:00") == weekdays)
        #expect(week("PH,Mo-Fr 09:00-17:00") == weekdays)
        // `PH Mo` is holidays falling on a Monday: ignored like `PH`.
        #expect(week("Mo-Fr 09:00-17:00; PH Mo off") == weekdays)
        #expect(week("Mo-Fr 09:00-17:00; SH off") == weekdays)
        // Only holidays: understood, and closed on every ordinary day.
        #expect(week("PH 10:00-12:00") == Array(repeating: [], count: 7))
    }

    @Test("whitespace and case are lenient; hours with one digit are read")
    func leniency() {
        let nine = [540..<1020]
        #expect(week("  mo-fr   09:00-17:00 ;we  OFF ") == [nine, nine, [], nine, nine, [], []])
        #expect(week("MO-FR 09:00 - 17:00") == [nine, nine, nine, nine, nine, [], []])
        #expect(week("Mo-Fr 9:00-17:00") == [nine, nine, nine, nine, nine, [], []])
        #expect(week("Mo-Fr 09:00-12:00, 13:00-17:00")?.first == [540..<720, 780..<1020])
        #expect(week("Mo-Fr 09:00-17:00;") == [nine, nine, nine, nine, nine, [], []])
        #expect(week("Mo-Fr 09:00-17:00 open") == [nine, nine, nine, nine, nine, [], []])
    }

    @Test(
        "text beyond the common forms is unknown, never a guess",
        arguments: [
            "", "   ", ";", "Jan-Mar 10:00-18:00", "Dec 25 off", "Mo-Fr 09:00-17:00; Dec 25 off",
            "week 01-10 Mo 10:00-12:00", "sunrise-sunset", "Mo 10:00-sunset", "Sa 22:00+", "Sa 18:00-22:00+",
            "Mo-Fr 09:00-17:00 \"call ahead\"", "Mo-Fr 09:00-17:00 || \"by appointment\"",
            "Mo-Fr 09:00-17:00 || Sa 10:00-12:00", "Mo[1] 10:00-12:00", "Monday 10:00-12:00", "Fri 10:00-12:00",
            "10:00", "10:00-", "-10:00", "10-18", "10h-18h", "10.00-18.00", "25:00-26:00", "10:60-11:00",
            "10:00-49:00", "010:00-11:00", "10:000-11:00", "10:00-10:00", "Mo-Fr 10:00-12:00 14:00-18:00",
            "Mo Tu 10:00-12:00", "Mo-", "Mo-10:00", "Mo, 10:00-12:00", "Mo 10:00-12:00,", "Mo 10:00-12:00 off off",
            "Mo-Fr 08:00-18:00; We 12:00-14:00 off", "Mo-Fr 10:00-18:00 unknown", "24/7 10:00-12:00", "24/70",
            "2024 Mo 10:00-12:00", "Mo 10:00-12:00/01:00", "Mo–Fr 10:00-12:00", "Mo 10:00-12:00 Tu",
            "Sa, 10:00-12:00", "Mo-Fr 18:00-04:00, Mo 22:00-25:00 off",
        ])
    func unknown(_ text: String) {
        let hours = OpeningHours(text)
        #expect(!hours.isKnown)
        #expect(hours.text == text)
        for day in 1...7 {
            #expect(hours.ranges(isoWeekday: day) == nil)
            #expect(hours.isOpen(isoWeekday: day, minute: 600) == nil)
            #expect(hours.closedPhrase(isoWeekday: day) == nil)
        }
    }

    @Test("text longer than maxLength is unknown; arguments out of range answer nil")
    func bounds() {
        let long = String(repeating: "Mo 10:00-12:00; ", count: 20)
        #expect(long.count > OpeningHours.maxLength)
        #expect(!OpeningHours(long).isKnown)
        #expect(OpeningHours(String(long.prefix(15 * 16))).isKnown)
        let hours = OpeningHours("24/7")
        #expect(hours.ranges(isoWeekday: 0) == nil)
        #expect(hours.ranges(isoWeekday: 8) == nil)
        #expect(hours.ranges(isoWeekday: Int.min) == nil)
        #expect(hours.isOpen(isoWeekday: 1, minute: 1440) == nil)
        #expect(hours.isOpen(isoWeekday: 1, minute: -1) == nil)
        #expect(hours.isOpen(isoWeekday: Int.max, minute: Int.max) == nil)
        #expect(hours.closedPhrase(isoWeekday: 9) == nil)
    }

    @Test("values compare by what was written")
    func equality() {
        #expect(OpeningHours("Mo 10:00-12:00") == OpeningHours("Mo 10:00-12:00"))
        #expect(OpeningHours("Mo 10:00-12:00") != OpeningHours("Mo  10:00-12:00"))
    }
}
