/// A stop with a fixed local time: a booked tour, a table, a timed activity.
public struct TimedStop: Sendable, Codable, Hashable {
    /// Id of one of the request's places.
    public var id: String
    /// Local time the stop begins, in minutes after the day's midnight (0…2879; values of
    /// 1440 and more are after the next midnight, for a late evening that runs on).
    public var startMinute: Int
    /// Local time the stop ends, if known (≥ ``startMinute``); the traveller leaves then.
    public var endMinute: Int?

    /// Creates a timed stop.
    public init(id: String, startMinute: Int, endMinute: Int? = nil) {
        self.id = id
        self.startMinute = startMinute
        self.endMinute = endMinute
    }
}

/// One day's route: that day's places and located items between two lodgings, with
/// some stops at fixed times. Planned by ``DayRoutePlanner``.
///
/// The lodging places are part of ``places``; ``startID`` and ``endID`` name them. The
/// same id in both is a round trip from that night's lodging; different ids are a
/// transfer day (previous night's lodging to the next); either may be absent (free end).
public struct DayRouteRequest: Sendable, Codable, Equatable {
    /// Every place of the day, lodgings included, each once (at most
    /// ``RoutePlanner/maximumPlaces``).
    public var places: [RoutePlace]
    /// How the traveller moves.
    public var mode: TravelMode
    /// What the order minimises.
    public var criterion: RouteCriterion
    /// Where the day starts (the lodging of the previous night), if fixed.
    public var startID: String?
    /// Where the day ends (that night's lodging), if fixed. Equal to ``startID``: a round trip.
    public var endID: String?
    /// Stops with a fixed time; visited in time order (ties keep the array's order).
    public var timedStops: [TimedStop]
    /// When the traveller leaves ``startID`` (or the first stop), in minutes after midnight;
    /// `nil` when unknown: arrival times then start at the first timed stop.
    public var startMinute: Int?
    /// Minutes spent at a stop without an end time (default 30).
    public var defaultVisitMinutes: Int
    /// Minutes spent at particular stops, by id (overrides ``defaultVisitMinutes``).
    public var visitMinutes: [String: Int]

    /// Creates a request; by default walking, minimising duration, free ends, no times.
    public init(
        places: [RoutePlace], mode: TravelMode = .walking, criterion: RouteCriterion = .duration,
        startID: String? = nil, endID: String? = nil, timedStops: [TimedStop] = [], startMinute: Int? = nil,
        defaultVisitMinutes: Int = 30, visitMinutes: [String: Int] = [:]
    ) {
        self.places = places
        self.mode = mode
        self.criterion = criterion
        self.startID = startID
        self.endID = endID
        self.timedStops = timedStops
        self.startMinute = startMinute
        self.defaultVisitMinutes = defaultVisitMinutes
        self.visitMinutes = visitMinutes
    }

    /// Whether the route returns to where it started (start and end are the same lodging).
    public var isRoundTrip: Bool { startID != nil && startID == endID }
}

/// A stop's place in the day's timetable.
public struct ScheduledStop: Sendable, Codable, Hashable {
    /// The place's id.
    public var id: String
    /// Estimated arrival, minutes after midnight; `nil` for the start and, without a day
    /// start time, for stops before the first timed stop.
    public var arrivalMinute: Int?
    /// Estimated departure, minutes after midnight (after waiting for a timed stop's start
    /// and the visit); `nil` for the end and wherever the arrival is unknown.
    public var departureMinute: Int?
    /// The fixed start time for a timed stop.
    public var fixedMinute: Int?
    /// Minutes after ``fixedMinute`` the traveller arrives (0 when on time or untimed).
    public var lateMinutes: Int

    /// Creates a scheduled stop.
    public init(id: String, arrivalMinute: Int?, departureMinute: Int?, fixedMinute: Int?, lateMinutes: Int) {
        self.id = id
        self.arrivalMinute = arrivalMinute
        self.departureMinute = departureMinute
        self.fixedMinute = fixedMinute
        self.lateMinutes = lateMinutes
    }
}

/// A planned day: the route (stops, legs, totals; every export works on it), the
/// timetable, and the timed stops the order cannot reach on time.
public struct DayRoutePlan: Sendable, Codable, Equatable {
    /// The route in visiting order; on a round trip the closing leg returns to the lodging.
    public var route: RoutePlan
    /// One entry per stop of ``route``, same order.
    public var schedule: [ScheduledStop]
    /// Estimated arrival at the end of the day (back at the lodging on a round trip),
    /// minutes after midnight; `nil` when the times are unknown.
    public var endMinute: Int?
    /// Ids of timed stops reached after their time, in visiting order (empty when all are
    /// on time or the day has no times).
    public var lateStops: [String]

    /// Creates a day plan (normally done by ``DayRoutePlanner``).
    public init(route: RoutePlan, schedule: [ScheduledStop], endMinute: Int?, lateStops: [String]) {
        self.route = route
        self.schedule = schedule
        self.endMinute = endMinute
        self.lateStops = lateStops
    }
}
