import PlacesPlanner
import Testing

/// Real `opening_hours` values from public pages, with the hours a visitor would expect:
/// the OSM wiki's `Key:opening_hours` page (an older revision) and its tutorial, Organic
/// Maps' editing help, and a value of an OSM cafe quoted on the microformats wiki. Expected
/// ranges are written as clock times (`"Mo": ["08:30-20:00"]`) and converted by the test's
/// own arithmetic, not by the parser; days left out are closed.
struct OpeningHoursExample: Sendable, CustomTestStringConvertible {
    let text: String
    let source: String
    /// nil: the value must be unknown.
    let days: [String: [String]]?

    var testDescription: String { "\(text) (\(source))" }

    /// Minutes of "HH:MM-HH:MM"; an end at or before the start is the next day's.
    static func minutes(_ span: String) -> Range<Int> {
        let clock = span.split(separator: "-").map { part -> Int in
            let fields = part.split(separator: ":").compactMap { Int($0) }
            return fields.count == 2 ? fields[0] * 60 + fields[1] : -1
        }
        guard clock.count == 2 else { return 0..<0 }
        return clock[0]..<(clock[1] <= clock[0] ? clock[1] + 1440 : clock[1])
    }
}

let dayKeys = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

/// `["Mo-Fr": x]` style keys are not used: every day is listed by name to keep the
/// expectations independent of the parser's range logic.
func everyDay(_ spans: [String], except closed: Set<String> = []) -> [String: [String]] {
    Dictionary(uniqueKeysWithValues: dayKeys.filter { !closed.contains($0) }.map { ($0, spans) })
}

let wikiExamples: [OpeningHoursExample] = [
    .init(text: "24/7", source: "wiki Key:opening_hours", days: everyDay(["00:00-24:00"])),
    .init(
        text: "Sa-Su 00:00-24:00", source: "wiki Key:opening_hours",
        days: ["Sa": ["00:00-24:00"], "Su": ["00:00-24:00"]]),
    .init(
        text: "Mo-Fr 08:30-20:00", source: "wiki Key:opening_hours",
        days: everyDay(["08:30-20:00"], except: ["Sa", "Su"])),
    .init(
        text: "Mo 10:00-12:00,12:30-15:00; Tu-Fr 08:00-12:00,12:30-15:00; Sa 08:00-12:00",
        source: "wiki Key:opening_hours",
        days: [
            "Mo": ["10:00-12:00", "12:30-15:00"], "Tu": ["08:00-12:00", "12:30-15:00"],
            "We": ["08:00-12:00", "12:30-15:00"], "Th": ["08:00-12:00", "12:30-15:00"],
            "Fr": ["08:00-12:00", "12:30-15:00"], "Sa": ["08:00-12:00"],
        ]),
    .init(
        text: "Mo-Su 08:00-18:00; Apr 10-15 off; Jun 08:00-14:00; Aug off; Dec 25 off",
        source: "wiki Key:opening_hours (months and dates)", days: nil),
    .init(text: "sunrise-sunset", source: "wiki Key:opening_hours (sun times)", days: nil),
    .init(
        text: "Mo-Fr 08:00-12:00,13:00-17:30", source: "wiki opening_hours tutorial",
        days: everyDay(["08:00-12:00", "13:00-17:30"], except: ["Sa", "Su"])),
    .init(
        text: "Mo-Fr 08:00-12:00,13:00-17:30; Sa 08:00-12:00", source: "wiki opening_hours tutorial",
        days: everyDay(["08:00-12:00", "13:00-17:30"], except: ["Sa", "Su"]).merging(["Sa": ["08:00-12:00"]]) {
            $1
        }),
    .init(
        text: "Mo-Fr 08:00-12:00,13:00-17:30; Sa 08:00-12:00; PH off",
        source: "wiki opening_hours tutorial (PH ignored)",
        days: everyDay(["08:00-12:00", "13:00-17:30"], except: ["Sa", "Su"]).merging(["Sa": ["08:00-12:00"]]) {
            $1
        }),
    .init(
        text: "Mo-Fr 08:00-12:00,13:00-17:30; Sa 08:00-12:00; PH off; SH off",
        source: "wiki opening_hours tutorial (PH, SH ignored)",
        days: everyDay(["08:00-12:00", "13:00-17:30"], except: ["Sa", "Su"]).merging(["Sa": ["08:00-12:00"]]) {
            $1
        }),
    .init(
        text: "Mo-Fr 08:00-12:00,13:00-17:30; Sa 08:00-12:00; PH 09:00-12:00",
        source: "wiki opening_hours tutorial (PH ignored)",
        days: everyDay(["08:00-12:00", "13:00-17:30"], except: ["Sa", "Su"]).merging(["Sa": ["08:00-12:00"]]) {
            $1
        }),
    .init(
        text: "Mo-Fr 10:00-21:00", source: "Organic Maps help",
        days: everyDay(["10:00-21:00"], except: ["Sa", "Su"])),
    .init(
        text: "Mo-We,Fr 09:00-13:30,14:00-18:30", source: "Organic Maps help",
        days: everyDay(["09:00-13:30", "14:00-18:30"], except: ["Th", "Sa", "Su"])),
    .init(
        text: "Mo-Fr 09:00-20:00; Sa-Su 10:00-19:00", source: "Organic Maps help",
        days: everyDay(["09:00-20:00"], except: ["Sa", "Su"]).merging(
            ["Sa": ["10:00-19:00"], "Su": ["10:00-19:00"]]
        ) { $1 }),
    .init(text: "Mo-Su 10:00-19:00; Jun off; Dec 25 off", source: "Organic Maps help (months)", days: nil),
    .init(text: "Mo-Fr 17:00-03:00, Sa-Su 18:00+", source: "Organic Maps help (open end)", days: nil),
    .init(
        text: "Tu-Su 08:00-15:00;Sa 08:00-12:00", source: "OSM node 624582426 via microformats wiki",
        days: everyDay(["08:00-15:00"], except: ["Mo", "Sa"]).merging(["Sa": ["08:00-12:00"]]) { $1 }),
    .init(text: "Mo-Th 10:00-12:00, 13:00-15:00; Fri 13:00-18:00", source: "alpaca.travel help (Fri)", days: nil),
    .init(text: "Jan-Jul: 18:00-23:00", source: "alpaca.travel help (months)", days: nil),
    .init(
        text: "Sa[1],Sa[1] +1 day 10:00-12:00 open \"first weekend in the month\"",
        source: "alpaca.travel help (nth weekday, comment)", days: nil),
]

@Suite("Opening hours: real examples")
struct OpeningHoursExamplesTests {
    @Test("each example reads to the hours it states, or to unknown", arguments: wikiExamples)
    func example(_ example: OpeningHoursExample) {
        let hours = OpeningHours(example.text)
        #expect(hours.text == example.text)
        guard let days = example.days else {
            #expect(!hours.isKnown)
            #expect(hours.ranges(isoWeekday: 1) == nil)
            #expect(hours.isOpen(isoWeekday: 3, minute: 720) == nil)
            #expect(hours.closedPhrase(isoWeekday: 7) == nil)
            return
        }
        #expect(hours.isKnown)
        for (index, key) in dayKeys.enumerated() {
            let expected = (days[key] ?? []).map(OpeningHoursExample.minutes)
            #expect(hours.ranges(isoWeekday: index + 1) == expected, "\(key)")
            #expect((hours.closedPhrase(isoWeekday: index + 1) == nil) == !expected.isEmpty, "\(key)")
        }
    }
}
