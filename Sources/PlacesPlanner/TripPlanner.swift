import PlacesRoutes

/// Suggested trips (issue 31): candidates scored from the user's signals, each day a route
/// from the stay and back within the day's hours, every visit inside one of the place's open
/// ranges that day, within the budget; solved as a team orienteering problem with time
/// windows (`OrienteeringSolver`), one route per day. Pure and deterministic for the same
/// request (the solver runs a fixed number of rounds; `timeBudget` only caps them).
public enum TripPlanner {
    /// Reasons a place is not a node of the problem at all, found before solving.
    enum Exclusion {
        case closed(String)
        case tooFar
        case unpriced(String)
        case overBudget
        case noLocation
    }

    /// The plan for `request`.
    public static func plan(_ request: TripPlanRequest) -> TripPlan {
        let candidates = request.candidates
        let dayLength = Double(request.dayEnd - request.dayStart)
        let scored = candidates.map { PlanScoring.score($0, interests: request.interests) }
        let wantsFood = request.interests.keys.contains { PlanScoring.foodCategories.contains($0) }

        // Points: the stay, then every candidate (one without a location stands at the stay).
        let points = [request.stay] + candidates.map { $0.point ?? request.stay }
        let matrices = try? GreatCircleMatrixProvider().travelMatrices(for: points, mode: request.mode)
        let n = points.count
        let minutes =
            matrices.map { $0.durationSeconds.values.map { ($0 / 60).rounded(.up) } }
            ?? [Double](repeating: 0, count: n * n)
        let meters = matrices?.distanceMeters.values ?? [Double](repeating: 0, count: n * n)
        func travel(_ a: Int, _ b: Int) -> Double { minutes[a * n + b] }

        var nodes = [OrienteeringProblem.Node]()
        var nodeCandidate = [Int]()
        var excluded = [Int: Exclusion]()
        var services = [Double](repeating: 0, count: candidates.count)
        for (i, c) in candidates.enumerated() {
            let service = serviceMinutes(c, pace: request.pace)
            services[i] = service
            if c.fixed == nil, c.point == nil {
                excluded[i] = .noLocation
                continue
            }
            if c.fixed == nil, travel(0, i + 1) + service + travel(i + 1, 0) > dayLength {
                excluded[i] = .tooFar
                continue
            }
            if let budget = request.budget, c.fixed == nil {
                if case .unconvertible(let why) = c.cost {
                    excluded[i] = .unpriced(why)
                    continue
                }
                if c.cost.minor > budget {
                    excluded[i] = .overBudget
                    continue
                }
            }
            let lunch = wantsFood && c.fixed == nil && PlanScoring.isFood(c.categories)
            let windows = request.days.indices.map { d in
                window(c, day: d, request: request, service: service, lunch: lunch)
            }
            guard windows.contains(where: { $0 != nil }) else {
                excluded[i] = .closed(closedReason(c, request: request, service: service))
                continue
            }
            nodes.append(
                OrienteeringProblem.Node(
                    service: service, score: scored[i].score, cost: c.fixed == nil ? Double(c.cost.minor) : 0,
                    windows: windows))
            nodeCandidate.append(i)
        }

        // The problem's travel matrix: the depot, then the nodes in order.
        let size = nodes.count + 1
        var matrix = [Double](repeating: 0, count: size * size)
        let pointIndex = [0] + nodeCandidate.map { $0 + 1 }
        for a in 0..<size {
            for b in 0..<size { matrix[a * size + b] = travel(pointIndex[a], pointIndex[b]) }
        }
        let routes = request.days.map { _ in
            OrienteeringProblem.Route(open: Double(request.dayStart), close: Double(request.dayEnd))
        }
        var solution: OrienteeringSolution?
        if !nodes.isEmpty,
            let problem = try? OrienteeringProblem(
                routes: routes, nodes: nodes, travel: matrix, budget: request.budget.map(Double.init))
        {
            solution = OrienteeringSolver.solve(
                problem,
                options: OrienteeringOptions(
                    seed: 31, timeBudget: request.timeBudget, maxIterations: max(1, request.iterations)))
        }

        var planned = Set<Int>()
        var days = [TripPlan.Day]()
        var totalCost: Int64 = 0
        var totalScore = 0.0
        for (d, day) in request.days.enumerated() {
            let visits =
                solution.map { d < $0.routes.count ? zip($0.routes[d], $0.starts[d]).map { ($0, $1) } : [] }
                ?? []
            var stops = [TripPlan.Stop]()
            var previous = 0
            var clock = Double(request.dayStart)
            var travelled = 0.0
            var distance = 0.0
            var cost: Int64 = 0
            for (node, start) in visits {
                let c = nodeCandidate[node]
                let point = c + 1
                let leg = travel(previous, point)
                travelled += leg
                distance += meters[previous * n + point]
                clock = max(clock + leg, start)
                let leave = clock + services[c]
                var reasons = scored[c].reasons
                if candidates[c].fixed == nil {
                    if candidates[c].hours == nil || candidates[c].hours?.isKnown == false {
                        reasons.append("no opening hours known: assumed open during the day")
                    }
                    if wantsFood, PlanScoring.isFood(candidates[c].categories) { reasons.append("lunch") }
                    switch candidates[c].cost {
                    case .estimate: reasons.append("price estimated from its price level")
                    case .unknown where request.budget != nil: reasons.append("no price known: counted as free")
                    default: break
                    }
                    cost += candidates[c].cost.minor
                }
                stops.append(
                    TripPlan.Stop(
                        candidate: c, arrive: Int(clock.rounded()), leave: Int(leave.rounded()),
                        travelMinutesBefore: Int(leg), reasons: reasons))
                planned.insert(c)
                totalScore += scored[c].score
                clock = leave
                previous = point
            }
            let back = stops.isEmpty ? 0 : travel(previous, 0)
            travelled += back
            distance += stops.isEmpty ? 0 : meters[previous * n]
            totalCost += cost
            days.append(
                TripPlan.Day(
                    date: day.date, stops: stops, travelMinutes: Int(travelled), distanceMeters: distance, cost: cost,
                    backAt: Int((clock + back).rounded())))
        }

        let left = leftOut(
            request, scored: scored, planned: planned, excluded: excluded, spent: totalCost)
        return TripPlan(days: days, score: totalScore, cost: totalCost, leftOut: left)
    }

    /// Minutes a visit takes at the request's pace.
    static func serviceMinutes(_ c: PlanCandidate, pace: PlanPace) -> Double {
        if let fixed = c.fixed { return Double(fixed.minutes) }
        let base = Double(c.visitMinutes ?? PlanScoring.defaultVisitMinutes(c.categories))
        return (base * pace.visitFactor).rounded() + pace.slackMinutes
    }

    /// The lunch window: a meal starts between 12:00 and 14:30.
    static let lunch = (open: 12 * 60, close: 14 * 60 + 30)

    /// When the visit may start on day `d` (nil: not that day): inside the day, inside the one
    /// open range of that weekday that leaves the longest choice, the whole visit inside it.
    static func window(
        _ c: PlanCandidate, day d: Int, request: TripPlanRequest, service: Double, lunch wantsLunch: Bool
    )
        -> TimeWindow?
    {
        if let fixed = c.fixed {
            guard fixed.day == d else { return nil }
            return TimeWindow(open: Double(fixed.startMinute), close: Double(fixed.startMinute))
        }
        if let only = c.onlyDay, only != d { return nil }
        let dayStart = Double(request.dayStart)
        let dayEnd = Double(request.dayEnd)
        var ranges: [Range<Double>] = [dayStart..<dayEnd]
        if let hours = c.hours, hours.isKnown {
            let weekday = request.days[d].isoWeekday
            let yesterday = weekday == 1 ? 7 : weekday - 1
            var open = (hours.ranges(isoWeekday: weekday) ?? []).map { Double($0.lowerBound)..<Double($0.upperBound) }
            for r in hours.ranges(isoWeekday: yesterday) ?? [] where r.upperBound > 1_440 {
                open.append(0..<Double(r.upperBound - 1_440))
            }
            ranges = open
        }
        var best: TimeWindow?
        for r in ranges {
            var open = max(r.lowerBound, dayStart)
            var close = min(r.upperBound, dayEnd) - service
            if wantsLunch {
                open = max(open, Double(lunch.open))
                close = min(close, Double(lunch.close))
            }
            guard close >= open else { continue }
            if best.map({ close - open > $0.close - $0.open }) ?? true { best = TimeWindow(open: open, close: close) }
        }
        return best
    }

    /// Why a place no day of the trip can take.
    static func closedReason(_ c: PlanCandidate, request: TripPlanRequest, service: Double) -> String {
        if let hours = c.hours, hours.isKnown {
            let phrases = request.days.compactMap { hours.closedPhrase(isoWeekday: $0.isoWeekday) }
            if phrases.count == request.days.count {
                var seen = Set<String>()
                return phrases.filter { seen.insert($0).inserted }.joined(separator: ", ")
            }
            return "not open long enough for a \(Int(service))-minute visit on your days"
        }
        if c.onlyDay != nil { return "does not fit on its day" }
        return "not open long enough within your days"
    }
}
