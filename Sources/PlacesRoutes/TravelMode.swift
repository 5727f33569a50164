/// How the traveller moves between places. Raw values are the JSON spelling.
public enum TravelMode: String, Sendable, Codable, CaseIterable, Hashable {
    /// On foot.
    case walking
    /// By bicycle.
    case cycling
    /// By car.
    case driving

    /// Ratio of network distance to great-circle distance used by the built-in cost model.
    ///
    /// Street networks are not straight lines; typical circuity measured for city street
    /// grids is 1.2–1.4. Pedestrians cut through squares, parks and one-way streets
    /// (1.25); cyclists follow roads but may use paths (1.3); cars are bound to the road
    /// network and one-way systems (1.4).
    public var detourFactor: Double {
        switch self {
        case .walking: 1.25
        case .cycling: 1.3
        case .driving: 1.4
        }
    }

    /// Average door-to-door speed in metres per second used by the built-in cost model.
    ///
    /// Walking 5 km/h, cycling 15 km/h, driving 40 km/h (an urban average that includes
    /// lights and junctions; long rural legs will be overestimated).
    public var speedMetersPerSecond: Double {
        switch self {
        case .walking: 5_000.0 / 3_600.0
        case .cycling: 15_000.0 / 3_600.0
        case .driving: 40_000.0 / 3_600.0
        }
    }

    /// The `travelmode` value Google Maps directions URLs use for this mode.
    public var googleMapsTravelMode: String {
        switch self {
        case .walking: "walking"
        case .cycling: "bicycling"
        case .driving: "driving"
        }
    }
}

/// What a route minimises.
public enum RouteCriterion: String, Sendable, Codable, CaseIterable, Hashable {
    /// Minimise total travel time.
    case duration
    /// Minimise total travel distance.
    case distance
}
