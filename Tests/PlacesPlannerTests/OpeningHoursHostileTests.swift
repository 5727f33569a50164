import PlacesPlanner
import Testing

/// Opening hours as a hostile file or a careless hand writes them: hours past the end of
/// the day, empty and reversed ranges, day ranges that wrap or repeat, text at and over the
/// length limit, look-alike characters. Each is either read exactly or unknown — never a
/// guess that says "open" when the text does not.
@Suite("Opening hours, hostile text")
struct OpeningHoursHostileTests {
    func week(_ text: String) -> [[Range<Int>]]? {
        let hours = OpeningHours(text)
        let days = (1...7).map { hours.ranges(isoWeekday: $0) }
        return days.contains { $0 == nil } ? nil : days.compactMap { $0 }
    }

    @Test("starts at or past 24:00, empty ranges, 25:00 and 48:30 are unknown")
    func impossibleTimes() {
        for text in [
            "Mo-Su 25:00-26:00", "24:00-24:00", "Mo 12:00-12:00", "Mo 24:00-26:00", "Mo 10:00-48:30",
            "Mo 10:60-11:00", "Mo 10:00-", "Mo -12:00", "Mo 100:00-101:00", "Mo 10:00-12:00 off",
        ] {
            #expect(!OpeningHours(text).isKnown, "\(text)")
            #expect(OpeningHours(text).isOpen(isoWeekday: 1, minute: 660) == nil, "\(text)")
        }
    }

    @Test("a range ending before it starts runs past midnight; 00:00-48:00 covers two days")
    func pastMidnight() {
        let overnight = OpeningHours("Mo 10:00-09:00")
        #expect(overnight.ranges(isoWeekday: 1) == [600..<1980])
        #expect(overnight.isOpen(isoWeekday: 2, minute: 8 * 60) == true, "Tuesday 08:00 is still Monday's night")
        #expect(overnight.isOpen(isoWeekday: 2, minute: 9 * 60 + 30) == false)
        #expect(overnight.isOpen(isoWeekday: 1, minute: 9 * 60) == false, "Monday 09:00 is before it opens")
        let twoDays = OpeningHours("Mo 00:00-48:00")
        #expect(twoDays.isOpen(isoWeekday: 2, minute: 23 * 60) == true)
        #expect(twoDays.isOpen(isoWeekday: 3, minute: 0) == false)
    }

    @Test("Mo-Mo is Monday; Su-Mo wraps to two days; repeated rules within 255 characters read the same")
    func dayRanges() {
        let ten = [600..<720]
        #expect(week("Mo-Mo 10:00-12:00") == [ten, [], [], [], [], [], []])
        #expect(week("Su-Mo 10:00-12:00") == [ten, [], [], [], [], [], ten])
        #expect(week("Tu-Mo 10:00-12:00") == Array(repeating: ten, count: 7))
        let repeated = String(repeating: "Mo 10:00-12:00, ", count: 15) + "Mo 10:00-12:00"
        #expect(repeated.count <= OpeningHours.maxLength)
        #expect(week(repeated) == [ten, [], [], [], [], [], []])
        let semicolons = String(repeating: ";", count: 240) + "Mo 10:00-12:00"
        #expect(week(semicolons) == [ten, [], [], [], [], [], []])
        let over = String(repeating: " ", count: OpeningHours.maxLength) + "24/7"
        #expect(!OpeningHours(over).isKnown, "over the limit is unknown, whatever it says")
    }

    @Test("look-alike and combining characters are unknown, not read as the letters they resemble")
    func lookAlikes() {
        for text in [
            "Mo\u{301} 10:00-12:00", "Ｍｏ 10:00-12:00", "Mo 1０:00-12:00", "Mo 10:00\u{2013}12:00", "Mо 10:00-12:00",
            "Mo 10:00-12:00\u{0}", "Mo\u{200B} 10:00-12:00",
        ] {
            #expect(!OpeningHours(text).isKnown, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(OpeningHours("mo 10:00-12:00").isKnown && OpeningHours("MO\t10:00 - 12:00").isKnown)
    }
}
