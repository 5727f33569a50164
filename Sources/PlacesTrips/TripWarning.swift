/// One problem found in a trip: what `GET /v1/itineraries/{id}/warnings` lists.
public struct TripWarning: Sendable, Hashable {
    /// What kind of problem (docs/trips.md, "Warnings"): `lodging-overlap`,
    /// `night-without-lodging`, `time-overlap`, `outside-trip`, `transport-late`,
    /// `tight-connection`, `end-before-start`, `unknown-time-zone`, `dangling-link`,
    /// `duplicate-id`, `day-limit`.
    public var code: String
    /// The ids of the items involved, in the order the message names them (empty for a
    /// problem of the trip itself, such as a night without lodging).
    public var items: [String]
    /// What is wrong, naming the items by title, and what to fix.
    public var message: String

    /// A warning from its parts.
    public init(code: String, items: [String], message: String) {
        self.code = code
        self.items = items
        self.message = message
    }
}

/// The warning codes, in one place so that the rules and the docs agree.
enum WarningCode {
    static let lodgingOverlap = "lodging-overlap"
    static let nightWithoutLodging = "night-without-lodging"
    static let timeOverlap = "time-overlap"
    static let outsideTrip = "outside-trip"
    static let transportLate = "transport-late"
    static let tightConnection = "tight-connection"
    static let endBeforeStart = "end-before-start"
    static let unknownTimeZone = "unknown-time-zone"
    static let danglingLink = "dangling-link"
    static let duplicateID = "duplicate-id"
    static let dayLimit = "day-limit"
}

/// Warnings gathered by the rules, then put in order (by date, then code, then ids; the
/// trip's dateless problems last) and bounded: at most ``limitPerCode`` of one code, then
/// one warning saying how many more there are, so that 10,000 clashing items make a list a
/// person can read (and a response that stays small).
struct WarningList {
    static let limitPerCode = 100

    private var pending: [(day: Int, warning: TripWarning)] = []

    mutating func add(_ code: String, on date: LocalDate?, _ items: [String], _ message: String) {
        pending.append((date.map(\.dayNumber) ?? Int.max, TripWarning(code: code, items: items, message: message)))
    }

    func finished() -> [TripWarning] {
        let sorted = pending.sorted { a, b in
            if a.day != b.day { return a.day < b.day }
            if a.warning.code != b.warning.code {
                return a.warning.code.utf8.lexicographicallyPrecedes(b.warning.code.utf8)
            }
            if a.warning.items != b.warning.items {
                return a.warning.items.lexicographicallyPrecedes(b.warning.items) {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
            }
            return a.warning.message.utf8.lexicographicallyPrecedes(b.warning.message.utf8)
        }
        var counts: [String: Int] = [:]
        var result: [TripWarning] = []
        for (_, warning) in sorted {
            let count = counts[warning.code, default: 0] + 1
            counts[warning.code] = count
            if count <= WarningList.limitPerCode { result.append(warning) }
        }
        for (code, count) in counts.sorted(by: { $0.key < $1.key }) where count > WarningList.limitPerCode {
            let more = count - WarningList.limitPerCode
            result.append(
                TripWarning(
                    code: code, items: [],
                    message: "…and \(more) more \(code) warning\(more == 1 ? "" : "s") not listed: "
                        + "fix the ones above, then check again"))
        }
        return result
    }
}
