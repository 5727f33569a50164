import Foundation
import PlacesPlanner
import PlacesRoutes
import Testing

/// Suggested trips as a user checks them: every stop open for the whole visit, the day inside
/// its hours and back at the stay, the budget kept, musts and booked items honoured, the same
/// plan for the same inputs, and good places left out with a reason that is true.
@Suite struct TripPlannerTests {
    static let stay = GeoPoint(latitude: 38.7139, longitude: -9.1394)
    static let hours = [
        "Mo-Su 10:00-18:00", "Tu-Su 10:00-18:00; Mo off", "Mo-Fr 09:00-13:00,14:30-19:00", "24/7",
        "We-Mo 12:00-15:00,19:00-23:00", "Sa,Su 11:00-17:00", "by appointment",
    ]
    static let categories = [["museum"], ["food"], ["view"], ["park"], ["food", "bar"], ["church"]]

    /// 60 places within ~3 km of the stay, made from a seed.
    static func lisbon(seed: UInt64 = 7) -> [PlanCandidate] {
        var random = SplitMix64(seed: seed)
        return (0..<60).map { i in
            let lat = stay.latitude + (Double(random.next() % 5_000) - 2_500) / 100_000
            let lon = stay.longitude + (Double(random.next() % 6_000) - 3_000) / 100_000
            let hours = Int(random.next() % 8)
            let price = Int(random.next() % 5)
            return PlanCandidate(
                id: String(format: "%032x", i + 1), name: "Place \(i)", point: GeoPoint(latitude: lat, longitude: lon),
                categories: categories[i % categories.count],
                hours: hours < Self.hours.count ? OpeningHours(Self.hours[hours]) : nil,
                visitMinutes: i % 3 == 0 ? 30 + i : nil, cost: price == 0 ? .unknown : .price(Int64(price) * 700),
                signals: PlanSignals(
                    mine: true, favorite: i % 7 == 0, savedBy: i % 5 == 0 ? ["Bruno"] : [],
                    rating: i % 4 == 0 ? 4.5 : nil))
        }
    }

    /// 2027-05-01 is a Saturday.
    static let weekend = [
        PlanDay(date: "2027-05-01", isoWeekday: 6), PlanDay(date: "2027-05-02", isoWeekday: 7),
        PlanDay(date: "2027-05-03", isoWeekday: 1),
    ]

    static func request(
        _ candidates: [PlanCandidate], days: [PlanDay] = weekend, budget: Int64? = 15_000,
        interests: [String: Int] = ["food": 1, "museum": 1]
    ) -> TripPlanRequest {
        TripPlanRequest(
            days: days, dayStart: 9 * 60 + 30, dayEnd: 19 * 60, stay: stay, mode: .walking, budget: budget,
            interests: interests, pace: .normal, candidates: candidates, iterations: 200, timeBudget: .seconds(20))
    }

    /// Whether [start, end) lies inside one open range of that weekday (yesterday's past
    /// midnight counted).
    static func open(_ hours: OpeningHours, weekday: Int, _ start: Int, _ end: Int) -> Bool {
        let yesterday = weekday == 1 ? 7 : weekday - 1
        var ranges = hours.ranges(isoWeekday: weekday) ?? []
        ranges += (hours.ranges(isoWeekday: yesterday) ?? []).filter { $0.upperBound > 1_440 }.map {
            0..<($0.upperBound - 1_440)
        }
        return ranges.contains { $0.lowerBound <= start && end <= $0.upperBound }
    }

    @Test func everyStopIsOpenForTheWholeVisitAndTheDaysFitTheirHours() {
        let candidates = Self.lisbon()
        let request = Self.request(candidates)
        let plan = TripPlanner.plan(request)
        var seen = Set<Int>()
        var total: Int64 = 0
        #expect(plan.days.count == 3)
        #expect(plan.days.contains { !$0.stops.isEmpty }, "a plan of 60 places visits some")
        for (d, day) in plan.days.enumerated() {
            var clock = request.dayStart
            for stop in day.stops {
                let c = candidates[stop.candidate]
                #expect(seen.insert(stop.candidate).inserted, "\(c.name) is visited once")
                #expect(stop.arrive >= clock + stop.travelMinutesBefore - 1, "\(c.name) is reached after the walk")
                #expect(stop.leave > stop.arrive)
                if let hours = c.hours, hours.isKnown {
                    #expect(
                        Self.open(hours, weekday: Self.weekend[d].isoWeekday, stop.arrive, stop.leave),
                        "\(c.name) (\(hours.text)) is open \(stop.arrive)–\(stop.leave) on \(day.date)")
                } else {
                    #expect(stop.reasons.contains { $0.contains("assumed open") })
                }
                if PlanScoring.isFood(c.categories) {
                    #expect((12 * 60...14 * 60 + 30).contains(stop.arrive), "a meal is a lunch near midday")
                }
                #expect(!stop.reasons.isEmpty, "every stop says why")
                clock = stop.leave
                total += c.cost.minor
            }
            #expect(day.backAt <= request.dayEnd, "back at the stay by the end of \(day.date)")
        }
        #expect(total == plan.cost)
        #expect(plan.cost <= 15_000, "the budget is never exceeded")
        for left in plan.leftOut {
            #expect(!seen.contains(left.candidate))
            #expect(!left.reason.isEmpty)
        }
    }

    @Test func theSameInputsGiveTheSamePlan() {
        let request = Self.request(Self.lisbon(seed: 11))
        #expect(TripPlanner.plan(request) == TripPlanner.plan(request))
    }

    @Test func aTightBudgetIsKeptAndSaysOverBudget() {
        var candidates = Self.lisbon()
        for i in candidates.indices { candidates[i].cost = .price(2_000) }
        let plan = TripPlanner.plan(Self.request(candidates, budget: 5_000))
        #expect(plan.cost <= 5_000)
        #expect(plan.days.reduce(0) { $0 + $1.stops.count } == 2, "two 20.00 visits fit in 50.00")
        #expect(plan.leftOut.contains { $0.reason == "over budget" })
    }

    @Test func mustsAndBookedItemsAreKept() {
        var candidates = Self.lisbon()
        // An unremarkable place the user insists on, and a ticket booked for Sunday at 15:00.
        candidates[1].must = true
        candidates[1].signals = PlanSignals()
        candidates.append(
            PlanCandidate(
                id: "ticket", name: "Oceanário ticket", point: GeoPoint(latitude: 38.7635, longitude: -9.0937),
                fixed: FixedVisit(day: 1, startMinute: 15 * 60, minutes: 90)))
        let plan = TripPlanner.plan(Self.request(candidates))
        let visited = plan.days.flatMap { $0.stops.map(\.candidate) }
        #expect(visited.contains(1), "the must is planned")
        let ticket = plan.days[1].stops.first { candidates[$0.candidate].id == "ticket" }
        #expect(ticket?.arrive == 15 * 60 && ticket?.leave == 16 * 60 + 30, "the booked item stays at its time")
        #expect(!plan.days[0].stops.contains { candidates[$0.candidate].id == "ticket" })
    }

    @Test func placesLeftOutSayWhy() {
        let museum = PlanCandidate(
            id: "a", name: "Museum closed on Mondays", point: GeoPoint(latitude: 38.715, longitude: -9.14),
            categories: ["museum"], hours: OpeningHours("Tu-Su 10:00-18:00; Mo off"),
            signals: PlanSignals(favorite: true))
        let far = PlanCandidate(
            id: "b", name: "Sintra", point: GeoPoint(latitude: 38.7876, longitude: -9.3906),
            signals: PlanSignals(favorite: true))
        let monday = [PlanDay(date: "2027-05-03", isoWeekday: 1)]
        let plan = TripPlanner.plan(Self.request([museum, far], days: monday, budget: nil, interests: [:]))
        #expect(plan.days[0].stops.isEmpty)
        let reasons = Dictionary(uniqueKeysWithValues: plan.leftOut.map { ($0.candidate, $0.reason) })
        #expect(reasons[0] == "closed on Mondays")
        #expect(reasons[1] == "too far for walking from your stay")
    }

    @Test func noCandidatesIsAnEmptyPlanNotAnError() {
        let plan = TripPlanner.plan(Self.request([]))
        #expect(plan.days.count == 3 && plan.days.allSatisfy(\.stops.isEmpty) && plan.leftOut.isEmpty)
    }
}
