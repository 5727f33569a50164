import Testing

@testable import PlacesModel

/// The one rule for every time and date a peer gives (`Protocol/op-format.md` §5 "Dates and
/// times"): a real instant in 1970…9999, a real calendar date, never only the right shape.
@Suite struct DateRuleTests {
    @Test(
        "real instants in range are taken, with their value",
        arguments: [
            ("1970-01-01T00:00:00Z", Int64(0)),
            ("2026-11-28T15:39:22.123Z", Int64(1_795_880_362_123)),
            ("2026-11-28T15:39:22.1Z", Int64(1_795_880_362_100)),
            ("2026-11-28T16:39:22.123456789+01:00", Int64(1_795_880_362_123)),
            ("2026-11-28T10:09:22.123-05:30", Int64(1_795_880_362_123)),
            ("2028-02-29T00:00:00Z", Int64(1_835_395_200_000)),
            ("9999-12-31T23:59:59.999Z", OpRules.maxTimeMs),
        ])
    func takesRealInstants(_ text: String, _ ms: Int64) {
        #expect(FieldRule.timestampMs(text) == ms)
        #expect(FieldRule.isTimestamp(text))
    }

    @Test(
        "impossible or out-of-range times are refused",
        arguments: [
            "0000-01-01T00:00:00Z",  // year 0, and before 1970
            "1969-12-31T23:59:59.999Z",  // before 1970
            "1970-01-01T00:30:00+01:00",  // 1969 in UTC
            "9999-12-31T23:59:59-01:00",  // year 10000 in UTC
            "2027-02-30T10:00:00Z",  // no February 30
            "2026-02-29T10:00:00Z",  // not a leap year
            "2100-02-29T10:00:00Z",  // a century that is not a leap year
            "2026-13-01T10:00:00Z",  // month 13
            "2026-00-10T10:00:00Z",  // month 0
            "2026-01-00T10:00:00Z",  // day 0
            "2026-06-01T24:00:00Z",  // hour 24
            "2026-06-01T12:60:00Z",  // minute 60
            "2026-06-01T23:59:60Z",  // a leap second
            "2026-06-01T12:00:00+24:00",  // offset of a day
            "2026-06-01T12:00:00+05:60",  // offset minute 60
            "2026-06-01T12:00:00",  // no zone
            "2026-06-01T12:00:00.Z",  // a dot without digits
            "2026-06-01T12:00:00.1234567890Z",  // ten fraction digits
            "2026-06-01T12:00:00Z+",  // trailing byte
            "2026-06-01 12:00:00Z",  // a space for T
            "+026-06-01T12:00:00Z",  // a sign in the year
            "2026-6-01T12:00:00Z0",  // a one-digit month
            "2026-06-01T1:00:00ZZZ",  // a one-digit hour
            "2026-06-01t12:00:00z",  // lower case
            "20260601T120000Z000",  // the basic format
        ])
    func refusesImpossibleTimes(_ text: String) {
        #expect(FieldRule.timestampMs(text) == nil)
        #expect(throws: FieldError.self) { try FieldRule.timestamp.validate("postedAt", .string(text)) }
    }

    @Test(
        "calendar dates are real dates of the years 0001–9999",
        arguments: [
            ("2026-11-28", true), ("0001-01-01", true), ("9999-12-31", true), ("2028-02-29", true),
            ("2027-02-30", false), ("0000-01-01", false), ("2026-02-29", false), ("2026-04-31", false),
            ("+123-01-01", false), ("2026-1-011", false), ("2026-01-1 ", false), ("2026/01/01", false),
        ])
    func calendarDates(_ text: String, _ valid: Bool) {
        #expect(FieldRule.isDate(text) == valid)
        #expect(FieldRule.isLocalDateTime(text) == valid)
        #expect(FieldRule.isLocalDateTime(text + "T09:30") == valid)
    }
}
