import Foundation
import PlacesPlanner
import PlacesRoutes
import Testing

/// The pure planner given what the API never should pass it but a careless caller might:
/// ratings far out of range, positions that are not positions, the poles, the antimeridian,
/// a stay far from everything. It answers, never traps, and says why places are left out.
@Suite struct TripPlannerHostileTests {
    static let monday = [PlanDay(date: "2027-05-03", isoWeekday: 1)]

    static func request(_ candidates: [PlanCandidate], stay: GeoPoint, budget: Int64? = nil) -> TripPlanRequest {
        TripPlanRequest(
            days: monday, dayStart: 9 * 60, dayEnd: 19 * 60, stay: stay, mode: .walking, budget: budget,
            candidates: candidates, iterations: 50, timeBudget: .seconds(10))
    }

    static func visited(_ plan: TripPlan, _ request: TripPlanRequest) -> [String] {
        plan.days.flatMap(\.stops).map { request.candidates[$0.candidate].name }
    }

    @Test("a rating far out of range or not a number scores and reads as 0 to 5, never traps")
    func ratings() {
        let stay = GeoPoint(latitude: 38.71, longitude: -9.14)
        let ratings: [Double] = [1e300, .infinity, -1e300, .nan, 4.96, .greatestFiniteMagnitude]
        let candidates = ratings.enumerated().map { i, r in
            PlanCandidate(
                id: "r\(i)", name: "Place \(i)", point: GeoPoint(latitude: 38.71 + Double(i) * 0.001, longitude: -9.14),
                signals: PlanSignals(mine: true, rating: r))
        }
        let request = Self.request(candidates, stay: stay)
        let plan = TripPlanner.plan(request)
        let reasons = plan.days.flatMap(\.stops).flatMap(\.reasons)
        #expect(Self.visited(plan, request).count == ratings.count, "all six fit in a day")
        #expect(reasons.filter { $0.hasPrefix("rated") }.allSatisfy { $0 == "rated 5" }, "\(reasons)")
        #expect(reasons.contains("rated 5"))
    }

    @Test("a position that is not one is a place without a location, not a trap")
    func badPositions() {
        let stay = GeoPoint(latitude: 38.71, longitude: -9.14)
        let bad = [
            GeoPoint(latitude: .nan, longitude: 0), GeoPoint(latitude: 0, longitude: .infinity),
            GeoPoint(latitude: 91, longitude: 0), GeoPoint(latitude: 0, longitude: -181),
        ]
        var candidates = bad.enumerated().map { i, p in PlanCandidate(id: "bad\(i)", name: "Bad \(i)", point: p) }
        candidates.append(PlanCandidate(id: "good", name: "Good", point: GeoPoint(latitude: 38.711, longitude: -9.14)))
        let request = Self.request(candidates, stay: stay)
        let plan = TripPlanner.plan(request)
        #expect(Self.visited(plan, request) == ["Good"])
        #expect(plan.leftOut.count == bad.count && plan.leftOut.allSatisfy { $0.reason == "has no location" })
        #expect(plan.days.allSatisfy { $0.distanceMeters.isFinite && $0.travelMinutes >= 0 })
    }

    @Test("at the pole and across the antimeridian, near places are near; a stay far from all plans nothing")
    func edgesOfTheMap() {
        let pole = GeoPoint(latitude: 90, longitude: 0)
        let atPole = [
            PlanCandidate(id: "a", name: "Pole marker", point: GeoPoint(latitude: 90, longitude: 135)),
            PlanCandidate(id: "b", name: "Pole camp", point: GeoPoint(latitude: 89.995, longitude: -45)),
        ]
        let poleRequest = Self.request(atPole, stay: pole)
        #expect(Set(Self.visited(TripPlanner.plan(poleRequest), poleRequest)) == ["Pole marker", "Pole camp"])

        let fiji = GeoPoint(latitude: -16.8, longitude: 179.999)
        let across = [
            PlanCandidate(id: "c", name: "Across the line", point: GeoPoint(latitude: -16.8, longitude: -179.999))
        ]
        let acrossRequest = Self.request(across, stay: fiji)
        let acrossPlan = TripPlanner.plan(acrossRequest)
        #expect(Self.visited(acrossPlan, acrossRequest) == ["Across the line"])
        #expect((acrossPlan.days.first?.travelMinutes ?? .max) < 10, "200 m apart, not 40,000 km")

        let far = Self.request(atPole + across, stay: GeoPoint(latitude: 0, longitude: 0))
        let farPlan = TripPlanner.plan(far)
        #expect(farPlan.days.allSatisfy { $0.stops.isEmpty })
        #expect(farPlan.leftOut.count == 3 && farPlan.leftOut.allSatisfy { $0.reason.hasPrefix("too far") })
    }
}
