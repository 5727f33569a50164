import PlacesRoutes
import PlacesTrips
import Testing

@Suite struct TripWarningsTests {
    typealias F = Fixture

    private func codes(_ trip: Trip) -> [String] { TripWarnings.check(trip).map(\.code) }

    @Test func overlappingStaysNameTheNightAndWhatToFix() {
        let trip = F.trip(
            "2027-05-01", "2027-05-08",
            [
                F.item("avenida", .lodging, "Hotel Avenida", "2027-05-01T15:00", "2027-05-05T11:00"),
                F.item("casa", .lodging, "Casa Porto", "2027-05-04T15:00", "2027-05-08T11:00"),
            ])
        #expect(
            TripWarnings.check(trip) == [
                TripWarning(
                    code: "lodging-overlap", items: ["avenida", "casa"],
                    message: "Hotel Avenida (check-out 5 May) and Casa Porto (check-in 4 May) overlap on the night of "
                        + "4 May: change one stay's dates")
            ])
    }

    @Test func nightsWithoutABedAreMergedAndAnOvernightTransportCounts() {
        var items = [
            F.item("one", .lodging, "First hotel", "2027-05-01", "2027-05-04"),
            F.item("two", .lodging, "Second hotel", "2027-05-07", "2027-05-10"),
        ]
        let bare = TripWarnings.check(F.trip("2027-05-01", "2027-05-10", items))
        #expect(bare.map(\.code) == ["night-without-lodging"])
        #expect(bare.first?.message == "No lodging for the nights of 4–6 May: add a stay or an overnight transport")
        items.append(
            F.item(
                "sleeper", .transport, "Night train", "2027-05-06T22:00", "2027-05-07T07:00", at: F.baixa, to: F.baixa))
        let withTrain = TripWarnings.check(F.trip("2027-05-01", "2027-05-10", items))
        #expect(
            withTrain.map(\.message) == ["No lodging for the nights of 4–5 May: add a stay or an overnight transport"])
        // No dates, no nights to check.
        #expect(codes(F.trip(nil, nil, [items[0]])).isEmpty)
    }

    @Test func itemsAcrossMidnightOverlapInAbsoluteTime() {
        let trip = F.trip(
            "2027-05-01", "2027-05-02",
            [
                F.item("fado", .activity, "Fado night", "2027-05-01T23:00", "2027-05-02T01:00"),
                F.item("snack", .food, "Late snack", "2027-05-02T00:30"),
                F.item("breakfast", .food, "Breakfast", "2027-05-02T09:00"),
                F.item("walk", .activity, "Walk", "2027-05-02T09:00"),
                F.item("tour", .activity, "Tour", "2027-05-02T10:00", "2027-05-02T11:00"),
                F.item("after", .activity, "Right after", "2027-05-02T11:00"),
            ])
        let warnings = TripWarnings.check(trip)
        let overlaps = warnings.filter { $0.code == "time-overlap" }
        // Both on 2 May (the later item's date), then by ids.
        #expect(overlaps.map(\.items) == [["breakfast", "walk"], ["fado", "snack"]])
        #expect(
            overlaps.last?.message
                == "Fado night (1 May 23:00–2 May 01:00) and Late snack (2 May 00:30) overlap: move one of them")
    }

    @Test func aLinkedItemDoesNotClashWithWhatItLinksTo() {
        let trip = F.trip(
            "2027-05-01", "2027-05-01",
            [
                F.item("train", .transport, "Train", "2027-05-01T10:00", "2027-05-01T13:00"),
                F.item("dinner", .activity, "Lunch on board", "2027-05-01T11:00", "2027-05-01T12:00", link: "train"),
            ])
        #expect(codes(trip).isEmpty)
    }

    @Test func aTransportThatLandsAfterTheNextItemStartsIsLate() {
        let trip = F.trip(
            "2027-05-01", "2027-05-02",
            [
                F.item(
                    "flight", .transport, "TP 1 Lisbon → Tokyo", "2027-05-01T11:00", "2027-05-02T07:00",
                    zone: "Europe/Lisbon", endZone: "Asia/Tokyo"),
                F.item("market", .activity, "Fish market", "2027-05-02T06:00", zone: "Asia/Tokyo"),
                F.item("sushi", .food, "Sushi breakfast", "2027-05-02T09:00", zone: "Asia/Tokyo"),
            ])
        let warnings = TripWarnings.check(trip)
        #expect(warnings.map(\.code) == ["transport-late"])
        #expect(
            warnings.first?.message
                == "TP 1 Lisbon → Tokyo arrives (2 May 07:00) after Fish market starts (2 May 06:00): "
                + "move Fish market later or change the transport")
    }

    @Test func tooLittleTimeToWalkBetweenTwoItemsSaysHowLongItTakes() {
        let museum = F.item("museum", .activity, "Coach museum", "2027-05-01T10:00", "2027-05-01T12:00", at: F.belem)
        let lunch = F.item("lunch", .food, "Lunch in Baixa", "2027-05-01T12:10", at: F.baixa)
        let trip = F.trip("2027-05-01", "2027-05-01", [museum, lunch])
        let warnings = TripWarnings.check(trip)
        // Oracle: haversine in Python, 6,213 m × 1.25 at 5 km/h = 7,767 m, 93.2 min (rounded up);
        // driving × 1.4 at 40 km/h = 8,699 m, 13.05 min.
        #expect(warnings.map(\.code) == ["tight-connection"])
        #expect(
            warnings.first?.message
                == "Only 10 min between Coach museum (ends 12:00) and Lunch in Baixa (starts 12:10), but walking there "
                + "takes about 1 h 34 min (7.8 km): leave earlier, move Lunch in Baixa later or change the travel mode")
        var driving = trip
        driving.travelMode = .driving
        #expect(
            TripWarnings.check(driving).first?.message.contains("driving there takes about 14 min (8.7 km)") == true)
        var later = trip
        later.items[1].start = F.time("2027-05-01T14:00")
        #expect(codes(later).isEmpty)
    }

    @Test func theClocksChangingIsCountedInTheTimeBetweenItems() {
        // Lisbon, 28 March 2027: 01:00 becomes 02:00. 00:55 to 02:10 on the clock is 15 minutes.
        let spring = F.trip(
            "2027-03-28", "2027-03-28",
            [
                F.item("party", .activity, "Party in Belém", "2027-03-28T00:00", "2027-03-28T00:55", at: F.belem),
                F.item("bar", .food, "Bar in Baixa", "2027-03-28T02:10", at: F.baixa),
            ])
        #expect(
            TripWarnings.check(spring).map(\.message) == [
                "Only 15 min between Party in Belém (ends 00:55) and Bar in Baixa (starts 02:10), but walking there "
                    + "takes about 1 h 34 min (7.8 km): leave earlier, move Bar in Baixa later or change the travel mode"
            ])
        // 31 October 2027: 02:00 becomes 01:00 again; 01:20 is the first 01:20, during a tour
        // that runs 01:00–01:50 the first time round.
        let autumn = F.trip(
            "2027-10-31", "2027-10-31",
            [
                F.item("tour", .activity, "Ghost tour", "2027-10-31T01:00", "2027-10-31T01:50"),
                F.item("drink", .food, "Drink", "2027-10-31T01:20"),
            ])
        #expect(codes(autumn) == ["time-overlap"])
    }

    @Test func namesAreReadableWhateverTheTitle() {
        let trip = F.trip(
            "2027-05-01", "2027-05-01",
            [
                F.item("blank", .activity, "  ", "2027-05-01T12:00", "2027-05-01T10:00"),
                F.item(
                    "long", .activity, String(repeating: "Very long title ", count: 1_000), "2027-05-01T12:00",
                    "2027-05-01T10:00"),
            ])
        let messages = TripWarnings.check(trip).map(\.message)
        #expect(
            messages.contains("an untitled activity ends (1 May 10:00) before it starts (1 May 12:00): fix its end"))
        #expect(messages.allSatisfy { $0.count < 200 })
    }

    @Test func aTransportEndsWhereItArrives() {
        let trip = F.trip(
            "2027-05-01", "2027-05-01",
            [
                F.item(
                    "train", .transport, "Train to Porto", "2027-05-01T10:00", "2027-05-01T13:00", at: F.baixa,
                    to: F.saoBento),
                F.item("lunch", .food, "Lunch by the station", "2027-05-01T13:10", at: F.saoBento),
                F.item("far", .food, "Lunch in Lisbon", "2027-05-01T13:20", at: F.chiado),
            ])
        let warnings = TripWarnings.check(trip)
        #expect(warnings.map(\.items) == [["lunch", "far"]])
    }

    @Test func itemsOutsideTheTripAreNamedWithTheTripsDates() {
        let trip = F.trip(
            "2027-05-01", "2027-05-10",
            [
                F.item("boat", .activity, "Boat tour", "2027-05-12T10:00"),
                F.item("hotel", .lodging, "Last hotel", "2027-05-08", "2027-05-10"),
                F.item("late", .lodging, "Too late hotel", "2027-05-09", "2027-05-11"),
            ])
        let warnings = TripWarnings.check(trip).filter { $0.code == "outside-trip" }
        #expect(warnings.map(\.items) == [["late"], ["boat"]])
        #expect(
            warnings.last?.message
                == "Boat tour (12 May) is outside the trip (1–10 May): move it into the trip or change the trip's dates"
        )
    }

    @Test func anEndBeforeItsStartIsNamedAndReadAsNoEnd() {
        let trip = F.trip(
            "2027-05-01", "2027-05-02",
            [
                F.item("tour", .activity, "Tour", "2027-05-01T12:00", "2027-05-01T10:00"),
                F.item("bed", .lodging, "Bed", "2027-05-01", "2027-05-02"),
                F.item("coffee", .food, "Coffee", "2027-05-01T11:00"),
                // Tokyo → Lisbon lands "earlier" on the clock but later in absolute time: fine.
                F.item(
                    "home", .transport, "Flight home", "2027-05-02T07:00", "2027-05-02T05:00", zone: "Asia/Tokyo",
                    endZone: "Europe/Lisbon"),
            ])
        let warnings = TripWarnings.check(trip)
        #expect(warnings.map(\.code) == ["end-before-start"])
        #expect(warnings.first?.message == "Tour ends (1 May 10:00) before it starts (1 May 12:00): fix its end")
        var backwards = trip
        backwards.items[3].end = F.time("2027-05-01T20:00")
        #expect(
            TripWarnings.check(backwards).last?.message
                == "Flight home arrives (1 May 20:00 Europe/Lisbon) before it departs (2 May 07:00 Asia/Tokyo): "
                + "fix the arrival or its time zone")
        #expect(
            codes(Trip(startDate: F.date("2027-05-10"), endDate: F.date("2027-05-01"), items: [])) == [
                "end-before-start"
            ])
    }

    @Test func anUnknownZoneIsNamedOnce() {
        let trip = F.trip(
            "2027-05-01", "2027-05-01",
            [
                F.item("launch", .activity, "Rocket launch", "2027-05-01T10:00", zone: "Mars/Olympus_Mons"),
                F.item("landing", .activity, "Landing", "2027-05-01T12:00", zone: "Mars/Olympus_Mons"),
            ])
        let warnings = TripWarnings.check(trip)
        #expect(warnings.map(\.code) == ["unknown-time-zone"])
        #expect(warnings.first?.items == ["launch", "landing"])
        #expect(
            warnings.first?.message
                == "Time zone Mars/Olympus_Mons of Rocket launch and Landing is unknown to this build: their times are "
                + "read as UTC; use an IANA zone such as Europe/Lisbon")
        var tripZone = trip
        tripZone.timeZone = "Atlantis/Capital"
        tripZone.items[0].timeZone = nil
        #expect(codes(tripZone) == ["unknown-time-zone", "unknown-time-zone"])
    }

    @Test func aLinkToNothingAndADuplicateIDAreNamed() {
        let trip = F.trip(
            "2027-05-01", "2027-05-01",
            [
                F.item("tour", .activity, "Tour", "2027-05-01T10:00", link: "gone"),
                F.item("tour", .activity, "Other tour", "2027-05-01T10:00"),
            ])
        let warnings = TripWarnings.check(trip)
        #expect(warnings.map(\.code) == ["dangling-link", "duplicate-id"])
        #expect(
            warnings.first?.message
                == "Tour links to an item that is not in this trip (gone): link it to another item or remove the link")
    }

    @Test func farDatesAreWarnedAboutNotListedForMillionsOfDays() {
        let items = [
            F.item("now", .activity, "Now", "2027-05-01T10:00"),
            F.item("far", .activity, "Far future", "9999-12-31T23:59"),
            F.item("past", .activity, "Far past", "0001-01-01T00:00"),
        ]
        #expect(codes(F.trip(nil, nil, items)).sorted() == ["day-limit", "day-limit"])
        #expect(codes(F.trip("2027-05-01", "2027-05-01", items)) == ["outside-trip", "outside-trip"])
    }

    @Test func tenThousandClashingItemsMakeABoundedList() {
        let items = (0..<10_000).map {
            F.item("i\($0)", .activity, "Item \($0)", "2027-05-01T10:00", "2027-05-01T12:00")
        }
        let warnings = TripWarnings.check(F.trip("2027-05-01", "2027-05-01", items))
        #expect(warnings.count == 101)
        #expect(
            warnings.last?.message
                == "…and 9899 more time-overlap warnings not listed: fix the ones above, then check again")
    }

    @Test func warningsAreOrderedByDateThenCode() {
        let trip = F.trip(
            "2027-05-01", "2027-05-03",
            [
                F.item("b", .activity, "B", "2027-05-02T10:00", "2027-05-02T12:00"),
                F.item("a", .activity, "A", "2027-05-02T11:00", link: "missing"),
                F.item("c", .activity, "C", "2027-05-01T12:00", "2027-05-01T10:00"),
            ])
        #expect(codes(trip) == ["end-before-start", "night-without-lodging", "dangling-link", "time-overlap"])
        #expect(
            TripWarnings.check(trip)
                == TripWarnings.check(
                    Trip(
                        startDate: trip.startDate, endDate: trip.endDate, timeZone: trip.timeZone,
                        items: trip.items.reversed())))
    }
}
