import Foundation
import PlacesTrips
import Testing

/// The calendar read back by an independent parser, Python's `icalendar` (with `zoneinfo`
/// for zones by name and dateutil for our VTIMEZONEs), through scripts/check-ics.py:
/// what a calendar app would import, compared with what the trip says.
@Suite struct CalendarParserTests {
    typealias F = CalendarFixture

    /// An event's start or end as the parser understood it.
    struct When: Decodable, Equatable {
        var value: String
        var allDay: Bool
        var tzid: String?
        var zone: String?
        var utc: String?
        var utcViaVTIMEZONE: String?
    }

    struct Event: Decodable {
        var uid: String?
        var summary: String?
        var description: String?
        var location: String?
        var geo: [Double]?
        var url: String?
        var categories: [String]
        var start: When?
        var end: When?
        var errors: [String]
    }

    struct Zone: Decodable {
        var tzid: String
        var observances: Int
        var samples: Int
        var mismatches: [String]
    }

    struct Parsed: Decodable {
        var name: String?
        var errors: [String]
        var timezones: [Zone]
        var events: [Event]

        func event(_ id: String) -> Event? { events.first { $0.uid == "\(id)@\(F.itineraryID).places" } }
    }

    /// A local time in an IANA zone, with the UTC instant the test knows it to be.
    static func zoned(_ value: String, _ zone: String, utc: String) -> When {
        When(value: value, allDay: false, tzid: zone, zone: zone, utc: utc, utcViaVTIMEZONE: utc)
    }

    static func day(_ value: String) -> When { When(value: value, allDay: true) }

    @Test func theTripImportsWithoutLoss() throws {
        let parsed = try Self.parse(F.lisbonTokyoICS)
        #expect(parsed.errors.isEmpty)
        #expect(parsed.name == "Lisbon, Tokyo; spring")
        #expect(parsed.events.count == 9)
        #expect(parsed.events.allSatisfy { $0.errors.isEmpty })

        let flight = try #require(parsed.event(F.id(1)))
        #expect(flight.summary == "✈ Flight TP 1234 Lisbon → Tokyo")
        #expect(flight.start == Self.zoned("2027-05-01T10:00:00", "Europe/Lisbon", utc: "2027-05-01T09:00:00Z"))
        #expect(flight.end == Self.zoned("2027-05-02T07:05:00", "Asia/Tokyo", utc: "2027-05-01T22:05:00Z"))
        #expect(flight.location == "Lisbon, Humberto Delgado Airport")
        #expect(flight.geo == [38.7742, -9.1342])
        #expect(flight.description == "Flight to Tokyo\nTo: Tokyo, Narita Airport")
        #expect(flight.categories == ["transport"])

        let stay = try #require(parsed.event(F.id(2)))
        #expect(stay.summary == "🏨 Hotel Sakura")
        #expect(stay.start == Self.day("2027-05-02"))
        #expect(stay.end == Self.day("2027-05-05"))
        #expect(stay.description == "Conf. K7Q2\nCheck-in: 2027-05-02 15:00\nCheck-out: 2027-05-05 11:00")

        let cafe = try #require(parsed.event(F.id(3)))
        #expect(cafe.summary == "Café Ção")
        #expect(cafe.location == "Café Ção, 4-5 Ginza; 2F, Tokyo")
        #expect(cafe.description == "Price: 1800 JPY\n" + F.cafeNotes)
        #expect(cafe.geo == [35.6717, 139.765])
        #expect(cafe.start == Self.zoned("2027-05-03T12:30:00", "Asia/Tokyo", utc: "2027-05-03T03:30:00Z"))
        #expect(cafe.end == Self.zoned("2027-05-03T13:30:00", "Asia/Tokyo", utc: "2027-05-03T04:30:00Z"))

        let museum = try #require(parsed.event(F.id(4)))
        #expect(museum.start == Self.day("2027-05-04"))
        #expect(museum.end == Self.day("2027-05-05"))

        let tram = try #require(parsed.event(F.id(5)))
        #expect(tram.start == Self.zoned("2027-04-30T16:00:00", "Europe/Lisbon", utc: "2027-04-30T15:00:00Z"))
        #expect(tram.url == "https://example.org/tram?line=28&x=1,2")

        let sunrise = try #require(parsed.event(F.id(6)))
        #expect(sunrise.start == When(value: "2027-05-06T05:00:00", allDay: false), "floating: no zone, no instant")

        let place = try #require(parsed.event(F.id(9)))
        #expect(place.summary == F.longTitle)

        let open = try #require(parsed.event(F.id(10)))
        #expect(open.start == Self.day("2027-04-30"))
        #expect(open.end == Self.day("2027-05-01"))
        #expect(open.url == nil)
        #expect(open.description?.hasSuffix("Link: not a link\nX-EVIL:1") == true)
    }

    @Test func zoneTransitionsReadTheSameInEveryParser() throws {
        let parsed = try Self.parse(F.newYorkICS)
        let overnight = try #require(parsed.event(F.id(20)))
        #expect(
            overnight.start == Self.zoned("2027-03-13T22:00:00", "America/New_York", utc: "2027-03-14T03:00:00Z"))
        #expect(overnight.end == Self.zoned("2027-03-14T10:00:00", "America/New_York", utc: "2027-03-14T14:00:00Z"))
        let gap = try #require(parsed.event(F.id(21)))
        #expect(gap.start?.value == "2027-03-14T03:30:00", "written as the time it means")
        #expect(gap.start?.utc == "2027-03-14T07:30:00Z")
        #expect(gap.end?.utc == "2027-03-14T08:30:00Z")
        let twice = try #require(parsed.event(F.id(22)))
        #expect(twice.start?.utc == "2027-11-07T05:30:00Z", "the first 01:30")
        #expect(twice.end?.utc == "2027-11-07T06:30:00Z", "one hour later, the second 01:30")
        let sydney = try #require(parsed.event(F.id(23)))
        #expect(sydney.start?.utc == "2027-04-03T15:30:00Z", "02:30 AEDT, the first of the two")
        let lordHowe = try #require(parsed.event(F.id(24)))
        #expect(lordHowe.start?.utc == "2027-10-02T14:30:00Z", "01:00 at +10:30")
        #expect(lordHowe.end?.utc == "2027-10-02T16:00:00Z", "03:00 at +11, after the half-hour jump")
    }

    /// Our VTIMEZONEs (read by dateutil) give the same offsets as zoneinfo by name: at each
    /// onset, a second before it and every 6 hours over the span, and for every event.
    @Test(arguments: ["lisbonTokyo", "newYork"])
    func ourTimeZonesAgreeWithZoneinfo(trip: String) throws {
        let parsed = try Self.parse(trip == "newYork" ? F.newYorkICS : F.lisbonTokyoICS)
        #expect(!parsed.timezones.isEmpty)
        for zone in parsed.timezones {
            #expect(zone.mismatches.isEmpty, "\(zone.tzid): \(zone.mismatches)")
            #expect(zone.samples > 2000, "\(zone.tzid): \(zone.samples) samples")
        }
        for event in parsed.events {
            for when in [event.start, event.end].compactMap({ $0 }) where when.tzid != nil {
                #expect(when.utcViaVTIMEZONE == when.utc, "\(event.summary ?? ""): \(when)")
            }
        }
    }

    /// Hostile items (years 1 and 9999, unknown zones, ends before starts, NaN coordinates,
    /// control characters) still give a calendar the parser reads whole.
    @Test func aHostileTripStillParses() throws {
        var items: [TripItem] = []
        let zones = ["Asia/Tokyo", "America/New_York", "Nowhere/Else", "bad zone;x", ""]
        for n in 0..<60 {
            let date = LocalDate(["0001-01-01", "2027-06-15", "9999-12-31"][n % 3])
            items.append(
                TripItem(
                    id: "h\(n)", type: [.lodging, .transport, .food, .activity, .place][n % 5],
                    title: "x\u{0}\u{7F}\r\n;,\\ \(n)",
                    start: date.map { LocalDateTime(date: $0, minuteOfDay: n % 2 == 0 ? (n * 97) % 1440 : nil) },
                    end: date.map { LocalDateTime(date: $0.adding(days: n % 4 == 0 ? -1 : 0), minuteOfDay: 1439) },
                    timeZone: zones[n % zones.count], endTimeZone: n % 7 == 0 ? "Pacific/Kiritimati" : nil,
                    location: TripLocation(name: "\u{1}", latitude: .infinity, longitude: -0.0)))
        }
        let ics = TripCalendar.ics(
            name: "hostile", itineraryID: "i", trip: Trip(timeZone: "Pacific/Apia", items: items),
            stampMilliseconds: .min)
        let parsed = try Self.parse(ics)
        #expect(parsed.errors.isEmpty)
        #expect(parsed.events.count == 60)
        #expect(parsed.events.allSatisfy { $0.errors.isEmpty && $0.start != nil && $0.end != nil })
        #expect(parsed.events.contains { $0.summary == "x\n;,\\ 2" })
    }

    /// Writes `ics` to a temporary file and runs scripts/check-ics.py on it; fails (never
    /// skips) when python3 or icalendar is missing.
    static func parse(_ ics: String) throws -> Parsed {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/check-ics.py").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-ics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("trip.ics")
        let output = dir.appendingPathComponent("out.json")
        let errors = dir.appendingPathComponent("err.txt")
        try Data(ics.utf8).write(to: input)
        try Data().write(to: output)
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, input.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        do {
            try process.run()
        } catch {
            throw CheckFailure(message: "can't run python3 (\(error)): run scripts/bootstrap.sh")
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw CheckFailure(
                message: "scripts/check-ics.py exited \(process.terminationStatus): \(stderr)"
                    + " — run scripts/bootstrap.sh to install python3 and the pinned icalendar")
        }
        return try JSONDecoder().decode(Parsed.self, from: Data(contentsOf: output))
    }

    struct CheckFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
