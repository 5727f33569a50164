/// The dates a trip's day view shows, at most ``maximumDays`` of them so that one hostile
/// date (0001-01-01, 9999-12-31) cannot make a list of 3.6 million days.
///
/// The trip's own dates come first (the first 366 of them when it is longer); items before
/// or after them extend the span as far as the cap allows, earlier items first. A trip
/// without dates shows the 366-day window holding the most item dates (the earliest such
/// window on a tie), trimmed to the items in it.
struct TripSpan {
    /// The most days a schedule has.
    static let maximumDays = 366

    /// Day number (days since 1970-01-01) of the first day.
    let first: Int
    /// How many days; 0 when the trip has no dates and no dated items.
    let count: Int

    init(_ timeline: TripTimeline) {
        var days: [Int] = []
        days.reserveCapacity(timeline.entries.count * 2)
        for entry in timeline.entries {
            guard let start = entry.item.start else { continue }
            days.append(start.date.dayNumber)
            if let end = entry.item.end { days.append(end.date.dayNumber) }
        }
        let width = TripSpan.maximumDays - 1
        guard let anchor = timeline.tripStart ?? timeline.tripEnd else {
            (first, count) = TripSpan.busiestWindow(days.sorted(), width: width)
            return
        }
        let coreFirst = anchor.dayNumber
        let coreLast = min(coreFirst + width, timeline.tripEnd?.dayNumber ?? coreFirst)
        var low = coreFirst
        for day in days where day < low && day >= coreLast - width { low = day }
        var high = coreLast
        for day in days where day > high && day <= low + width { high = day }
        first = low
        count = high - low + 1
    }

    /// The first day and length of the window of `width + 1` days that holds the most of
    /// `sorted`, trimmed to them.
    private static func busiestWindow(_ sorted: [Int], width: Int) -> (Int, Int) {
        guard !sorted.isEmpty else { return (0, 0) }
        var best = (start: 0, end: 0)
        var low = 0
        for high in sorted.indices {
            while sorted[high] - sorted[low] > width { low += 1 }
            if high - low > best.end - best.start { best = (low, high) }
        }
        return (sorted[best.start], sorted[best.end] - sorted[best.start] + 1)
    }

    /// The index of `date` among the days, nil outside them.
    func index(of date: LocalDate) -> Int? {
        let offset = date.dayNumber - first
        return (0..<count).contains(offset) ? offset : nil
    }

    /// The date of day `index` (0-based).
    func date(at index: Int) -> LocalDate { LocalDate(dayNumber: first + index) }
}
