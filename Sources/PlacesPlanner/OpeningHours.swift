/// A place's opening hours, written in the common forms of OpenStreetMap's `opening_hours`
/// syntax (docs/opening-hours.md): `24/7`, weekday selectors (`Mo`, `Mo-Fr`, `Sa,Su`,
/// `Fr-Mo`), time ranges (`09:00-17:00`, `10:00-12:00,14:00-18:00`, `18:00-02:00`),
/// `off`/`closed`, and rules separated by `;` (a later rule replaces earlier ones on the
/// weekdays it names) or `,` (a later rule adds to them).
///
/// Text outside those forms (months, dates, week numbers, `sunrise`, open ends `+`,
/// comments, `||` fallbacks, …) is kept as written and is *unknown*: every query answers
/// nil, never a guess. Public holidays (`PH`) are parsed and their rules ignored: there is
/// no holiday calendar, so a holiday is planned as the weekday it falls on.
public struct OpeningHours: Sendable, Equatable {
    /// The longest text the API accepts (OSM's own limit for a tag value). Callers refuse
    /// longer text; given one anyway, the value is unknown.
    public static let maxLength = 255

    /// The text as written.
    public let text: String

    /// Open ranges per weekday, index 0 = Monday; nil when the text was not understood.
    private let week: [[Range<Int>]]?

    /// Reads `text`. Never fails: text it does not fully understand makes an unknown value.
    public init(_ text: String) {
        self.text = text
        // The byte check first bounds the work on hostile input before counting characters.
        if text.utf8.count > 4 * Self.maxLength || text.count > Self.maxLength {
            week = nil
        } else {
            week = OpeningHoursParser.parse(text)
        }
    }

    /// Whether the text was understood; false means every query answers nil.
    public var isKnown: Bool { week != nil }

    /// Open ranges on an ISO weekday (1 = Monday … 7 = Sunday), in minutes from that day's
    /// midnight, sorted and disjoint (touching ranges are merged); a range may run past 1440
    /// (open past midnight, e.g. 18:00-02:00 → 1080..<1560), never past 2880. Empty when
    /// closed all that day (though the previous day's ranges may run into it). nil when
    /// unknown, or for a weekday outside 1...7.
    public func ranges(isoWeekday: Int) -> [Range<Int>]? {
        guard let week, (1...7).contains(isoWeekday) else { return nil }
        return week[isoWeekday - 1]
    }

    /// Whether open at `minute` (0..<1440) of that weekday, counting the previous day's
    /// ranges that run past midnight. nil when unknown, or for a weekday outside 1...7 or a
    /// minute outside 0..<1440.
    public func isOpen(isoWeekday: Int, minute: Int) -> Bool? {
        guard let today = ranges(isoWeekday: isoWeekday), (0..<1440).contains(minute) else { return nil }
        let previousWeekday = isoWeekday == 1 ? 7 : isoWeekday - 1
        let yesterday = ranges(isoWeekday: previousWeekday) ?? []
        return today.contains { $0.contains(minute) } || yesterday.contains { $0.contains(minute + 1440) }
    }

    /// A short human phrase for a day it is closed, e.g. "closed on Mondays": the day has no
    /// range of its own (the previous night's hours may still run into its early morning).
    /// nil when open that day, unknown, or for a weekday outside 1...7.
    public func closedPhrase(isoWeekday: Int) -> String? {
        guard let today = ranges(isoWeekday: isoWeekday), today.isEmpty else { return nil }
        return "closed on \(Self.pluralDayNames[isoWeekday - 1])"
    }

    static let pluralDayNames = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"]
}
