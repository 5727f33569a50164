import PlacesTrips
import Testing

@Suite struct TripDaysTests {
    typealias F = Fixture

    @Test func aFlightToTokyoShowsOnItsDepartureAndArrivalDaysAtTheirLocalTimes() {
        let trip = F.trip(
            "2027-05-01", "2027-05-03",
            [
                F.item(
                    "flight", .transport, "TP 1 Lisbon → Tokyo", "2027-05-01T11:00", "2027-05-02T07:00",
                    zone: "Europe/Lisbon", endZone: "Asia/Tokyo"),
                F.item("sushi", .food, "Sushi breakfast", "2027-05-02T09:00", zone: "Asia/Tokyo"),
                F.item("early", .activity, "Fish market", "2027-05-02T05:30", zone: "Asia/Tokyo"),
                F.item("temple", .place, "Senso-ji", "2027-05-02", position: "a1"),
                F.item("park", .place, "Ueno park", "2027-05-02"),
                F.item("tower", .place, "Tokyo tower", "2027-05-02", position: "a0"),
            ])
        let schedule = TripDays.plan(trip)
        #expect(schedule.days.map(\.date.description) == ["2027-05-01", "2027-05-02", "2027-05-03"])
        #expect(schedule.days.map(\.number) == [1, 2, 3])
        #expect(schedule.days[0].items == ["flight"])
        // Timed by local time of day (the flight at its 07:00 arrival), then the user's order.
        #expect(schedule.days[1].items == ["early", "flight", "sushi", "tower", "temple", "park"])
        #expect(schedule.unscheduled.isEmpty)
    }

    @Test func anActivityAcrossMidnightIsOnTheDayItStarts() {
        let trip = F.trip(
            "2027-05-01", "2027-05-02",
            [F.item("fado", .activity, "Fado night", "2027-05-01T23:00", "2027-05-02T01:00")])
        let schedule = TripDays.plan(trip)
        #expect(schedule.days.map(\.items) == [["fado"], []])
    }

    @Test func eachNightHasTheBedCheckedInLatestAndStaysShowOnCheckInAndCheckOutDays() {
        let trip = F.trip(
            "2027-05-01", "2027-05-04",
            [
                F.item("avenida", .lodging, "Hotel Avenida", "2027-05-01T15:00", "2027-05-03T11:00"),
                F.item("casa", .lodging, "Casa Porto", "2027-05-02T15:00", "2027-05-04T11:00"),
                F.item("museum", .activity, "Museum", "2027-05-03T10:00", "2027-05-03T12:00"),
            ])
        let days = TripDays.plan(trip).days
        #expect(days.map(\.lodging) == ["avenida", "casa", "casa", nil])
        #expect(days.map(\.items) == [["avenida"], ["casa"], ["museum", "avenida"], ["casa"]])
    }

    @Test func aStayWithoutCheckOutCoversItsFirstNightOnly() {
        let trip = F.trip(
            "2027-05-01", "2027-05-03", [F.item("hostel", .lodging, "Hostel", "2027-05-01")])
        #expect(TripDays.plan(trip).days.map(\.lodging) == ["hostel", nil, nil])
    }

    @Test func itemsOutsideTheTripDatesExtendTheDaysAndUndatedOnesAreUnscheduledInTheUsersOrder() {
        let trip = F.trip(
            "2027-05-01", "2027-05-02",
            [
                F.item("before", .activity, "Airport lounge", "2027-04-30T20:00"),
                F.item("b", .place, "Maybe Sintra", position: "b"),
                F.item("z", .place, "Maybe Cascais"),
                F.item("a", .place, "Maybe Óbidos", position: "a"),
            ])
        let schedule = TripDays.plan(trip)
        #expect(schedule.days.map(\.date.description) == ["2027-04-30", "2027-05-01", "2027-05-02"])
        #expect(schedule.days[0].items == ["before"])
        #expect(schedule.unscheduled == ["a", "b", "z"])
    }

    @Test func aTripWithoutDatesSpansItsItems() {
        let trip = F.trip(
            nil, nil,
            [
                F.item("one", .activity, "One", "2027-05-03T10:00"),
                F.item("two", .activity, "Two", "2027-05-05"),
            ])
        #expect(TripDays.plan(trip).days.map(\.date.description) == ["2027-05-03", "2027-05-04", "2027-05-05"])
        #expect(TripDays.plan(F.trip(nil, nil, [])).days.isEmpty)
    }

    @Test func hostileDatesCannotMakeAListOfMillionsOfDays() {
        var items = (1...10).map { F.item("may\($0)", .activity, "Day \($0)", "2027-05-\($0 < 10 ? "0" : "")\($0)") }
        items.append(F.item("far", .activity, "Far future", "9999-12-31T23:59"))
        items.append(F.item("past", .activity, "Far past", "0001-01-01T00:00"))
        items.append(F.item("long", .lodging, "Forever hotel", "0001-01-01", "9999-12-31"))
        let undated = TripDays.plan(F.trip(nil, nil, items))
        #expect(undated.days.count == 10)
        #expect(undated.days.first?.date.description == "2027-05-01")
        #expect(Set(undated.unscheduled) == ["far", "past", "long"])
        // The eternal stay is still that night's bed, though no day shows its check-in.
        #expect(undated.days.allSatisfy { $0.lodging == "long" })

        let dated = TripDays.plan(F.trip("0001-01-01", "9999-12-31", items))
        #expect(dated.days.count == 366)
        #expect(dated.days.last?.date.description == "0002-01-01")
    }

    @Test func tenThousandItemsInOneDayAreOrderedByTimeThenPosition() {
        var items: [TripItem] = []
        var seed: UInt64 = 42
        for n in 0..<10_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            let minute = Int(seed >> 33 % 1_440) % 1_440
            let timed = n % 3 != 0
            let time = timed ? "2027-05-01T\(pad(minute / 60)):\(pad(minute % 60))" : "2027-05-01"
            items.append(F.item("i\(n)", .activity, "Item \(n)", time, position: n % 7 == 0 ? nil : "p\(seed % 1_000)"))
        }
        let schedule = TripDays.plan(F.trip("2027-05-01", "2027-05-01", items))
        let day = schedule.days[0].items
        #expect(day.count == 10_000)
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        let minutes = day.compactMap { byID[$0]?.start?.minuteOfDay }
        #expect(minutes == minutes.sorted())
        #expect(day.prefix(minutes.count).allSatisfy { byID[$0]?.start?.isTimed == true })
    }

    private func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    @Test func aDuplicateIDIsShownOnce() {
        let trip = F.trip(
            "2027-05-01", "2027-05-01",
            [
                F.item("same", .activity, "First", "2027-05-01T10:00"),
                F.item("same", .activity, "Second", "2027-05-01T09:00"),
            ])
        #expect(TripDays.plan(trip).days[0].items == ["same"])
    }

    @Test func aTransferDayRoutesFromLastNightsBedToTonightsAndVisitsLocatedStops() {
        let trip = F.trip(
            "2027-05-01", "2027-05-04",
            [
                F.item("lisbon", .lodging, "Lisbon hotel", "2027-05-01T15:00", "2027-05-03T11:00", at: F.baixa),
                F.item("porto", .lodging, "Porto hotel", "2027-05-03T15:00", "2027-05-04T11:00", at: F.ribeira),
                F.item(
                    "train", .transport, "Train", "2027-05-03T12:00", "2027-05-03T15:00", at: F.baixa, to: F.saoBento),
                F.item("lunch", .food, "Lunch", "2027-05-03T16:00", at: F.saoBento),
                F.item("walk", .place, "Ribeira walk", "2027-05-03", at: F.ribeira),
                F.item("idea", .place, "Somewhere", "2027-05-03"),
                F.item("nowhere", .lodging, "Unknown address", "2027-05-04", "2027-05-05"),
            ])
        let transfer = TripDays.route(for: F.date("2027-05-03"), in: trip)
        #expect(transfer == TripDayRoute(start: "lisbon", end: "porto", stops: ["lunch", "walk"]))
        #expect(
            TripDays.route(for: F.date("2027-05-01"), in: trip) == TripDayRoute(start: nil, end: "lisbon", stops: []))
        // A bed without coordinates cannot end a route.
        #expect(TripDays.route(for: F.date("2027-05-04"), in: trip).end == nil)
        #expect(TripDays.route(for: F.date("2027-05-04"), in: trip).start == "porto")
    }
}
