import PlacesTrips
import Testing

@Suite struct LocalDateTimeTests {
    @Test func parsesDatesAndTimesAndRefusesTheRest() {
        #expect(LocalDateTime("2027-05-01T15:00")?.description == "2027-05-01T15:00")
        #expect(LocalDateTime("2027-05-01")?.isTimed == false)
        for bad in ["2027-02-29", "2027-05-01T24:00", "2027-5-1", "2027-05-01T15:00Z", "", "0000-01-01"] {
            #expect(LocalDateTime(bad) == nil, "\(bad)")
        }
        #expect(LocalDate("2028-02-29")?.adding(days: 1).description == "2028-03-01")
        #expect(LocalDate("1970-01-01")?.dayNumber == 0)
    }
}
