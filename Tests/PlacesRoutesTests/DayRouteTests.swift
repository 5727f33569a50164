import Foundation
import Testing

@testable import PlacesRoutes

/// A place `meters` north of a fixed point in Lisbon (walking: about 0.9 s per metre).
private func place(_ id: String, north meters: Double, east: Double = 0) -> RoutePlace {
    let latitude = 38.7 + meters / 111_195
    let longitude = -9.14 + east / (111_195 * cos(38.7 * .pi / 180))
    return RoutePlace(id: id, name: id.capitalized, latitude: latitude, longitude: longitude)
}

private func ids(_ plan: DayRoutePlan) -> [String] { plan.route.stops.map(\.place.id) }

@Suite("Day routes")
struct DayRouteTests {
    let hotel = place("hotel", north: 0)
    let sights = [
        place("a", north: 400, east: 300), place("b", north: 900, east: -200), place("c", north: -300, east: 600),
        place("d", north: 1_200, east: 500), place("e", north: -700, east: -400),
    ]

    @Test func lodgingIsFirstAndLastOnARoundTrip() throws {
        let plan = try DayRoutePlanner.plan(
            DayRouteRequest(places: sights + [hotel], startID: "hotel", endID: "hotel"))
        #expect(ids(plan).first == "hotel")
        #expect(plan.route.roundTrip)
        #expect(plan.route.legs.last?.to == "hotel")
        #expect(Set(ids(plan)) == Set((sights + [hotel]).map(\.id)))
        #expect(plan.route.legs.count == sights.count + 1)
    }

    @Test func transferDayGoesFromOneHotelToTheNext() throws {
        let next = place("next-hotel", north: 2_000)
        let plan = try DayRoutePlanner.plan(
            DayRouteRequest(places: [next] + sights + [hotel], startID: "hotel", endID: "next-hotel"))
        #expect(ids(plan).first == "hotel")
        #expect(ids(plan).last == "next-hotel")
        #expect(!plan.route.roundTrip)
        #expect(plan.route.legs.count == sights.count + 1)
        // The exports follow the open path: GPX route points and the Maps link end at the next hotel.
        let gpx = plan.route.gpx(name: "Day 2")
        let lastPoint = try #require(gpx.range(of: "<rtept", options: .backwards))
        #expect(gpx[lastPoint.lowerBound...].contains("Next-Hotel"))
        let link = try #require(plan.route.googleMapsDirections().urls.last)
        #expect(link.contains("destination=\(Formatting.coordinate(next.latitude))%2C"))
    }

    @Test func timedStopsKeepTheirTimeOrder() throws {
        // On a line north of the hotel the cheapest open path visits 1 km before 5 km;
        // the times say 5 km at 10:00, then 1 km at 14:00.
        let line = (1...5).map { place("km\($0)", north: Double($0) * 1_000) }
        let free = try DayRoutePlanner.plan(DayRouteRequest(places: [hotel] + line, startID: "hotel"))
        #expect(ids(free) == ["hotel", "km1", "km2", "km3", "km4", "km5"])
        let timed = try DayRoutePlanner.plan(
            DayRouteRequest(
                places: [hotel] + line, startID: "hotel",
                timedStops: [TimedStop(id: "km1", startMinute: 14 * 60), TimedStop(id: "km5", startMinute: 10 * 60)]))
        let order = ids(timed)
        let first = try #require(order.firstIndex(of: "km5"))
        let second = try #require(order.firstIndex(of: "km1"))
        #expect(first < second)
        #expect(order.first == "hotel")
        // Out to 5 km and back to 1 km, the untimed stops on the way (9 km at 5 km/h × 1.25).
        #expect(abs(timed.route.totals.durationSeconds - 8_100) < 2)
        #expect(timed.route.optimal)
    }

    @Test func smallDaysAreExactUnderTheTimeOrder() throws {
        var rng = SplitMix64(seed: 7)
        for round in 0..<6 {
            let places = (0..<7).map { index in
                place("p\(index)", north: Double(rng.below(3_000)), east: Double(rng.below(3_000)))
            }
            // Times far apart, so that nothing is late and the order is the cheapest one.
            let timed =
                [TimedStop(id: "p3", startMinute: 0), TimedStop(id: "p1", startMinute: 600)]
                + (round % 2 == 0 ? [TimedStop(id: "p5", startMinute: 1_200)] : [])
            let request = DayRouteRequest(places: places, startID: "p0", endID: "p6", timedStops: timed)
            let plan = try DayRoutePlanner.plan(request)
            #expect(plan.lateStops.isEmpty)
            let matrix = try GreatCircleMatrixProvider().travelMatrices(for: places.map(\.point), mode: .walking)
            let index = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.id, $0) })
            let cost = matrix.durationSeconds.cost(of: ids(plan).compactMap { index[$0] }, roundTrip: false)
            // Brute force over every order that starts at p0, ends at p6 and keeps the times.
            let timeOrder = timed.map { index[$0.id] ?? -1 }
            var best = Double.infinity
            var middle = Array(1...5)
            func permute(_ k: Int) {
                if k == middle.count {
                    let positions = timeOrder.map { middle.firstIndex(of: $0) ?? -1 }
                    guard positions == positions.sorted() else { return }
                    best = min(best, matrix.durationSeconds.cost(of: [0] + middle + [6], roundTrip: false))
                    return
                }
                for i in k..<middle.count {
                    middle.swapAt(k, i)
                    permute(k + 1)
                    middle.swapAt(k, i)
                }
            }
            permute(0)
            #expect(abs(cost - best) < 1e-6, "round \(round): \(cost) vs optimum \(best)")
        }
    }

    @Test func arrivalTimesAndALateStop() throws {
        // 1 km walk is 1,000 × 1.25 / (5 km/h) = 900 s = 15 min.
        let near = place("near", north: 1_000)
        let far = place("far", north: 10_000)
        let plan = try DayRoutePlanner.plan(
            DayRouteRequest(
                places: [hotel, near, far], startID: "hotel", endID: "hotel",
                timedStops: [
                    TimedStop(id: "near", startMinute: 9 * 60 + 15, endMinute: 10 * 60),
                    TimedStop(id: "far", startMinute: 10 * 60 + 30),
                ], startMinute: 9 * 60))
        #expect(ids(plan) == ["hotel", "near", "far"])
        #expect(plan.schedule.map(\.id) == ["hotel", "near", "far"])
        #expect(plan.schedule[0].departureMinute == 9 * 60)
        #expect(plan.schedule[1].arrivalMinute == 9 * 60 + 15)
        #expect(plan.schedule[1].lateMinutes == 0)
        #expect(plan.schedule[1].departureMinute == 10 * 60)
        // 9 km more is 135 min: arrival 12:15, 105 minutes after 10:30.
        #expect(plan.schedule[2].arrivalMinute == 12 * 60 + 15)
        #expect(plan.schedule[2].lateMinutes == 105)
        #expect(plan.lateStops == ["far"])
        // Back at the hotel: leave "far" after its 30-minute default visit, 10 km = 150 min.
        #expect(plan.endMinute == 12 * 60 + 45 + 150)
    }

    @Test func untimedStopsMoveOutOfTheWayOfALateTimedStop() throws {
        // The cheapest path visits "mid" between the two timed stops, which makes the
        // second one late; the plan puts it after instead.
        let first = place("first", north: 500)
        let second = place("second", north: 1_000)
        let mid = place("mid", north: 750, east: 100)
        let request = DayRouteRequest(
            places: [hotel, first, mid, second], startID: "hotel",
            timedStops: [
                TimedStop(id: "first", startMinute: 9 * 60 + 10), TimedStop(id: "second", startMinute: 9 * 60 + 50),
            ], startMinute: 9 * 60)
        let plan = try DayRoutePlanner.plan(request)
        #expect(plan.lateStops.isEmpty)
        #expect(ids(plan) == ["hotel", "first", "second", "mid"])
        #expect(!plan.route.optimal)
    }

    @Test func aDayWithOnePlace() throws {
        let lone = try DayRoutePlanner.plan(DayRouteRequest(places: [sights[0]], startMinute: 600))
        #expect(ids(lone) == ["a"])
        #expect(lone.route.legs.isEmpty)
        #expect(lone.schedule.first?.arrivalMinute == 600)
        let fromHotel = try DayRoutePlanner.plan(
            DayRouteRequest(places: [hotel, sights[0]], startID: "hotel", endID: "hotel"))
        #expect(ids(fromHotel) == ["hotel", "a"])
        #expect(fromHotel.route.legs.map(\.to) == ["a", "hotel"])
        #expect(fromHotel.route.googleMapsDirections().urls.count == 1)
    }

    @Test func aDayWithoutLodgingHasFreeEnds() throws {
        let plan = try DayRoutePlanner.plan(DayRouteRequest(places: sights))
        #expect(!plan.route.roundTrip)
        #expect(plan.route.legs.count == sights.count - 1)
        let reference = try RoutePlanner.plan(RoutePlanRequest(places: sights))
        #expect(plan.route.totals == reference.totals)
        #expect(plan.schedule.allSatisfy { $0.arrivalMinute == nil })
        #expect(plan.endMinute == nil)
    }

    @Test func badTimesAreRefusedWithTheirReason() {
        let places = [hotel] + sights
        #expect(throws: RouteError.self) {
            try DayRoutePlanner.plan(
                DayRouteRequest(places: places, timedStops: [TimedStop(id: "nowhere", startMinute: 600)]))
        }
        do {
            _ = try DayRoutePlanner.plan(
                DayRouteRequest(places: places, timedStops: [TimedStop(id: "a", startMinute: 600, endMinute: 540)]))
            Issue.record("an end before its start was accepted")
        } catch {
            #expect(error.code == .invalidTime)
            #expect(error.message.contains("\"a\""))
        }
        do {
            _ = try DayRoutePlanner.plan(
                DayRouteRequest(
                    places: places, startID: "hotel", timedStops: [TimedStop(id: "hotel", startMinute: 600)]))
            Issue.record("a timed start was accepted")
        } catch {
            #expect(error.code == .invalidTime)
        }
        #expect(throws: RouteError.self) {
            try DayRoutePlanner.plan(DayRouteRequest(places: places, startMinute: 5_000))
        }
    }

    @Test func wholeTripGeoJSONHasOneFeatureCollectionPerDay() throws {
        let day1 = try DayRoutePlanner.plan(
            DayRouteRequest(places: sights + [hotel], startID: "hotel", endID: "hotel"))
        let day2 = try DayRoutePlanner.plan(DayRouteRequest(places: [sights[0]]))
        let text = RoutePlan.tripGeoJSON(days: [("2027-05-01", day1.route), ("2027-05-02\"", day2.route)])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2027-05-01", "2027-05-02\""])
        for day in days {
            let route = try #require(day["route"] as? [String: Any])
            #expect(route["type"] as? String == "FeatureCollection")
        }
        let features = try #require((days[0]["route"] as? [String: Any])?["features"] as? [[String: Any]])
        #expect(features.count == sights.count + 2)
    }
}
