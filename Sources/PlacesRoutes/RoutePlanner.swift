import Foundation

/// Plans routes through named places: validates, builds the travel matrices, solves,
/// and returns stops, legs and totals.
public enum RoutePlanner {
    /// The largest number of places a request may have.
    ///
    /// An itinerary with more than 500 places is not a day's route; 500 places still
    /// solve to within a fraction of a percent in the default budget.
    public static let maximumPlaces = 500

    /// Default search budget for plans: interactive, and far more than itineraries need
    /// (30 places converge in a few milliseconds).
    public static let defaultTimeBudget: Duration = .milliseconds(500)

    /// Plans `request` with the built-in great-circle cost model.
    public static func plan(
        _ request: RoutePlanRequest, timeBudget: Duration = defaultTimeBudget, seed: UInt64 = 0x5EED_CAFE
    ) throws(RouteError) -> RoutePlan {
        try validate(request)
        let matrices = try GreatCircleMatrixProvider().travelMatrices(
            for: request.places.map(\.point), mode: request.mode)
        return try plan(request, matrices: matrices, timeBudget: timeBudget, seed: seed)
    }

    /// Plans `request` with matrices from `provider` (for example an external router).
    public static func plan(
        _ request: RoutePlanRequest, provider: some TravelMatrixProvider, timeBudget: Duration = defaultTimeBudget,
        seed: UInt64 = 0x5EED_CAFE
    ) async throws(RouteError) -> RoutePlan {
        try validate(request)
        let matrices = try await provider.matrices(for: request.places.map(\.point), mode: request.mode)
        return try plan(request, matrices: matrices, timeBudget: timeBudget, seed: seed)
    }

    /// Plans `request` with precomputed matrices (one row per place, in request order).
    public static func plan(
        _ request: RoutePlanRequest, matrices: TravelMatrices, timeBudget: Duration = defaultTimeBudget,
        seed: UInt64 = 0x5EED_CAFE
    ) throws(RouteError) -> RoutePlan {
        try validate(request)
        let places = request.places
        guard matrices.distanceMeters.count == places.count else {
            throw RouteError(
                .providerFailed, "matrices have \(matrices.distanceMeters.count) rows for \(places.count) places")
        }
        let indexByID = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($1.id, $0) })
        let options = SolveOptions(
            roundTrip: request.roundTrip, start: request.startID.flatMap { indexByID[$0] },
            end: request.endID.flatMap { indexByID[$0] }, timeBudget: timeBudget, seed: seed)
        let solution = try RouteSolver.solve(matrices.matrix(for: request.criterion), options: options)
        return makePlan(
            places: places, mode: request.mode, criterion: request.criterion, roundTrip: request.roundTrip,
            order: solution.order, matrices: matrices, optimal: solution.optimal)
    }

    /// Stops, legs and totals for `order` (indices into `places` and the matrices).
    static func makePlan(
        places: [RoutePlace], mode: TravelMode, criterion: RouteCriterion, roundTrip: Bool, order: [Int],
        matrices: TravelMatrices, optimal: Bool
    ) -> RoutePlan {
        let stops = order.enumerated().map { RouteStop(order: $0 + 1, place: places[$1]) }
        var legIndices = zip(order, order.dropFirst()).map { ($0, $1) }
        if roundTrip, order.count > 1, let first = order.first, let last = order.last {
            legIndices.append((last, first))
        }
        let legs = legIndices.map { from, to in
            RouteLeg(
                from: places[from].id, to: places[to].id,
                distanceMeters: roundedToTenth(matrices.distanceMeters[from, to]),
                durationSeconds: roundedToTenth(matrices.durationSeconds[from, to]))
        }
        let totals = RouteTotals(
            distanceMeters: roundedToTenth(legs.reduce(0) { $0 + $1.distanceMeters }),
            durationSeconds: roundedToTenth(legs.reduce(0) { $0 + $1.durationSeconds }))
        return RoutePlan(
            mode: mode, criterion: criterion, roundTrip: roundTrip, stops: stops, legs: legs, totals: totals,
            optimal: optimal)
    }

    /// Checks everything that does not need the matrices.
    ///
    /// - Throws: `tooManyNodes`, `duplicatePlaceID`, `invalidCoordinate`, `indexOutOfRange`
    ///   (unknown start or end id), `invalidEndpoints`.
    public static func validate(_ request: RoutePlanRequest) throws(RouteError) {
        let places = request.places
        guard places.count <= maximumPlaces else {
            throw RouteError(
                .tooManyNodes, "a route may have at most \(maximumPlaces) places, got \(places.count); split the trip")
        }
        var seen = Set<String>()
        for place in places {
            guard seen.insert(place.id).inserted else {
                throw RouteError(.duplicatePlaceID, "place id \"\(place.id)\" appears twice; list each place once")
            }
            try place.point.validate(label: "place \"\(place.id)\"")
        }
        if let startID = request.startID, !seen.contains(startID) {
            throw RouteError(.indexOutOfRange, "start place \"\(startID)\" is not one of the places")
        }
        if let endID = request.endID, !seen.contains(endID) {
            throw RouteError(.indexOutOfRange, "end place \"\(endID)\" is not one of the places")
        }
        if !request.roundTrip, places.count > 1, let startID = request.startID, startID == request.endID {
            throw RouteError(
                .invalidEndpoints, "start and end are both \"\(startID)\" on an open path; use roundTrip instead")
        }
    }

    private static func roundedToTenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
