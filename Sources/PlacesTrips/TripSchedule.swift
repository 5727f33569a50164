/// A trip laid out day by day: what `GET /v1/itineraries/{id}/days` shows.
public struct TripSchedule: Sendable, Hashable {
    /// Consecutive dates, at most 366.
    public var days: [TripDay]
    /// Ids of items that are in no day: those without a start, in the user's order
    /// (`position`, then id), then those whose dates fall outside the days, by date.
    public var unscheduled: [String]

    /// A schedule from its parts.
    public init(days: [TripDay], unscheduled: [String]) {
        self.days = days
        self.unscheduled = unscheduled
    }

    /// The day on `date`, if the schedule has it.
    public func day(on date: LocalDate) -> TripDay? {
        guard let first = days.first, date.isValid, first.date.isValid else { return nil }
        let offset = date.dayNumber - first.date.dayNumber
        return days.indices.contains(offset) ? days[offset] : nil
    }
}

/// One date of a trip.
public struct TripDay: Sendable, Hashable {
    /// 1 for the first day (`places itinerary show ITIN --day 3`).
    public var number: Int
    public var date: LocalDate
    /// The id of the lodging you sleep in the night after this date, if any.
    public var lodging: String?
    /// Ids of the day's items in order: timed ones by local time of day, then the rest in
    /// the user's order. A transport shows on its departure date and again on its arrival
    /// date; a lodging on its check-in and check-out dates.
    public var items: [String]

    /// A day from its parts.
    public init(number: Int, date: LocalDate, lodging: String?, items: [String]) {
        self.number = number
        self.date = date
        self.lodging = lodging
        self.items = items
    }
}

/// Where a day's route starts and ends, and what it visits (for `GET …/route?day=`).
public struct TripDayRoute: Sendable, Hashable {
    /// The lodging you wake up in (the previous night's), nil when there is none or it has
    /// no coordinates.
    public var start: String?
    /// The lodging you sleep in that night, nil when there is none or it has no coordinates.
    /// It differs from `start` on a transfer day.
    public var end: String?
    /// The day's places, food and activities that have a valid location point, in day order.
    public var stops: [String]

    /// A day route from its parts.
    public init(start: String?, end: String?, stops: [String]) {
        self.start = start
        self.end = end
        self.stops = stops
    }
}
