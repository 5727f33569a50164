import PlacesTrips
import Testing

@Suite struct ZonedClockTests {
    private func seconds(_ text: String, _ zone: String) -> Int64? {
        var clock = ZonedClock()
        return clock.instant(of: Fixture.time(text) ?? LocalDateTime(date: Fixture.date("1970-01-01")), in: zone)?
            .secondsSince1970
    }

    @Test func readsWallClockTimesInTheirZones() {
        // Oracle: Python's zoneinfo (datetime(...).replace(tzinfo=ZoneInfo(zone)).timestamp()).
        #expect(seconds("2027-05-01T11:00", "Europe/Lisbon") == 1_809_165_600)
        #expect(seconds("2027-05-02T07:00", "Asia/Tokyo") == 1_809_208_800)
        #expect(seconds("2027-05-01T10:00", "UTC") == 1_809_165_600)
    }

    @Test func aTimeInTheSpringGapMovesForwardAndARepeatedTimeIsTheFirst() {
        // Lisbon springs forward at 01:00 on 28 March 2027: 01:30 does not exist and is read
        // with the winter offset (02:30 summer time); it falls back at 02:00 on 31 October:
        // 01:30 happens twice and is the first, in summer time (RFC 5545 §3.3.5).
        var clock = ZonedClock()
        let gap = clock.instant(of: Fixture.time("2027-03-28T01:30")!, in: "Europe/Lisbon")
        #expect(gap?.secondsSince1970 == 1_806_197_400)
        #expect(gap?.utcOffsetSeconds == 3_600)
        let twice = clock.instant(of: Fixture.time("2027-10-31T01:30")!, in: "Europe/Lisbon")
        #expect(twice?.secondsSince1970 == 1_824_942_600)
        #expect(twice?.utcOffsetSeconds == 3_600)
        #expect(seconds("2027-03-28T03:00", "Europe/Lisbon") == 1_806_199_200)
        #expect(seconds("2027-10-31T03:00", "Europe/Lisbon") == 1_824_951_600)
    }

    @Test func anUnknownZoneReadsTheTimeAsUTCAndSaysSo() {
        var clock = ZonedClock()
        let instant = clock.instant(of: Fixture.time("2027-05-01T10:00")!, in: "Mars/Olympus_Mons")
        #expect(instant?.secondsSince1970 == 1_809_165_600)
        #expect(instant?.zoneIsKnown == false)
    }

    @Test func theEdgesOfTheCalendarConvertWithoutTrapping() {
        #expect(seconds("0001-01-01T00:00", "Europe/Lisbon") != nil)
        #expect(seconds("9999-12-31T23:59", "Asia/Tokyo") != nil)
        var clock = ZonedClock()
        var broken = LocalDateTime(date: Fixture.date("2027-05-01"), minuteOfDay: 60)
        broken.date.year = Int.max
        #expect(clock.instant(of: broken, in: "UTC") == nil)
    }

    @Test func onlyRealZoneNamesAreKnown() {
        for zone in ["Europe/Lisbon", "Asia/Tokyo", "America/New_York", "UTC", "Etc/UTC", "Asia/Kolkata"] {
            #expect(TripTime.isKnownZone(zone), "\(zone)")
        }
        for zone in ["Mars/Olympus_Mons", "europe/lisbon", "PST", "GMT+5", "", String(repeating: "A", count: 10_000)] {
            #expect(!TripTime.isKnownZone(zone), "\(zone.prefix(20))")
        }
    }
}
