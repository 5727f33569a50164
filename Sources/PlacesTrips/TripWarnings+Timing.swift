import PlacesRoutes

/// The timed items in absolute time: overlaps, late transports and tight connections.
///
/// Lodging stays out of these rules (a stay spans every day's plans); so does a pair where
/// one item links to the other (a dinner on the train it is linked to). An item without an
/// end is a moment: it clashes with an item under way then, or with one that starts at the
/// same minute; back-to-back items (one ends as the next starts) do not clash.
extension TripWarnings {
    /// `time-overlap`, `transport-late` and `tight-connection`.
    static func checkTimes(_ timeline: TripTimeline, _ text: TripText, _ list: inout WarningList) {
        let entries = timeline.entries
        let timed = entries.indices.filter { entries[$0].start != nil && entries[$0].item.type != .lodging }
            .sorted { a, b in
                let (x, y) = (entries[a], entries[b])
                if x.start != y.start { return (x.start ?? 0) < (y.start ?? 0) }
                if x.until != y.until { return (x.until ?? 0) < (y.until ?? 0) }
                return x.id.utf8.lexicographicallyPrecedes(y.id.utf8)
            }
        // Sweep: each item is compared with the one reaching furthest so far (and with the
        // one just before it), so each clashing item is reported once, never pair by pair.
        var furthest: Int?
        var previous: Int?
        for b in timed {
            let start = entries[b].start ?? 0
            var partner: Int?
            for a in [furthest, previous].compactMap({ $0 }) where partner == nil && !linked(a, b, timeline) {
                if start < (entries[a].until ?? 0) || start == entries[a].start { partner = a }
            }
            if let a = partner { reportClash(a, b, timeline, text, &list) }
            if furthest.map({ (entries[b].until ?? 0) > (entries[$0].until ?? 0) }) ?? true { furthest = b }
            previous = b
        }
        for (a, b) in zip(timed, timed.dropFirst()) where !linked(a, b, timeline) {
            checkConnection(entries[a], entries[b], timeline.travelMode, text, &list)
        }
    }

    private static func linked(_ a: Int, _ b: Int, _ timeline: TripTimeline) -> Bool {
        let (x, y) = (timeline.entries[a], timeline.entries[b])
        return x.item.linkedItem == y.id || y.item.linkedItem == x.id
    }

    /// `transport-late` when the earlier item is a transport still under way as the next
    /// item starts; `time-overlap` otherwise.
    private static func reportClash(
        _ a: Int, _ b: Int, _ timeline: TripTimeline, _ text: TripText, _ list: inout WarningList
    ) {
        let (x, y) = (timeline.entries[a].item, timeline.entries[b].item)
        guard let starts = y.start else { return }
        if x.type == .transport, y.type != .transport, let arrives = x.end,
            timeline.entries[a].start != timeline.entries[b].start
        {
            list.add(
                WarningCode.transportLate, on: starts.date, [x.id, y.id],
                "\(TripText.name(x)) arrives (\(text.dateTime(arrives))) after \(TripText.name(y)) starts "
                    + "(\(text.dateTime(starts))): move \(TripText.name(y)) later or change the transport")
            return
        }
        list.add(
            WarningCode.timeOverlap, on: starts.date, [x.id, y.id],
            "\(TripText.name(x)) (\(interval(x, text))) and \(TripText.name(y)) (\(interval(y, text))) overlap: "
                + "move one of them")
    }

    /// "3 May 10:00–12:00", "3 May 23:00–4 May 01:00", "3 May 10:00".
    private static func interval(_ item: TripItem, _ text: TripText) -> String {
        guard let start = item.start else { return "" }
        guard let end = item.end, end != start else { return text.dateTime(start) }
        if end.date == start.date, let minute = end.minuteOfDay {
            return text.dateTime(start) + "–" + TripText.clock(minute)
        }
        return text.dateTime(start) + "–" + text.dateTime(end)
    }

    /// `tight-connection`: too little time between two consecutive timed items to travel
    /// from where the first ends (a transport's `to`) to where the second starts, with the
    /// trip's travel mode and the built-in great-circle cost model.
    private static func checkConnection(
        _ a: TripTimeline.Entry, _ b: TripTimeline.Entry, _ mode: TravelMode, _ text: TripText,
        _ list: inout WarningList
    ) {
        guard let ends = a.until, let starts = b.start, starts >= ends,
            let from = (a.item.type == .transport ? a.item.to : a.item.location)?.point,
            let to = b.item.location?.point,
            let matrices = try? GreatCircleMatrixProvider().travelMatrices(for: [from, to], mode: mode)
        else { return }
        let travelSeconds = matrices.durationSeconds[0, 1]
        let gapSeconds = starts - ends
        guard travelSeconds.isFinite, travelSeconds > Double(gapSeconds) else { return }
        let travelMinutes = Int64(min((travelSeconds / 60).rounded(.up), 1e12))
        let gap = gapSeconds < 60 ? "No time" : "Only " + TripText.duration(minutes: gapSeconds / 60)
        let (first, second) = (TripText.name(a.item), TripText.name(b.item))
        let endWord = a.item.type == .transport ? "arrives" : (a.end == nil ? "at" : "ends")
        let startWord = b.item.type == .transport ? "departs" : "starts"
        // Times alone when both are on the same local date, dates too otherwise.
        let (left, right) = (a.end != nil ? a.item.end : a.item.start, b.item.start)
        func when(_ time: LocalDateTime?) -> String {
            guard let time else { return "" }
            guard left?.date == right?.date, let minute = time.minuteOfDay else { return text.dateTime(time) }
            return TripText.clock(minute)
        }
        list.add(
            WarningCode.tightConnection, on: b.item.start?.date, [a.id, b.id],
            "\(gap) between \(first) (\(endWord) \(when(left))) and \(second) (\(startWord) "
                + "\(when(right))), but \(TripText.verb(mode)) there takes about "
                + "\(TripText.duration(minutes: travelMinutes)) (\(TripText.distance(meters: matrices.distanceMeters[0, 1]))): "
                + "leave earlier, move \(second) later or change the travel mode")
    }
}
