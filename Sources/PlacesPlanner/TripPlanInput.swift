import PlacesRoutes

/// How full the days of a plan are: visits take longer and leave room when relaxed, less
/// when packed (`docs/planner.md` §3).
public enum PlanPace: String, Sendable, CaseIterable, Codable {
    case relaxed, normal, packed

    /// Visit lengths are multiplied by this.
    public var visitFactor: Double {
        switch self {
        case .relaxed: 1.25
        case .normal: 1
        case .packed: 0.85
        }
    }

    /// Minutes of slack added after each visit (a coffee, the toilets, a photo).
    public var slackMinutes: Double {
        switch self {
        case .relaxed: 15
        case .normal: 5
        case .packed: 0
        }
    }
}

/// What a visit costs one person, in the plan's currency (minor units), and where it came from.
public enum PlanCost: Sendable, Equatable {
    /// The place's `entryPrice`, converted.
    case price(Int64)
    /// An estimate from the place's `priceLevel` (`docs/planner.md` §4), converted.
    case estimate(Int64)
    /// Neither price nor level: counted as free, and the plan says so.
    case unknown
    /// A price that cannot be converted to the plan's currency (no rate): left out when there
    /// is a budget, with this reason.
    case unconvertible(String)

    /// Minor units counted against the budget.
    public var minor: Int64 {
        switch self {
        case .price(let m), .estimate(let m): m
        case .unknown, .unconvertible: 0
        }
    }
}

/// Why a place is worth visiting, from the user's own signals (`docs/planner.md` §2).
public struct PlanSignals: Sendable, Equatable {
    /// In the user's own library.
    public var mine: Bool
    /// Hearted by the user.
    public var favorite: Bool
    /// Names of the people the user knows (friends, contacts) who saved it, in a stable order.
    public var savedBy: [String]
    /// How many published trips by people the user knows (or the user) visit it.
    public var publishedTrips: Int
    /// The user's rating (0–5), or the friend's when only a friend saved it.
    public var rating: Double?

    public init(
        mine: Bool = false, favorite: Bool = false, savedBy: [String] = [], publishedTrips: Int = 0,
        rating: Double? = nil
    ) {
        self.mine = mine
        self.favorite = favorite
        self.savedBy = savedBy
        self.publishedTrips = publishedTrips
        self.rating = rating
    }
}

/// A visit fixed in time: a booked item of the itinerary (dinner at 20:00, a ticket at 10:00).
public struct FixedVisit: Sendable, Equatable {
    /// Index into `TripPlanRequest.days`.
    public var day: Int
    /// Minutes from that day's midnight.
    public var startMinute: Int
    public var minutes: Int

    public init(day: Int, startMinute: Int, minutes: Int) {
        self.day = day
        self.startMinute = startMinute
        self.minutes = minutes
    }
}

/// A place the planner may visit.
public struct PlanCandidate: Sendable {
    /// The id the answer names it by (a library place id, a friend's `place:OWNER.ID`, an item id).
    public var id: String
    public var name: String
    public var point: GeoPoint?
    public var categories: [String]
    /// nil: the place gives no hours (assumed open during the day, and the plan says so).
    public var hours: OpeningHours?
    public var visitMinutes: Int?
    public var cost: PlanCost
    public var signals: PlanSignals
    /// Asked for by the user (`must`) or already in the itinerary: always planned when it fits.
    public var must: Bool
    /// Only on this day (a place to go already planned for a day), index into `days`.
    public var onlyDay: Int?
    /// A booked item: at exactly this time.
    public var fixed: FixedVisit?

    public init(
        id: String, name: String, point: GeoPoint?, categories: [String] = [], hours: OpeningHours? = nil,
        visitMinutes: Int? = nil, cost: PlanCost = .unknown, signals: PlanSignals = .init(), must: Bool = false,
        onlyDay: Int? = nil, fixed: FixedVisit? = nil
    ) {
        self.id = id
        self.name = name
        self.point = point
        self.categories = categories
        self.hours = hours
        self.visitMinutes = visitMinutes
        self.cost = cost
        self.signals = signals
        self.must = must
        self.onlyDay = onlyDay
        self.fixed = fixed
    }
}

/// One day of the trip.
public struct PlanDay: Sendable, Equatable {
    /// `YYYY-MM-DD`, as the answer writes it.
    public var date: String
    /// 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int

    public init(date: String, isoWeekday: Int) {
        self.date = date
        self.isoWeekday = isoWeekday
    }
}

/// Everything a plan is made from; pure values (the daemon gathers them).
public struct TripPlanRequest: Sendable {
    public var days: [PlanDay]
    /// Minutes from midnight: leave the stay at `dayStart`, be back by `dayEnd`.
    public var dayStart: Int
    public var dayEnd: Int
    public var stay: GeoPoint
    public var mode: TravelMode
    /// Minor units of the plan's currency; nil: no budget.
    public var budget: Int64?
    /// Folded interest category → weight (a category named twice, `--more food`, weighs 2).
    public var interests: [String: Int]
    public var pace: PlanPace
    public var candidates: [PlanCandidate]
    /// Solver rounds (the answer is the same for the same inputs) and a wall-clock cap.
    public var iterations: Int
    public var timeBudget: Duration

    public init(
        days: [PlanDay], dayStart: Int, dayEnd: Int, stay: GeoPoint, mode: TravelMode, budget: Int64? = nil,
        interests: [String: Int] = [:], pace: PlanPace = .normal, candidates: [PlanCandidate],
        iterations: Int = 400, timeBudget: Duration = .seconds(2)
    ) {
        self.days = days
        self.dayStart = dayStart
        self.dayEnd = dayEnd
        self.stay = stay
        self.mode = mode
        self.budget = budget
        self.interests = interests
        self.pace = pace
        self.candidates = candidates
        self.iterations = iterations
        self.timeBudget = timeBudget
    }
}

/// A suggested trip: per day the visits in order, and the good places left out, with why.
public struct TripPlan: Sendable, Equatable {
    public struct Stop: Sendable, Equatable {
        /// Index into the request's candidates.
        public var candidate: Int
        /// Minutes from the day's midnight: when the visit starts (after any wait) and ends.
        public var arrive: Int
        public var leave: Int
        public var travelMinutesBefore: Int
        public var reasons: [String]
    }

    public struct Day: Sendable, Equatable {
        public var date: String
        public var stops: [Stop]
        /// Travel of the day, the way back to the stay included.
        public var travelMinutes: Int
        public var distanceMeters: Double
        public var cost: Int64
        /// When the day ends back at the stay (minutes from midnight).
        public var backAt: Int
    }

    public struct LeftOut: Sendable, Equatable {
        public var candidate: Int
        public var reason: String
    }

    public var days: [Day]
    public var score: Double
    public var cost: Int64
    public var leftOut: [LeftOut]

    public init(days: [Day], score: Double, cost: Int64, leftOut: [LeftOut]) {
        self.days = days
        self.score = score
        self.cost = cost
        self.leftOut = leftOut
    }
}
