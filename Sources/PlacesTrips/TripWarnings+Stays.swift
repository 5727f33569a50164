/// The nights: stays that overlap, and nights of the trip with no bed.
extension TripWarnings {
    /// `lodging-overlap` and `night-without-lodging`.
    static func checkStays(_ timeline: TripTimeline, _ span: TripSpan, _ text: TripText, _ list: inout WarningList) {
        checkOverlappingStays(timeline, text, &list)
        checkNightsWithoutBed(timeline, span, text, &list)
    }

    /// Stays sorted by first night; each is compared with the stay that reaches furthest so
    /// far, so every stay that shares a night with an earlier one is reported once.
    static func checkOverlappingStays(_ timeline: TripTimeline, _ text: TripText, _ list: inout WarningList) {
        let stays = timeline.entries.indices.compactMap { index -> (index: Int, nights: Range<Int>)? in
            let nights = TripDays.nights(of: timeline.entries[index])
            return nights.isEmpty ? nil : (index, nights)
        }.sorted { a, b in
            a.nights.lowerBound != b.nights.lowerBound
                ? a.nights.lowerBound < b.nights.lowerBound
                : timeline.entries[a.index].id.utf8.lexicographicallyPrecedes(timeline.entries[b.index].id.utf8)
        }
        var furthest: (index: Int, nights: Range<Int>)?
        for stay in stays {
            if let other = furthest, stay.nights.lowerBound < other.nights.upperBound {
                let (a, b) = (timeline.entries[other.index].item, timeline.entries[stay.index].item)
                let shared = stay.nights.lowerBound..<min(stay.nights.upperBound, other.nights.upperBound)
                let first = LocalDate(dayNumber: shared.lowerBound)
                list.add(
                    WarningCode.lodgingOverlap, on: first, [a.id, b.id],
                    "\(TripText.name(a)) (\(checkOut(a, text))) and \(TripText.name(b)) (check-in "
                        + "\(text.date(first))) overlap on \(text.nights(shared.lowerBound, shared.upperBound)): "
                        + "change one stay's dates")
            }
            if furthest.map({ stay.nights.upperBound > $0.nights.upperBound }) ?? true { furthest = stay }
        }
    }

    private static func checkOut(_ item: TripItem, _ text: TripText) -> String {
        if let end = item.end { return "check-out " + text.date(end.date) }
        return "check-in " + (item.start.map { text.date($0.date) } ?? "") + ", no check-out"
    }

    /// Nights `startDate`…`endDate − 1` (at most 366) that no stay and no overnight
    /// transport covers; consecutive ones make one warning. Only for a trip with dates.
    static func checkNightsWithoutBed(
        _ timeline: TripTimeline, _ span: TripSpan, _ text: TripText, _ list: inout WarningList
    ) {
        guard let start = timeline.tripStart, let end = timeline.tripEnd, end > start else { return }
        let first = start.dayNumber
        let count = min(end.dayNumber - first, TripSpan.maximumDays)
        var covered = [Bool](repeating: false, count: count)
        let beds = TripDays.nightLodging(timeline, span)
        for night in 0..<count {
            if let day = span.index(of: LocalDate(dayNumber: first + night)), beds[day] != nil { covered[night] = true }
        }
        // A transport that leaves on one date and arrives on a later one is that night's bed
        // (a night train, a long-haul flight): a difference array keeps this linear.
        var delta = [Int](repeating: 0, count: count + 1)
        for entry in timeline.entries where entry.item.type == .transport {
            guard let leaves = entry.item.start?.date.dayNumber, let arrives = entry.item.end?.date.dayNumber else {
                continue
            }
            let low = max(0, leaves - first)
            let high = min(count, arrives - first)
            guard low < high else { continue }
            delta[low] += 1
            delta[high] -= 1
        }
        var running = 0
        var runStart: Int?
        for night in 0...count {
            if night < count {
                running += delta[night]
                if running > 0 { covered[night] = true }
            }
            let bare = night < count && !covered[night]
            if bare, runStart == nil { runStart = night }
            if !bare, let run = runStart {
                list.add(
                    WarningCode.nightWithoutLodging, on: LocalDate(dayNumber: first + run), [],
                    "No lodging for \(text.nights(first + run, first + night)): add a stay or an overnight transport")
                runStart = nil
            }
        }
    }
}
