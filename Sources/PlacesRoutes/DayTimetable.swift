/// Estimated times along a day's order, and the repair that moves untimed stops out of
/// the way of a timed stop that would be reached late.
///
/// Clock rules: the traveller leaves the start at the day's start time (or, without one,
/// arrives at the first timed stop exactly on time, and nothing before it has a time);
/// at a timed stop they wait for its start and leave at its end (or after the default
/// visit when it has none); at an untimed stop they stay its visit minutes.
struct DayTimetable {
    private let startMinute: Int?
    private let fixedStart: [Int?]
    private let fixedEnd: [Int?]
    private let visitSeconds: [Double]
    private let durations: CostMatrix
    private let hasStart: Bool
    private let hasEnd: Bool

    /// Largest day the lateness repair runs on (each round is cubic in the stop count).
    static let repairLimit = 40

    init(request: DayRouteRequest, places: [RoutePlace], durations: CostMatrix) {
        startMinute = request.startMinute
        hasStart = request.startID != nil
        hasEnd = request.endID != nil && !request.isRoundTrip
        let index = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.id, $0) })
        var starts = [Int?](repeating: nil, count: places.count)
        var ends = [Int?](repeating: nil, count: places.count)
        for stop in request.timedStops {
            guard let node = index[stop.id] else { continue }
            starts[node] = stop.startMinute
            ends[node] = stop.endMinute
        }
        fixedStart = starts
        fixedEnd = ends
        visitSeconds = places.map { Double(request.visitMinutes[$0.id] ?? request.defaultVisitMinutes) * 60 }
        self.durations = durations
    }

    struct Result {
        var stops: [ScheduledStop]
        var endMinute: Int?
        var lateSeconds: Double
    }

    /// The timetable for `order` (every node once; a round trip's return is implicit).
    func schedule(order: [Int], roundTrip: Bool, ids: [String] = []) -> Result {
        var stops: [ScheduledStop] = []
        stops.reserveCapacity(order.count)
        var clock: Double? = nil
        var late = 0.0
        var endMinute: Int? = nil
        for (position, node) in order.enumerated() {
            let id = node < ids.count ? ids[node] : ""
            let isLodgingStart = position == 0 && hasStart
            var arrival: Double?
            if position == 0 {
                arrival = isLodgingStart ? nil : startMinute.map { Double($0) * 60 }
                if isLodgingStart { clock = startMinute.map { Double($0) * 60 } }
            } else if let clock {
                arrival = clock + durations[order[position - 1], node]
            }
            if arrival == nil, !isLodgingStart, let fixed = fixedStart[node] {
                arrival = Double(fixed) * 60  // no day start: assume the first timed stop is on time
            }
            var departure: Double? = isLodgingStart ? clock : nil
            var lateMinutes = 0
            let isLodgingEnd = hasEnd && position == order.count - 1 && position > 0
            if isLodgingEnd {
                departure = nil
            } else if let time = arrival {
                if let fixed = fixedStart[node] {
                    let fixedSeconds = Double(fixed) * 60
                    late += max(0, time - fixedSeconds)
                    lateMinutes = max(0, Self.minutes(time) - fixed)
                    let begin = max(time, fixedSeconds)
                    departure = fixedEnd[node].map { max(begin, Double($0) * 60) } ?? begin + visitSeconds[node]
                } else {
                    departure = time + visitSeconds[node]
                }
            }
            clock = isLodgingEnd ? clock : departure
            stops.append(
                ScheduledStop(
                    id: id, arrivalMinute: arrival.map(Self.minutes), departureMinute: departure.map(Self.minutes),
                    fixedMinute: fixedStart[node], lateMinutes: lateMinutes))
        }
        if roundTrip, order.count > 1, let last = order.last, let first = order.first, let clock {
            endMinute = Self.minutes(clock + durations[last, first])
        } else if let last = stops.last {
            endMinute = hasEnd ? last.arrivalMinute : (last.departureMinute ?? last.arrivalMinute)
        }
        return Result(stops: stops, endMinute: endMinute, lateSeconds: late)
    }

    /// Moves untimed stops from before a late timed stop to their cheapest place after it
    /// while that lowers the total lateness; `nil` when nothing is late or nothing helps.
    func repairLateness(order: [Int], start: Int?, end: Int?, roundTrip: Bool) -> [Int]? {
        guard order.count <= Self.repairLimit else { return nil }
        let lo = start == nil ? 0 : 1
        let hi = order.count - 1 - (end == nil ? 0 : 1)
        guard lo < hi else { return nil }
        var current = order
        var currentLate = schedule(order: current, roundTrip: roundTrip).lateSeconds
        var changed = false
        for _ in 0..<10 where currentLate > 0 {
            var bestOrder: [Int]? = nil
            var bestLate = currentLate
            var bestTravel = Double.infinity
            for from in lo...hi where fixedStart[current[from]] == nil {
                var rest = current
                let node = rest.remove(at: from)
                for to in lo...hi where to != from {
                    var candidate = rest
                    candidate.insert(node, at: to)
                    let candidateLate = schedule(order: candidate, roundTrip: roundTrip).lateSeconds
                    if candidateLate > bestLate { continue }
                    let travel = self.travel(candidate, roundTrip: roundTrip)
                    if candidateLate < bestLate || (candidateLate == bestLate && travel < bestTravel) {
                        bestOrder = candidate
                        bestLate = candidateLate
                        bestTravel = travel
                    }
                }
            }
            guard let bestOrder, bestLate < currentLate else { break }
            current = bestOrder
            currentLate = bestLate
            changed = true
        }
        return changed ? current : nil
    }

    private func travel(_ order: [Int], roundTrip: Bool) -> Double {
        var total = 0.0
        for (a, b) in zip(order, order.dropFirst()) { total += durations[a, b] }
        if roundTrip, let first = order.first, let last = order.last { total += durations[last, first] }
        return total
    }

    /// Seconds to whole minutes (rounded), clamped so hostile matrices cannot trap.
    static func minutes(_ seconds: Double) -> Int {
        let value = (seconds / 60).rounded()
        guard value.isFinite else { return value > 0 ? 1_000_000_000 : 0 }
        return Int(min(max(value, -1_000_000_000), 1_000_000_000))
    }
}
