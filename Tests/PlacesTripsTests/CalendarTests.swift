import Foundation
import PlacesTrips
import Testing

/// The calendar's text as RFC 5545 writes it: what a calendar app reads line by line.
@Suite struct CalendarTests {
    typealias F = CalendarFixture

    @Test func linesEndInCRLFAndFoldAt75OctetsWithoutSplittingACharacter() throws {
        let bytes = Array(F.lisbonTokyoICS.utf8)
        var physical: [[UInt8]] = []
        var line: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            if b == 10 {
                #expect(i > 0 && bytes[i - 1] == 13, "a line feed without its carriage return at octet \(i)")
                physical.append(line)
                line = []
            } else if b != 13 {
                line.append(b)
            } else {
                #expect(i + 1 < bytes.count && bytes[i + 1] == 10, "a carriage return alone at octet \(i)")
            }
        }
        #expect(line.isEmpty, "the last line has no CRLF")
        for l in physical {
            #expect(l.count <= 75, "\(l.count) octets: \(String(decoding: l, as: UTF8.self))")
            #expect(String(validating: l, as: UTF8.self) != nil, "a fold splits a character")
        }
        // The long title with its two-octet letters is folded, and unfolds to itself.
        #expect(physical.contains { $0.first == 32 })
        let place = F.event(F.id(9), in: F.lisbonTokyoICS)
        #expect(place.contains("SUMMARY:" + F.longTitle))
    }

    /// Two-, three- and four-octet characters at every position around the 75th octet.
    @Test(arguments: 60..<72)
    func foldsNeverSplitACharacter(padding: Int) {
        let title = String(repeating: "x", count: padding) + String(repeating: "é→🏨", count: 12)
        let item = TripItem(id: "a", type: .food, title: title, start: LocalDateTime("2027-05-01"))
        let ics = TripCalendar.ics(name: "n", itineraryID: "i", trip: Trip(items: [item]), stampMilliseconds: 0)
        for line in ics.utf8.split(separator: 10) {
            #expect(line.count <= 76, "\(line.count - 1) octets before CRLF")
            #expect(String(validating: line, as: UTF8.self) != nil, "a fold splits a character: \(Array(line))")
        }
        #expect(F.unfolded(ics).contains("SUMMARY:" + title))
    }

    @Test func textValuesAreEscaped() {
        let lines = F.unfolded(F.lisbonTokyoICS)
        #expect(lines.contains(#"X-WR-CALNAME:Lisbon\, Tokyo\; spring"#))
        let cafe = F.event(F.id(3), in: F.lisbonTokyoICS)
        #expect(cafe.contains(#"LOCATION:Café Ção\, 4-5 Ginza\; 2F\, Tokyo"#))
        #expect(
            cafe.contains(
                #"DESCRIPTION:Price: 1800 JPY\nAsk for the table by the window\; cash only\, no cards\nTry the bica \\ the pastel"#
            ))
        // A link that isn't a URI (here with a line break) is text in the description, not a line of its own.
        let stay = F.event(F.id(10), in: F.lisbonTokyoICS)
        #expect(!lines.contains { $0.hasPrefix("X-EVIL") })
        #expect(stay.contains { $0.hasPrefix("DESCRIPTION:") && $0.contains(#"Link: not a link\nX-EVIL:1"#) })
        #expect(!stay.contains { $0.hasPrefix("URL") })
        #expect(F.event(F.id(5), in: F.lisbonTokyoICS).contains("URL:https://example.org/tram?line=28&x=1,2"))
    }

    @Test func theCalendarHasItsHeaderStampAndOneTimeZonePerZoneUsed() {
        let lines = F.unfolded(F.lisbonTokyoICS)
        #expect(
            Array(lines.prefix(5)) == [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Places//placesd//EN", "CALSCALE:GREGORIAN",
                #"X-WR-CALNAME:Lisbon\, Tokyo\; spring"#,
            ])
        #expect(lines.last == "END:VCALENDAR")
        #expect(lines.filter { $0 == "DTSTAMP:20270420T083000Z" }.count == 9)
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 9, "every item but the one without a start")
        #expect(lines.filter { $0.hasPrefix("TZID:") } == ["TZID:Asia/Tokyo", "TZID:Europe/Lisbon"])
        #expect(lines.filter { $0.hasPrefix("UID:") }.allSatisfy { $0.hasSuffix("@\(F.itineraryID).places") })
    }

    @Test func aFlightDepartsInItsZoneAndLandsInTheOther() {
        let flight = F.event(F.id(1), in: F.lisbonTokyoICS)
        #expect(flight.contains("DTSTART;TZID=Europe/Lisbon:20270501T100000"))
        #expect(flight.contains("DTEND;TZID=Asia/Tokyo:20270502T070500"))
        #expect(flight.contains("SUMMARY:✈ Flight TP 1234 Lisbon → Tokyo"))
        #expect(flight.contains(#"LOCATION:Lisbon\, Humberto Delgado Airport"#))
        #expect(flight.contains("GEO:38.774200;-9.134200"))
        #expect(flight.contains(#"DESCRIPTION:Flight to Tokyo\nTo: Tokyo\, Narita Airport"#))
        #expect(flight.contains("CATEGORIES:transport"))
        // Without both ends' names, the title; without a title either, the mode alone.
        let legs = [
            TripItem(
                id: "b", type: .transport, title: "Night bus", start: LocalDateTime("2027-05-01T22:00"), mode: "bus"),
            TripItem(
                id: "c", type: .transport, title: "", start: LocalDateTime("2027-05-02T22:00"), mode: "hovercraft"),
        ]
        let ics = TripCalendar.ics(name: "n", itineraryID: "i", trip: Trip(items: legs), stampMilliseconds: 0)
        #expect(
            F.unfolded(ics).filter { $0.hasPrefix("SUMMARY:") } == ["SUMMARY:🚌 Bus Night bus", "SUMMARY:Transport"])
    }

    @Test func aStayIsAnAllDaySpanOfItsNights() {
        let stay = F.event(F.id(2), in: F.lisbonTokyoICS)
        #expect(stay.contains("DTSTART;VALUE=DATE:20270502"))
        #expect(stay.contains("DTEND;VALUE=DATE:20270505"), "check-out day, exclusive: the nights of 2, 3 and 4 May")
        #expect(stay.contains(#"DESCRIPTION:Conf. K7Q2\nCheck-in: 2027-05-02 15:00\nCheck-out: 2027-05-05 11:00"#))
        #expect(stay.contains("TRANSP:TRANSPARENT"))
        let open = F.event(F.id(10), in: F.lisbonTokyoICS)
        #expect(open.contains("DTSTART;VALUE=DATE:20270430"))
        #expect(open.contains("DTEND;VALUE=DATE:20270501"), "no check-out: one night")
    }

    @Test func otherItemsGetTheirDayTheTripZoneOrAFloatingTime() {
        let museum = F.event(F.id(4), in: F.lisbonTokyoICS)
        #expect(museum.contains("DTSTART;VALUE=DATE:20270504"))
        #expect(museum.contains("DTEND;VALUE=DATE:20270505"))
        #expect(museum.contains("DESCRIPTION:Booked"))
        let tram = F.event(F.id(5), in: F.lisbonTokyoICS)
        #expect(tram.contains("DTSTART;TZID=Europe/Lisbon:20270430T160000"), "no zone of its own: the trip's")
        #expect(tram.contains("DTEND;TZID=Europe/Lisbon:20270430T173000"))
        let sunrise = F.event(F.id(6), in: F.lisbonTokyoICS)
        #expect(sunrise.contains("DTSTART:20270506T050000"), "an unknown zone: floating")
        #expect(sunrise.contains("DTEND:20270506T060000"), "no end: one hour")
        #expect(sunrise.contains { $0.contains("Mars/Olympus") && $0.hasPrefix("DESCRIPTION:") })
        let backwards = F.event(F.id(8), in: F.lisbonTokyoICS)
        #expect(backwards.contains("DTEND;TZID=Asia/Tokyo:20270505T190000"))
        #expect(backwards.contains { $0.contains("before the start") })
        let utc = TripCalendar.ics(
            name: "x", itineraryID: "i",
            trip: Trip(items: [TripItem(id: "a", type: .food, title: "t", start: LocalDateTime("2027-05-01T15:00"))]),
            stampMilliseconds: 0)
        #expect(F.unfolded(utc).contains("DTSTART:20270501T150000Z"), "no zone anywhere: the trip model's UTC")
        #expect(!utc.contains("VTIMEZONE"))
    }

    @Test func anEventAcrossTheSpringForwardNightKeepsItsWallClockTimes() {
        let ics = F.newYorkICS
        let overnight = F.event(F.id(20), in: ics)
        #expect(overnight.contains("DTSTART;TZID=America/New_York:20270313T220000"))
        #expect(overnight.contains("DTEND;TZID=America/New_York:20270314T100000"))
        // 02:30 does not exist that night: it means 03:30 EDT, and is written so; an hour later is 04:30.
        let gap = F.event(F.id(21), in: ics)
        #expect(gap.contains("DTSTART;TZID=America/New_York:20270314T033000"))
        #expect(gap.contains("DTEND;TZID=America/New_York:20270314T043000"))
        #expect(
            gap.contains {
                $0.hasPrefix("DESCRIPTION:") && $0.contains("2027-03-14 02:30 does not exist in America/New_York")
            })
        // The second 01:30 of 7 November can only be written in UTC.
        let twice = F.event(F.id(22), in: ics)
        #expect(twice.contains("DTSTART;TZID=America/New_York:20271107T013000"))
        #expect(twice.contains("DTEND:20271107T063000Z"))
    }

    @Test func eachTransitionIsAnObservanceWithItsOnsetInTheLocalTimeBeforeIt() {
        let lines = F.unfolded(F.lisbonTokyoICS)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("BEGIN:DAYLIGHT\nDTSTART:20270328T010000\nTZOFFSETFROM:+0000\nTZOFFSETTO:+0100\n"))
        #expect(text.contains("BEGIN:STANDARD\nDTSTART:20271031T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0000\n"))
        // Tokyo has no transitions: one STANDARD.
        guard let tokyo = lines.firstIndex(of: "TZID:Asia/Tokyo") else {
            Issue.record("no VTIMEZONE for Asia/Tokyo")
            return
        }
        let block = lines[tokyo...].prefix { $0 != "END:VTIMEZONE" }
        #expect(block.filter { $0 == "BEGIN:STANDARD" }.count == 1)
        #expect(!block.contains("BEGIN:DAYLIGHT"))
        #expect(block.contains("TZOFFSETTO:+0900"))
        // Lisbon: the year before and after the trip, two transitions a year.
        guard let lisbon = lines.firstIndex(of: "TZID:Europe/Lisbon") else { return }
        let observances = lines[lisbon...].prefix { $0 != "END:VTIMEZONE" }.filter { $0.hasPrefix("BEGIN:") }
        #expect((5...7).contains(observances.count), "\(observances.count)")
    }

    @Test func hostileItemsNeitherTrapNorBloatTheCalendar() {
        var items: [TripItem] = []
        let zones = ["Europe/Lisbon", "America/New_York", "Australia/Sydney", "Nowhere/Else", "bad zone;x", ""]
        for n in 0..<600 {
            let year = [1, 2027, 9999][n % 3]
            let day = LocalDate("\(String(repeating: "0", count: 4 - String(year).count))\(year)-12-31")
            items.append(
                TripItem(
                    id: "h\(n)", type: n % 7 == 0 ? .lodging : .activity, title: "x",
                    start: day.map { LocalDateTime(date: $0, minuteOfDay: n % 1440) },
                    end: day.map { LocalDateTime(date: $0.adding(days: -(n % 3)), minuteOfDay: 1439) },
                    timeZone: zones[n % zones.count], endTimeZone: n % 5 == 0 ? "Asia/Tokyo" : nil,
                    location: TripLocation(latitude: .nan, longitude: 1e300)))
        }
        let ics = TripCalendar.ics(
            name: "hostile", itineraryID: "i", trip: Trip(timeZone: "Europe/Lisbon", items: items),
            stampMilliseconds: .max)
        let lines = F.unfolded(ics)
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 600)
        #expect(lines.contains("DTSTAMP:99991231T235959Z"))
        // Every time has a four-digit year, even an hour after 9999-12-31T23:30.
        for line in lines where line.hasPrefix("DTSTART") || line.hasPrefix("DTEND") {
            let value = line.split(separator: ":").last ?? ""
            #expect([8, 15, 16].contains(value.count), "\(line)")
        }
        #expect(!lines.contains { $0.hasPrefix("GEO") })
        #expect(!lines.contains { $0.hasPrefix("TZID:bad") || $0.contains("TZID=bad") })
        let observances = lines.filter { $0 == "BEGIN:STANDARD" || $0 == "BEGIN:DAYLIGHT" }.count
        #expect(observances <= 4 * 65, "at most 65 observances for each of the 4 known zones: \(observances)")
        #expect(ics.utf8.count < 400_000, "\(ics.utf8.count) octets")
    }

    @Test func fiveHundredItemsExportInMilliseconds() {
        var items: [TripItem] = []
        for n in 0..<500 {
            let day = LocalDate("2027-05-01")?.adding(days: n % 30)
            items.append(
                TripItem(
                    id: "p\(n)", type: n % 10 == 0 ? .transport : .activity, title: "Item \(n)",
                    start: day.map { LocalDateTime(date: $0, minuteOfDay: (n * 37) % 1380) },
                    end: day.map { LocalDateTime(date: $0, minuteOfDay: (n * 37) % 1380 + 45) },
                    timeZone: n % 2 == 0 ? "Europe/Lisbon" : "Asia/Tokyo", notes: "Notes, with; escapes"))
        }
        let trip = Trip(timeZone: "Europe/Lisbon", items: items)
        var best = Double.infinity
        for _ in 0..<5 {
            let t0 = Date()
            _ = TripCalendar.ics(name: "bench", itineraryID: "i", trip: trip, stampMilliseconds: 0)
            best = min(best, Date().timeIntervalSince(t0))
        }
        print("calendar export, 500 items: \(Int(best * 1_000_000)) µs (best of 5, debug build)")
        // A guard against quadratic work, not a benchmark: debug builds on a loaded machine vary.
        #expect(best < 2)
    }
}
