import PlacesRoutes

/// A trip's items read once for the planning rules (days, warnings): duplicates dropped,
/// invalid dates dropped, each timed start and end turned into an instant in its zone.
/// Internal: the rules share it so that they agree on what an item's times mean.
struct TripTimeline {
    /// One item as the rules see it. A class: the rules sort and scan entries many times,
    /// and copying a struct of a dozen strings each time was most of their cost.
    final class Entry {
        /// The item, with an end before its start removed (the rules then read it as having
        /// no end) and dates outside years 1…9999 removed.
        var item: TripItem
        /// Where the item was in `Trip.items`.
        var order: Int
        var startZone: String
        var endZone: String
        /// The instant of a timed start.
        var start: Int64?
        /// The instant of a timed end that is not before the start.
        var end: Int64?

        init(item: TripItem, order: Int, startZone: String, endZone: String) {
            self.item = item
            self.order = order
            self.startZone = startZone
            self.endZone = endZone
        }

        var id: String { item.id }
        /// The last instant the item takes (its start when it has no end).
        var until: Int64? { end ?? start }
    }

    /// An unknown zone and where it is used.
    struct UnknownZone {
        var zone: String
        /// Whether it is the trip's zone (the items inherit it).
        var isTripZone: Bool
        var entries: [Int]
    }

    /// One entry per id, the first of each, in the trip's order.
    var entries: [Entry] = []
    var byID: [String: Int] = [:]
    /// Items dropped because an earlier item has the same id.
    var duplicates: [TripItem] = []
    /// Entries whose end was before their start, with that end.
    var endBeforeStart: [(entry: Int, end: LocalDateTime)] = []
    var unknownZones: [UnknownZone] = []
    /// The trip's dates when valid; `tripEnd` is nil when it is before `tripStart`.
    var tripStart: LocalDate?
    var tripEnd: LocalDate?
    /// The trip's end date when it is before its start.
    var tripEndBeforeStart: LocalDate?
    let travelMode: TravelMode

    init(_ trip: Trip) {
        travelMode = trip.travelMode
        tripStart = trip.startDate.flatMap { $0.isValid ? $0 : nil }
        tripEnd = trip.endDate.flatMap { $0.isValid ? $0 : nil }
        if let start = tripStart, let end = tripEnd, end < start {
            tripEndBeforeStart = end
            tripEnd = nil
        }
        let tripZone = trip.timeZone ?? "UTC"
        var clock = ZonedClock()
        var zoneUses: [String: Int] = [:]
        entries.reserveCapacity(trip.items.count)
        byID.reserveCapacity(trip.items.count)
        for (order, original) in trip.items.enumerated() {
            guard byID[original.id] == nil else {
                duplicates.append(original)
                continue
            }
            var item = original
            item.start = item.start?.validated
            item.end = item.end?.validated
            let zone = item.timeZone ?? tripZone
            let endZone = item.type == .transport ? (item.endTimeZone ?? zone) : zone
            let entry = Entry(item: item, order: order, startZone: zone, endZone: endZone)
            if let start = item.start, start.isTimed, let instant = clock.instant(of: start, in: zone) {
                entry.start = instant.secondsSince1970
            }
            if let end = item.end, end.isTimed, let instant = clock.instant(of: end, in: endZone) {
                entry.end = instant.secondsSince1970
            }
            if let start = item.start, let end = item.end {
                let before: Bool
                if let s = entry.start, let e = entry.end { before = e < s } else { before = end.date < start.date }
                if before {
                    endBeforeStart.append((entries.count, end))
                    entry.item.end = nil
                    entry.end = nil
                }
            }
            if item.start != nil {
                // An end zone only matters for a transport that has an end.
                var names = [(zone, item.timeZone == nil)]
                if item.type == .transport, item.end != nil, let own = item.endTimeZone { names.append((own, false)) }
                for (name, inherited) in names where !TripTime.isKnownZone(name) {
                    noteUnknown(name, isTripZone: inherited, entry: entries.count, uses: &zoneUses)
                }
            }
            byID[item.id] = entries.count
            entries.append(entry)
        }
        if let zone = trip.timeZone, !TripTime.isKnownZone(zone), zoneUses["trip:" + zone] == nil {
            unknownZones.append(UnknownZone(zone: zone, isTripZone: true, entries: []))
        }
    }

    private mutating func noteUnknown(_ zone: String, isTripZone: Bool, entry: Int, uses: inout [String: Int]) {
        let key = (isTripZone ? "trip:" : "item:") + zone
        guard let use = uses[key] else {
            uses[key] = unknownZones.count
            unknownZones.append(UnknownZone(zone: zone, isTripZone: isTripZone, entries: [entry]))
            return
        }
        if unknownZones[use].entries.last != entry { unknownZones[use].entries.append(entry) }
    }
}
