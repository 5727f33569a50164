/// Plans one day of a trip: the day's places between two lodgings, timed stops in time
/// order, untimed ones where they cost least, and an estimated timetable.
///
/// Without timed stops this is ``RoutePlanner`` with the day's ends fixed. With timed
/// stops the order of the timed ones is fixed (by time) and the untimed ones are placed
/// around them (exactly for small days, see ``DaySequence``); a timed stop the order
/// cannot reach in time is listed in ``DayRoutePlan/lateStops``.
public enum DayRoutePlanner {
    /// The latest minute a time may name: the end of the day after (for a night that runs on).
    public static let latestMinute = 2 * 24 * 60 - 1

    /// Plans `request` with the built-in great-circle cost model.
    public static func plan(
        _ request: DayRouteRequest, timeBudget: Duration = RoutePlanner.defaultTimeBudget, seed: UInt64 = 0x5EED_CAFE
    ) throws(RouteError) -> DayRoutePlan {
        try validate(request)
        let matrices = try GreatCircleMatrixProvider().travelMatrices(
            for: request.places.map(\.point), mode: request.mode)
        return try plan(request, matrices: matrices, timeBudget: timeBudget, seed: seed)
    }

    /// Plans `request` with matrices from `provider` (for example an external router).
    public static func plan(
        _ request: DayRouteRequest, provider: some TravelMatrixProvider,
        timeBudget: Duration = RoutePlanner.defaultTimeBudget, seed: UInt64 = 0x5EED_CAFE
    ) async throws(RouteError) -> DayRoutePlan {
        try validate(request)
        let matrices = try await provider.matrices(for: request.places.map(\.point), mode: request.mode)
        return try plan(request, matrices: matrices, timeBudget: timeBudget, seed: seed)
    }

    /// Plans `request` with precomputed matrices (one row per place, in request order).
    public static func plan(
        _ request: DayRouteRequest, matrices: TravelMatrices, timeBudget: Duration = RoutePlanner.defaultTimeBudget,
        seed: UInt64 = 0x5EED_CAFE
    ) throws(RouteError) -> DayRoutePlan {
        try validate(request)
        let places = request.places
        guard matrices.distanceMeters.count == places.count else {
            throw RouteError(
                .providerFailed, "matrices have \(matrices.distanceMeters.count) rows for \(places.count) places")
        }
        let index = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.id, $0) })
        let roundTrip = request.isRoundTrip && places.count > 1
        let start = request.startID.flatMap { index[$0] }
        let end = roundTrip ? nil : request.endID.flatMap { index[$0] }
        // Timed stops by time; the stable sort keeps the request's order for equal times.
        let timed = request.timedStops.enumerated()
            .sorted { ($0.element.startMinute, $0.offset) < ($1.element.startMinute, $1.offset) }
            .compactMap { index[$0.element.id] }
        let order: [Int]
        let optimal: Bool
        if timed.count <= 1 {
            // One timed stop or none constrains nothing: every order keeps it "in order".
            let routeRequest = RoutePlanRequest(
                places: places, mode: request.mode, criterion: request.criterion, roundTrip: roundTrip,
                startID: request.startID, endID: roundTrip ? nil : request.endID)
            let plan = try RoutePlanner.plan(routeRequest, matrices: matrices, timeBudget: timeBudget, seed: seed)
            order = plan.stops.compactMap { index[$0.place.id] }
            optimal = plan.optimal
        } else {
            var sequence = DaySequence(
                cost: matrices.matrix(for: request.criterion), start: start, end: end, roundTrip: roundTrip,
                timed: timed, count: places.count)
            optimal = sequence.solve(timeBudget: timeBudget)
            order = sequence.order
        }
        let timetable = DayTimetable(request: request, places: places, durations: matrices.durationSeconds)
        var finalOrder = order
        var finalOptimal = optimal
        if timed.count >= 1,
            let repaired = timetable.repairLateness(order: order, start: start, end: end, roundTrip: roundTrip)
        {
            // Moving untimed stops after a late timed stop trades travel for punctuality.
            finalOrder = repaired
            finalOptimal = false
        }
        let route = RoutePlanner.makePlan(
            places: places, mode: request.mode, criterion: request.criterion, roundTrip: roundTrip,
            order: finalOrder, matrices: matrices, optimal: finalOptimal)
        let schedule = timetable.schedule(order: finalOrder, roundTrip: roundTrip, ids: places.map(\.id))
        return DayRoutePlan(
            route: route, schedule: schedule.stops, endMinute: schedule.endMinute,
            lateStops: schedule.stops.filter { $0.lateMinutes > 0 }.map(\.id))
    }

    /// Checks everything that does not need the matrices.
    ///
    /// - Throws: what ``RoutePlanner/validate(_:)`` throws, `indexOutOfRange` for a timed
    ///   stop that is not one of the places, `invalidTime` for times out of range, an end
    ///   before its start, a stop timed twice or a timed start/end.
    public static func validate(_ request: DayRouteRequest) throws(RouteError) {
        let places = request.places
        let open = !(request.startID != nil && request.startID == request.endID)
        try RoutePlanner.validate(
            RoutePlanRequest(
                places: places, mode: request.mode, criterion: request.criterion, roundTrip: !open,
                startID: request.startID, endID: open ? request.endID : nil))
        let ids = Set(places.map(\.id))
        if let minute = request.startMinute, !(0...latestMinute).contains(minute) {
            throw RouteError(.invalidTime, "the day's start time \(minute) is outside 0…\(latestMinute) minutes")
        }
        guard (0...24 * 60).contains(request.defaultVisitMinutes) else {
            throw RouteError(.invalidTime, "the default visit of \(request.defaultVisitMinutes) min is outside 0…1440")
        }
        for (id, minutes) in request.visitMinutes where !(0...24 * 60).contains(minutes) {
            throw RouteError(.invalidTime, "the visit of \(minutes) min at \"\(id)\" is outside 0…1440")
        }
        var timedIDs = Set<String>()
        for stop in request.timedStops {
            guard ids.contains(stop.id) else {
                throw RouteError(.indexOutOfRange, "timed stop \"\(stop.id)\" is not one of the places")
            }
            guard timedIDs.insert(stop.id).inserted else {
                throw RouteError(.invalidTime, "stop \"\(stop.id)\" is timed twice; give it one time")
            }
            guard stop.id != request.startID, stop.id != request.endID else {
                throw RouteError(.invalidTime, "stop \"\(stop.id)\" is the day's start or end and cannot be timed")
            }
            guard (0...latestMinute).contains(stop.startMinute) else {
                throw RouteError(
                    .invalidTime, "stop \"\(stop.id)\" starts at minute \(stop.startMinute), outside 0…\(latestMinute)")
            }
            if let endMinute = stop.endMinute, !(stop.startMinute...latestMinute).contains(endMinute) {
                throw RouteError(
                    .invalidTime,
                    "stop \"\(stop.id)\" ends at minute \(endMinute), before its start \(stop.startMinute) or after "
                        + "\(latestMinute)")
            }
        }
    }
}
