/// Distance and duration matrices between the same points for one travel mode.
public struct TravelMatrices: Sendable, Equatable {
    /// Network distance in metres, `distanceMeters[i, j]` from point `i` to point `j`.
    public var distanceMeters: CostMatrix
    /// Travel time in seconds, `durationSeconds[i, j]` from point `i` to point `j`.
    public var durationSeconds: CostMatrix

    /// Pairs two matrices of the same size.
    ///
    /// - Throws: ``RouteError/Code/providerFailed`` when the sizes differ.
    public init(distanceMeters: CostMatrix, durationSeconds: CostMatrix) throws(RouteError) {
        guard distanceMeters.count == durationSeconds.count else {
            throw RouteError(
                .providerFailed,
                "distance matrix has \(distanceMeters.count) rows but duration matrix has \(durationSeconds.count)")
        }
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
    }

    /// The matrix a route minimises for `criterion`.
    public func matrix(for criterion: RouteCriterion) -> CostMatrix {
        switch criterion {
        case .distance: distanceMeters
        case .duration: durationSeconds
        }
    }
}

/// Source of travel matrices: the seam for an external router (an OSRM or Valhalla
/// server a user runs). ``GreatCircleMatrixProvider`` is the built-in model.
///
/// Implementations must return matrices with one row per point, in the given order.
public protocol TravelMatrixProvider: Sendable {
    /// Distance and duration matrices between `points` for `mode`.
    func matrices(for points: [GeoPoint], mode: TravelMode) async throws(RouteError) -> TravelMatrices
}

/// The built-in cost model: great-circle (haversine) distance × the mode's
/// ``TravelMode/detourFactor``; duration = that distance ÷ ``TravelMode/speedMetersPerSecond``.
/// Symmetric, and pure (no I/O), so it also has a synchronous entry point.
public struct GreatCircleMatrixProvider: TravelMatrixProvider {
    /// Creates the provider.
    public init() {}

    /// Distance and duration matrices between `points` for `mode` (synchronous form).
    ///
    /// - Throws: `invalidCoordinate` for a bad point, `tooManyNodes` beyond
    ///   ``CostMatrix/maximumCount`` points.
    public func travelMatrices(for points: [GeoPoint], mode: TravelMode) throws(RouteError) -> TravelMatrices {
        guard points.count <= CostMatrix.maximumCount else {
            throw RouteError(.tooManyNodes, "at most \(CostMatrix.maximumCount) points, got \(points.count)")
        }
        for (index, point) in points.enumerated() { try point.validate(label: "point \(index)") }
        let n = points.count
        var distance = [Double](repeating: 0, count: n * n)
        var duration = [Double](repeating: 0, count: n * n)
        let detour = mode.detourFactor
        let speed = mode.speedMetersPerSecond
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                let meters = points[i].greatCircleDistanceMeters(to: points[j]) * detour
                distance[i * n + j] = meters
                distance[j * n + i] = meters
                duration[i * n + j] = meters / speed
                duration[j * n + i] = meters / speed
            }
        }
        return try TravelMatrices(
            distanceMeters: CostMatrix(count: n, values: distance),
            durationSeconds: CostMatrix(count: n, values: duration))
    }

    /// Distance and duration matrices between `points` for `mode`.
    public func matrices(for points: [GeoPoint], mode: TravelMode) async throws(RouteError) -> TravelMatrices {
        try travelMatrices(for: points, mode: mode)
    }
}
