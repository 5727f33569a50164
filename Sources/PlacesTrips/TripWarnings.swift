/// The trip check: `GET /v1/itineraries/{id}/warnings` and `places itinerary check`
/// (docs/trips.md, "Warnings").
public enum TripWarnings {
    /// Every problem found in `trip`, each naming its items and what to fix, in order of
    /// date, then code, then ids; at most 100 per code plus one "and N more". O(n log n) in
    /// the items, whatever they say.
    public static func check(_ trip: Trip) -> [TripWarning] {
        let timeline = TripTimeline(trip)
        let span = TripSpan(timeline)
        let text = TripText(year: timeline.tripStart?.year ?? (span.count > 0 ? span.date(at: 0).year : 0))
        var list = WarningList()
        checkEnds(timeline, text, &list)
        checkZones(timeline, &list)
        checkLinks(timeline, &list)
        checkDates(timeline, span, text, &list)
        checkStays(timeline, span, text, &list)
        checkTimes(timeline, text, &list)
        return list.finished()
    }

    /// `end-before-start`: the rules then read such an item as having no end.
    static func checkEnds(_ timeline: TripTimeline, _ text: TripText, _ list: inout WarningList) {
        if let start = timeline.tripStart, let end = timeline.tripEndBeforeStart {
            list.add(
                WarningCode.endBeforeStart, on: start, [],
                "The trip ends (\(text.date(end))) before it starts (\(text.date(start))): fix the trip's dates")
        }
        for (index, end) in timeline.endBeforeStart {
            let entry = timeline.entries[index]
            guard let start = entry.item.start else { continue }
            let name = TripText.name(entry.item)
            var ends = text.dateTime(end)
            var starts = text.dateTime(start)
            if entry.startZone != entry.endZone {
                ends += " " + entry.endZone
                starts += " " + entry.startZone
            }
            let message: String
            switch entry.item.type {
            case .lodging:
                message = "\(name) checks out (\(ends)) before it checks in (\(starts)): fix the check-out"
            case .transport:
                message = "\(name) arrives (\(ends)) before it departs (\(starts)): fix the arrival or its time zone"
            case .food, .activity, .place:
                message = "\(name) ends (\(ends)) before it starts (\(starts)): fix its end"
            }
            list.add(WarningCode.endBeforeStart, on: start.date, [entry.id], message)
        }
    }

    /// `unknown-time-zone`, one per zone (the trip's own zone apart from the items' own).
    static func checkZones(_ timeline: TripTimeline, _ list: inout WarningList) {
        for unknown in timeline.unknownZones {
            let items = unknown.entries.map { timeline.entries[$0].item }
            let date = items.compactMap { $0.start?.date }.min()
            let fix = "use an IANA zone such as Europe/Lisbon"
            let message: String
            if unknown.isTripZone {
                let whose = items.isEmpty ? "" : " (\(TripText.names(items)))"
                message =
                    "The trip's time zone \(unknown.zone) is unknown to this build: the times of items without "
                    + "their own zone\(whose) are read as UTC; \(fix)"
            } else {
                let one = items.count == 1
                message =
                    "Time zone \(unknown.zone) of \(TripText.names(items)) is unknown to this build: "
                    + "\(one ? "its" : "their") times are read as UTC; \(fix)"
            }
            list.add(WarningCode.unknownTimeZone, on: date, items.map(\.id), message)
        }
    }

    /// `dangling-link` and `duplicate-id`.
    static func checkLinks(_ timeline: TripTimeline, _ list: inout WarningList) {
        for entry in timeline.entries {
            guard let link = entry.item.linkedItem, link != entry.id, timeline.byID[link] == nil else { continue }
            let shown = link.count > 40 ? String(link.prefix(39)) + "…" : link
            list.add(
                WarningCode.danglingLink, on: entry.item.start?.date, [entry.id],
                "\(TripText.name(entry.item)) links to an item that is not in this trip (\(shown)): "
                    + "link it to another item or remove the link")
        }
        for duplicate in timeline.duplicates {
            let kept = timeline.byID[duplicate.id].map { TripText.name(timeline.entries[$0].item) } ?? ""
            list.add(
                WarningCode.duplicateID, on: nil, [duplicate.id],
                "Two items have the id \(duplicate.id) (\(kept) and \(TripText.name(duplicate))): only \(kept) "
                    + "is used; delete the other and add it again")
        }
    }

    /// `outside-trip` (an item before the trip's start or after its end) and `day-limit`
    /// (a dated item no day shows because it is over 366 days from the rest).
    static func checkDates(_ timeline: TripTimeline, _ span: TripSpan, _ text: TripText, _ list: inout WarningList) {
        let (tripStart, tripEnd) = (timeline.tripStart, timeline.tripEnd)
        let trip: String
        switch (tripStart, tripEnd) {
        case (let s?, let e?): trip = "outside the trip (\(text.range(s, e)))"
        case (let s?, nil): trip = "before the trip starts (\(text.date(s)))"
        case (nil, let e?): trip = "after the trip ends (\(text.date(e)))"
        case (nil, nil): trip = ""
        }
        for entry in timeline.entries {
            guard let start = entry.item.start?.date else { continue }
            let last = entry.item.end?.date ?? start
            let outside = tripStart.map { start < $0 } == true || tripEnd.map { last > $0 } == true
            let name = TripText.name(entry.item)
            if outside {
                list.add(
                    WarningCode.outsideTrip, on: start, [entry.id],
                    "\(name) (\(text.range(start, last))) is \(trip): move it into the trip or change the trip's dates")
                continue
            }
            let shown =
                span.index(of: start) != nil
                || ((entry.item.type == .transport || entry.item.type == .lodging) && span.index(of: last) != nil)
            if !shown {
                list.add(
                    WarningCode.dayLimit, on: start, [entry.id],
                    "\(name) (\(text.date(start))) is more than \(TripSpan.maximumDays) days from the rest of the "
                        + "trip, so no day shows it: fix its date")
            }
        }
    }
}
