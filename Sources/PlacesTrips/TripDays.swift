import PlacesRoutes

/// The day view of a trip: for each date, where you sleep that night and the day's items
/// in time order (docs/trips.md, "Days").
public enum TripDays {
    /// Lays `trip` out day by day.
    ///
    /// The dates are the trip's own (`startDate`…`endDate`), extended to items outside
    /// them, or the items' dates when the trip has none; at most 366 days. Never traps and
    /// never does quadratic work, whatever the items say.
    public static func plan(_ trip: Trip) -> TripSchedule {
        let timeline = TripTimeline(trip)
        return plan(timeline, TripSpan(timeline))
    }

    /// Where the route of the day on `date` starts and ends (the lodging you wake up in and
    /// the one you sleep in, when they have coordinates) and the day's located stops.
    public static func route(for date: LocalDate, in trip: Trip) -> TripDayRoute {
        let timeline = TripTimeline(trip)
        let schedule = plan(timeline, TripSpan(timeline))
        guard date.isValid else { return TripDayRoute(start: nil, end: nil, stops: []) }
        func located(_ id: String?) -> String? {
            guard let id, let index = timeline.byID[id], isLocated(timeline.entries[index].item.location) else {
                return nil
            }
            return id
        }
        let night = date.dayNumber
        let stops = (schedule.day(on: date)?.items ?? []).filter { id in
            guard let index = timeline.byID[id] else { return false }
            let item = timeline.entries[index].item
            return [.place, .food, .activity].contains(item.type) && isLocated(item.location)
        }
        return TripDayRoute(
            start: located(lodging(forNight: night - 1, timeline)), end: located(lodging(forNight: night, timeline)),
            stops: stops)
    }

    static func plan(_ timeline: TripTimeline, _ span: TripSpan) -> TripSchedule {
        var placements = [[Placement]](repeating: [], count: span.count)
        var unplaced: [Int] = []
        var undated: [Int] = []
        for (index, entry) in timeline.entries.enumerated() {
            guard let start = entry.item.start else {
                undated.append(index)
                continue
            }
            var placed = false
            if let day = span.index(of: start.date) {
                placements[day].append(Placement(entry: index, minute: start.minuteOfDay))
                placed = true
            }
            // A transport again on its arrival date, a lodging on its check-out date.
            if entry.item.type == .transport || entry.item.type == .lodging, let end = entry.item.end,
                end.date != start.date, let day = span.index(of: end.date)
            {
                placements[day].append(Placement(entry: index, minute: end.minuteOfDay))
                placed = true
            }
            if !placed { unplaced.append(index) }
        }
        let beds = nightLodging(timeline, span)
        var days: [TripDay] = []
        days.reserveCapacity(span.count)
        for (offset, dayPlacements) in placements.enumerated() {
            let ordered = dayPlacements.sorted { precedes($0, $1, timeline) }
            days.append(
                TripDay(
                    number: offset + 1, date: span.date(at: offset),
                    lodging: beds[offset].map { timeline.entries[$0].id },
                    items: ordered.map { timeline.entries[$0.entry].id }))
        }
        undated.sort { userOrderPrecedes(timeline.entries[$0].item, timeline.entries[$1].item) }
        unplaced.sort {
            let (a, b) = (timeline.entries[$0].item, timeline.entries[$1].item)
            if let x = a.start, let y = b.start, x != y { return x < y }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        return TripSchedule(days: days, unscheduled: (undated + unplaced).map { timeline.entries[$0].id })
    }

    /// An item on a day, at its time of day there (arrival or check-out on the later day).
    struct Placement {
        var entry: Int
        var minute: Int?
    }

    /// Timed items by time of day, then `position`, then id; untimed ones after, by
    /// `position` (none last), then id.
    static func precedes(_ a: Placement, _ b: Placement, _ timeline: TripTimeline) -> Bool {
        switch (a.minute, b.minute) {
        case (let x?, let y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return userOrderPrecedes(timeline.entries[a.entry].item, timeline.entries[b.entry].item)
        }
    }

    /// The user's order: `position` (a fractional index, compared byte by byte; none sorts
    /// last), then id.
    static func userOrderPrecedes(_ a: TripItem, _ b: TripItem) -> Bool {
        switch (a.position, b.position) {
        case (let x?, let y?) where x != y: return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    /// Whether `location` has a point a route can use.
    static func isLocated(_ location: TripLocation?) -> Bool {
        guard let point = location?.point else { return false }
        return (try? point.validate()) != nil
    }
}
