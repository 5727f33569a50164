/// A place to route through: the subset of an itinerary place the solver needs.
public struct RoutePlace: Sendable, Codable, Hashable {
    /// Stable id (the itinerary place id); unique within a request.
    public var id: String
    /// Display name used in exports and pictures.
    public var name: String
    /// Latitude in decimal degrees.
    public var latitude: Double
    /// Longitude in decimal degrees.
    public var longitude: Double

    /// Creates a place.
    public init(id: String, name: String, latitude: Double, longitude: Double) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The place's position.
    public var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}

/// What to plan: places, how to travel, what to minimise and which ends are fixed.
public struct RoutePlanRequest: Sendable, Codable, Equatable {
    /// Places to visit, each exactly once (at most ``RoutePlanner/maximumPlaces``).
    public var places: [RoutePlace]
    /// How the traveller moves.
    public var mode: TravelMode
    /// What the order minimises.
    public var criterion: RouteCriterion
    /// Return to the first stop at the end (the closing leg is included in the totals).
    public var roundTrip: Bool
    /// Id of the place the route must start at, if any.
    public var startID: String?
    /// Id of the place the route must end at, if any (on a round trip: the last stop
    /// before returning).
    public var endID: String?

    /// Creates a request; by default an open walking path minimising duration with free ends.
    public init(
        places: [RoutePlace], mode: TravelMode = .walking, criterion: RouteCriterion = .duration,
        roundTrip: Bool = false, startID: String? = nil, endID: String? = nil
    ) {
        self.places = places
        self.mode = mode
        self.criterion = criterion
        self.roundTrip = roundTrip
        self.startID = startID
        self.endID = endID
    }
}

/// One stop of a planned route.
public struct RouteStop: Sendable, Codable, Hashable {
    /// Position in the visiting order, starting at 1.
    public var order: Int
    /// The place visited.
    public var place: RoutePlace

    /// Creates a stop.
    public init(order: Int, place: RoutePlace) {
        self.order = order
        self.place = place
    }
}

/// Travel between two consecutive stops.
public struct RouteLeg: Sendable, Codable, Hashable {
    /// Id of the place the leg starts at.
    public var from: String
    /// Id of the place the leg ends at.
    public var to: String
    /// Estimated network distance in metres (rounded to 0.1 m).
    public var distanceMeters: Double
    /// Estimated travel time in seconds (rounded to 0.1 s).
    public var durationSeconds: Double

    /// Creates a leg.
    public init(from: String, to: String, distanceMeters: Double, durationSeconds: Double) {
        self.from = from
        self.to = to
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
    }
}

/// Sums over all legs.
public struct RouteTotals: Sendable, Codable, Hashable {
    /// Total distance in metres (the sum of the legs).
    public var distanceMeters: Double
    /// Total travel time in seconds (the sum of the legs).
    public var durationSeconds: Double

    /// Creates totals.
    public init(distanceMeters: Double, durationSeconds: Double) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
    }
}

/// A planned route: the answer of ``RoutePlanner``, and the input of every export.
public struct RoutePlan: Sendable, Codable, Equatable {
    /// How the traveller moves.
    public var mode: TravelMode
    /// What the order minimises.
    public var criterion: RouteCriterion
    /// Whether the route returns to the first stop (the last leg then ends there).
    public var roundTrip: Bool
    /// Every place exactly once, in visiting order.
    public var stops: [RouteStop]
    /// Legs between consecutive stops, plus the closing leg on a round trip.
    public var legs: [RouteLeg]
    /// Sums over ``legs``.
    public var totals: RouteTotals
    /// `true` when the order is proven optimal for the cost model.
    public var optimal: Bool

    /// Creates a plan (normally done by ``RoutePlanner``).
    public init(
        mode: TravelMode, criterion: RouteCriterion, roundTrip: Bool, stops: [RouteStop], legs: [RouteLeg],
        totals: RouteTotals, optimal: Bool
    ) {
        self.mode = mode
        self.criterion = criterion
        self.roundTrip = roundTrip
        self.stops = stops
        self.legs = legs
        self.totals = totals
        self.optimal = optimal
    }

    /// Stops along the drawn or exported path: the stops, then the first again on a round trip.
    var pathPlaces: [RoutePlace] {
        let places = stops.map(\.place)
        if roundTrip, places.count > 1, let first = places.first { return places + [first] }
        return places
    }
}
