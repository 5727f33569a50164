import Testing

@testable import PlacesDestinations

struct SpotOfTheDayTests {
    let places = (0..<12).map { "place-\($0)" }

    /// The same date and destination give the same spot whatever the candidates' order
    /// (another device may list them differently).
    @Test func sameAllDayOnEveryDevice() throws {
        let a = try #require(SpotOfTheDay.pick(date: "2026-11-29", destination: "city:2267057", candidates: places))
        let b = try #require(
            SpotOfTheDay.pick(date: "2026-11-29", destination: "city:2267057", candidates: places.reversed()))
        #expect(places[a] == places.reversed()[b])
    }

    /// Over a month, the spot changes from one day to the next on most days and visits many
    /// of the places (a fixed or two-valued pick would fail).
    @Test func changesFromDayToDay() throws {
        var spots = [String]()
        for day in 1...30 {
            let date = "2026-06-\(day < 10 ? "0" : "")\(day)"
            spots.append(places[try #require(SpotOfTheDay.pick(date: date, destination: "city:1", candidates: places))])
        }
        let changes = zip(spots, spots.dropFirst()).filter { $0 != $1 }.count
        #expect(changes >= 20)
        #expect(Set(spots).count >= 8)
    }

    @Test func noCandidateNoSpot() {
        #expect(SpotOfTheDay.pick(date: "2026-06-01", destination: "x", candidates: []) == nil)
    }
}
