// TEMPORARY (lead's stub so the daemon compiles while the trips helper writes the real
// TripDays / TripWarnings / TripCosts; deleted when that branch is merged).
import PlacesModel

public struct TripDay: Sendable, Hashable {
    public var number: Int
    public var date: LocalDate
    public var lodging: String?
    public var items: [String]
}

public struct TripSchedule: Sendable, Hashable {
    public var days: [TripDay]
    public var unscheduled: [String]
}

public struct TripWarning: Sendable, Hashable {
    public var code: String
    public var items: [String]
    public var message: String
}

public enum TripDays {
    public static func plan(_ trip: Trip) -> TripSchedule {
        var byDate = [LocalDate: [String]]()
        var unscheduled = [String]()
        for item in trip.items {
            if let d = item.start?.date { byDate[d, default: []].append(item.id) } else { unscheduled.append(item.id) }
        }
        let dates = byDate.keys.sorted()
        return TripSchedule(
            days: dates.enumerated().map { TripDay(number: $0 + 1, date: $1, lodging: nil, items: byDate[$1] ?? []) },
            unscheduled: unscheduled)
    }
}

public enum TripWarnings {
    public static func check(_ trip: Trip) -> [TripWarning] { [] }
}

public struct TripCosts: Sendable {
    public var sections: [(type: TripItemType, amounts: [Money])]
    public var total: [Money]
    public static func of(_ trip: Trip) -> TripCosts { TripCosts(sections: [], total: []) }
}
