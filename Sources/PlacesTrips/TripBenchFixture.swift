import PlacesModel

/// A realistic trip for `places-bench` and for measuring the planning code: the issue's
/// benchmark of a 30-day trip with 500 items. Not for production use.
public enum TripBenchFixture {
    /// 1–30 May 2027: ten days in Lisbon, eight in Porto, a flight that lands in Tokyo the
    /// next day, then Tokyo and Kyoto (Asia/Tokyo). Four stays, three long legs, and each day
    /// places to go (dates alone), timed meals and timed activities with locations around the
    /// city centre, prices in EUR then JPY. Exactly 500 items; the same every call.
    public static func thirtyDays500Items() -> Trip {
        var builder = Builder()
        let cities: [(name: String, latitude: Double, longitude: Double, zone: String, currency: String)] = [
            ("Lisbon", 38.7223, -9.1393, "Europe/Lisbon", "EUR"), ("Porto", 41.1579, -8.6291, "Europe/Lisbon", "EUR"),
            ("Tokyo", 35.6762, 139.6503, "Asia/Tokyo", "JPY"), ("Kyoto", 35.0116, 135.7681, "Asia/Tokyo", "JPY"),
        ]
        // Days 1–10 Lisbon, 11–18 Porto, 19 flying, 20–24 Tokyo, 25–30 Kyoto.
        func city(onDay day: Int) -> Int { day <= 10 ? 0 : day <= 19 ? 1 : day <= 24 ? 2 : 3 }
        builder.stay(cities[0].name, city: cities[0], from: 1, to: 11)
        builder.stay(cities[1].name, city: cities[1], from: 11, to: 19)
        builder.stay(cities[2].name, city: cities[2], from: 20, to: 25)
        builder.stay(cities[3].name, city: cities[3], from: 25, to: 30)
        builder.leg(
            "Train Lisbon → Porto", from: cities[0], to: cities[1], day: 11, departs: 10 * 60, arrivalDay: 11,
            arrives: 13 * 60, mode: "train")
        builder.leg(
            "Flight Porto → Tokyo", from: cities[1], to: cities[2], day: 19, departs: 11 * 60, arrivalDay: 20,
            arrives: 8 * 60, mode: "flight")
        builder.leg(
            "Shinkansen Tokyo → Kyoto", from: cities[2], to: cities[3], day: 25, departs: 10 * 60,
            arrivalDay: 25, arrives: 12 * 60 + 15, mode: "train")
        // 7 + 30 × 16 + 13 = 500. On the flight day, nothing is timed after check-in at the airport.
        for day in 1...30 {
            builder.dayPlan(
                day: day, city: cities[city(onDay: day)], places: day <= 13 ? 9 : 8,
                timedUntil: day == 19 ? 9 * 60 : 1_440)
        }
        return Trip(
            startDate: LocalDate(year: 2027, month: 5, day: 1), endDate: LocalDate(year: 2027, month: 5, day: 30),
            timeZone: "Europe/Lisbon", travelMode: .walking, items: builder.items)
    }

    private struct Builder {
        var items: [TripItem] = []
        var seed: UInt64 = 0x5eed

        mutating func nextID() -> String {
            let hex = String(items.count + 1, radix: 16)
            return String(repeating: "0", count: 32 - hex.count) + hex
        }

        /// A point within about 2 km of the centre (a linear congruential generator, so the
        /// fixture is the same everywhere).
        mutating func near(_ city: (name: String, latitude: Double, longitude: Double, zone: String, currency: String))
            -> TripLocation
        {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let a = Double(seed >> 40 & 0xFFFF) / 65_536 - 0.5
            let b = Double(seed >> 20 & 0xFFFF) / 65_536 - 0.5
            return TripLocation(latitude: city.latitude + a * 0.036, longitude: city.longitude + b * 0.045)
        }

        func date(_ day: Int) -> LocalDate { LocalDate(year: 2027, month: 5, day: day) }

        mutating func stay(
            _ name: String, city: (name: String, latitude: Double, longitude: Double, zone: String, currency: String),
            from: Int, to: Int
        ) {
            let price = Money(
                amountMinor: Int64(to - from) * (city.currency == "JPY" ? 18_000 : 12_000), currency: city.currency)
            items.append(
                TripItem(
                    id: nextID(), type: .lodging, title: "Hotel in \(name)",
                    start: LocalDateTime(date: date(from), minuteOfDay: 15 * 60),
                    end: LocalDateTime(date: date(to), minuteOfDay: 11 * 60), timeZone: city.zone,
                    location: near(city), price: price))
        }

        mutating func leg(
            _ title: String, from: (name: String, latitude: Double, longitude: Double, zone: String, currency: String),
            to: (name: String, latitude: Double, longitude: Double, zone: String, currency: String), day: Int,
            departs: Int, arrivalDay: Int, arrives: Int, mode: String
        ) {
            items.append(
                TripItem(
                    id: nextID(), type: .transport, title: title,
                    start: LocalDateTime(date: date(day), minuteOfDay: departs),
                    end: LocalDateTime(date: date(arrivalDay), minuteOfDay: arrives), timeZone: from.zone,
                    endTimeZone: to.zone, location: near(from), to: near(to),
                    price: Money(amountMinor: 9_500, currency: "EUR"), mode: mode))
        }

        /// `places` places to go, four meals and four activities; those starting at or after
        /// `timedUntil` (minutes) have their date alone.
        mutating func dayPlan(
            day: Int, city: (name: String, latitude: Double, longitude: Double, zone: String, currency: String),
            places: Int, timedUntil: Int
        ) {
            let yen = city.currency == "JPY"
            func at(_ minute: Int) -> LocalDateTime {
                LocalDateTime(date: date(day), minuteOfDay: minute < timedUntil ? minute : nil)
            }
            for n in 0..<places {
                items.append(
                    TripItem(
                        id: nextID(), type: .place, title: "\(city.name) sight \(day).\(n)",
                        start: LocalDateTime(date: date(day)), location: near(city), position: "a\(n)"))
            }
            for (n, minute) in [9 * 60, 13 * 60, 16 * 60 + 30, 20 * 60].enumerated() {
                items.append(
                    TripItem(
                        id: nextID(), type: .food, title: "\(city.name) meal \(day).\(n)",
                        start: at(minute), timeZone: city.zone,
                        location: near(city), price: Money(amountMinor: yen ? 2_500 : 1_800, currency: city.currency)))
            }
            for (n, (from, to)) in [
                (10 * 60, 12 * 60), (14 * 60, 16 * 60), (17 * 60 + 30, 19 * 60), (21 * 60, 23 * 60),
            ]
            .enumerated() {
                items.append(
                    TripItem(
                        id: nextID(), type: .activity, title: "\(city.name) activity \(day).\(n)",
                        start: at(from), end: from < timedUntil ? at(to) : nil, timeZone: city.zone,
                        location: near(city),
                        price: Money(amountMinor: yen ? 3_000 : 2_000, currency: city.currency), booked: n % 2 == 0))
            }
        }
    }
}
