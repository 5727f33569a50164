import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `POST /v1/plans` attacked as a careless script or a hostile file would: every refusal a
/// 400 naming the field, the daemon still serving and nothing written; dates at the ends of
/// the calendar; a plan applied twice; a library far larger than a plan can weigh.
@Suite("Plans API, hostile input", .serialized)
struct PlanHostileTests {
    static let near = #""near":"38.7118,-9.1380","startDate":"2027-05-01""#

    static func stops(_ plan: [String: JSONValue]) -> [[String: JSONValue]] {
        (plan["days"]?.arrayValue ?? []).flatMap {
            $0.objectValue?["stops"]?.arrayValue?.compactMap(\.objectValue) ?? []
        }
    }

    @Test("wrong types, out-of-range numbers, oversized lists and strings: a 400 naming the field, nothing written")
    func fieldByField() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await PlanAPITests.library(t)
        let long = String(repeating: "é", count: 201)
        let fifty = (0..<51).map { "\"p\($0)\"" }.joined(separator: ",")
        let cases: [(String, String)] = [
            (#"{"near":5}"#, "near"),
            (#"{"near":"nan,nan"}"#, "near"),
            (#"{"near":"0,181"}"#, "near"),
            (#"{"near":"\#(long)"}"#, "near"),
            (#"{\#(Self.near),"radiusKm":"10"}"#, "radiusKm"),
            (#"{\#(Self.near),"radiusKm":1e308}"#, "radiusKm"),
            (#"{\#(Self.near),"radiusKm":0}"#, "radiusKm"),
            (#"{"near":"38.71,-9.13","startDate":"0000-01-01"}"#, "startDate"),
            (#"{"near":"38.71,-9.13","startDate":20270501}"#, "startDate"),
            (#"{"near":"38.71,-9.13","startDate":"2027-02-29"}"#, "startDate"),
            (#"{"near":"38.71,-9.13","startDate":"9999-12-25","endDate":"10000-01-01"}"#, "endDate"),
            (#"{\#(Self.near),"dayStart":"+9:00"}"#, "dayStart"),
            (#"{\#(Self.near),"dayStart":"-0:30"}"#, "dayStart"),
            (#"{\#(Self.near),"dayEnd":"18:+5"}"#, "dayEnd"),
            (#"{\#(Self.near),"dayStart":"09:60"}"#, "dayStart"),
            (#"{\#(Self.near),"dayStart":"24:00"}"#, "dayEnd"),
            (#"{\#(Self.near),"dayEnd":"24:01"}"#, "dayEnd"),
            (#"{\#(Self.near),"budget":{"amountMinor":-1,"currency":"EUR"}}"#, "budget"),
            (#"{\#(Self.near),"budget":{"amountMinor":10000000000000,"currency":"EUR"}}"#, "budget"),
            (#"{\#(Self.near),"budget":{"amountMinor":1.5,"currency":"EUR"}}"#, "budget"),
            (#"{\#(Self.near),"budget":{"amountMinor":"100","currency":"EUR"}}"#, "budget"),
            (#"{\#(Self.near),"budget":1000}"#, "budget"),
            (#"{\#(Self.near),"budget":{"amountMinor":100,"currency":"ZZZ"}}"#, "budget"),
            (#"{\#(Self.near),"budget":{"amountMinor":100,"currency":"XAU"}}"#, "budget"),
            (#"{"near":"38.7118,-9.1380","startDate":"9999-12-31","dayEnd":"24:00"}"#, "dayEnd"),
            (#"{\#(Self.near),"interests":[\#(fifty)]}"#, "interests"),
            (#"{\#(Self.near),"interests":"museum"}"#, "interests"),
            (#"{\#(Self.near),"interests":[5]}"#, "interests[0]"),
            (#"{\#(Self.near),"interests":["museum",""]}"#, "interests[1]"),
            (#"{\#(Self.near),"interests":["ｍｕｓｅｕｍ"]}"#, "interests[0]"),
            (#"{\#(Self.near),"must":[\#(fifty)]}"#, "must"),
            (#"{\#(Self.near),"must":["\#(long)"]}"#, "must[0]"),
            (#"{\#(Self.near),"avoid":[{"id":"x"}]}"#, "avoid[0]"),
            (#"{\#(Self.near),"timeBudgetMs":0}"#, "timeBudgetMs"),
            (#"{\#(Self.near),"timeBudgetMs":1e300}"#, "timeBudgetMs"),
            (#"{\#(Self.near),"timeBudgetMs":"5"}"#, "timeBudgetMs"),
            (#"{\#(Self.near),"apply":"yes"}"#, "apply"),
            (#"{\#(Self.near),"create":"\#(long)"}"#, "create"),
            (#"{\#(Self.near),"create":""}"#, "create"),
            (#"{\#(Self.near),"create":"   "}"#, "create"),
            (#"{\#(Self.near),"stay":""}"#, "stay"),
            (#"{\#(Self.near),"stay":"\#(long)"}"#, "stay"),
            (#"{\#(Self.near),"stay":{"latitude":"nan","longitude":0}}"#, "stay"),
            (#"{\#(Self.near),"stay":{"latitude":1,"longitude":2,"x":3}}"#, "stay"),
            (#"{\#(Self.near),"stay":[38.7,-9.1]}"#, "stay"),
            (#"{\#(Self.near),"mode":5}"#, "mode"),
            (#"{\#(Self.near),"pace":true}"#, "pace"),
            (#"{\#(Self.near),"itinerary":5}"#, "itinerary"),
        ]
        for (body, field) in cases {
            let r = try await t.d.send("POST", "/v1/plans", json: body)
            #expect(r.status == 400, "\(body.prefix(120)): \(r.text.prefix(300))")
            #expect(try PlanAPITests.json(r)["field"] == .string(field), "\(body.prefix(120)): \(r.text.prefix(300))")
        }
        // A 10 MB string and JSON nested far deeper than any body: refused, the daemon serves on.
        let huge = #"{"near":"\#(String(repeating: "a", count: 10_000_000))"}"#
        let hugeAnswer = try await t.d.send("POST", "/v1/plans", json: huge)
        #expect([400, 413].contains(hugeAnswer.status), "\(hugeAnswer.status)")
        let deep = #"{"near":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let deepAnswer = try await t.d.send("POST", "/v1/plans", json: deep)
        #expect(deepAnswer.status == 400, "\(deepAnswer.status)")
        #expect(try await t.d.call(ItineraryList.self, "GET", "/v1/itineraries").itineraries.isEmpty)
        #expect(try await t.d.call(PlaceList.self, "GET", "/v1/places").count == 12, "still serving, nothing written")
    }

    @Test("dates at the ends of the calendar plan and write without a wrong day; 24:00 ends a day")
    func calendarEdges() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await PlanAPITests.library(t)
        // 0001-01-01 was a Monday (proleptic Gregorian): MUDE is closed on Mondays.
        let first = try PlanAPITests.json(
            try await t.d.send(
                "POST", "/v1/plans",
                json: #"{"near":"38.7118,-9.1380","startDate":"0001-01-01","interests":["museum"]}"#))
        #expect(first["days"]?.arrayValue?.first?.objectValue?["date"] == .string("0001-01-01"))
        #expect(!Self.stops(first).contains { $0["name"] == .string("MUDE") }, "closed on Mondays")
        #expect(Self.stops(first).allSatisfy { $0["arrive"]?.stringValue?.hasPrefix("0001-01-01T") == true })

        // 24:00 on the last day there is would be written as 10000-01-01T00:00.
        let midnight = try await t.d.send(
            "POST", "/v1/plans",
            json: """
                {"near":"38.7118,-9.1380","startDate":"9999-12-18","endDate":"9999-12-31","dayStart":"20:00",
                 "dayEnd":"24:00","create":"The end of time"}
                """)
        let midnightField = try PlanAPITests.json(midnight)["field"]
        #expect(midnight.status == 400 && midnightField == .string("dayEnd"))
        #expect(try await t.d.call(ItineraryList.self, "GET", "/v1/itineraries").itineraries.isEmpty)
        let last = try await t.d.send(
            "POST", "/v1/plans",
            json: """
                {"near":"38.7118,-9.1380","startDate":"9999-12-18","endDate":"9999-12-31","dayStart":"20:00",
                 "dayEnd":"23:59","create":"The end of time"}
                """)
        #expect(last.status == 200, "\(last.text.prefix(300))")
        let plan = try PlanAPITests.json(last)
        let dates = plan["days"]?.arrayValue?.compactMap { $0.objectValue?["date"]?.stringValue } ?? []
        #expect(dates.count == 14 && dates.last == "9999-12-31")
        for stop in Self.stops(plan) {
            let arrive = stop["arrive"]?.stringValue ?? ""
            #expect(arrive >= "9999-12-18T20:00" && arrive <= "9999-12-31T23:59", "\(arrive)")
            #expect((stop["leave"]?.stringValue ?? "") <= "9999-12-31T23:59")
            #expect(!arrive.hasPrefix("1970"), "no day falls back to 1970")
        }
        let id = try #require(plan["itinerary"]?.stringValue)
        let items = try PlanAPITests.json(try await t.d.send("GET", "/v1/itineraries/\(id)/items"))
        #expect(items["items"]?.arrayValue?.count == Self.stops(plan).count, "every stop written")
        #expect(!Self.stops(plan).isEmpty, "the Time Out Market is open late")

        // An ordinary day ending at 24:00: a visit to midnight is written ending the next day at 00:00.
        let late = try await t.d.send(
            "POST", "/v1/plans",
            json:
                #"{"near":"38.7118,-9.1380","startDate":"2027-05-01","dayStart":"21:00","dayEnd":"24:00","create":"Late"}"#
        )
        #expect(late.status == 200, "\(late.text.prefix(300))")
        let lateID = try #require(try PlanAPITests.json(late)["itinerary"]?.stringValue)
        let lateItems = try PlanAPITests.json(try await t.d.send("GET", "/v1/itineraries/\(lateID)/items"))
        #expect(lateItems["items"]?.arrayValue?.count == Self.stops(try PlanAPITests.json(late)).count)
    }

    @Test("a zero budget plans only free places; 10^12 is no limit; interests match whatever their case and accents")
    func budgetAndInterests() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await PlanAPITests.library(t)
        let zero = try PlanAPITests.json(
            try await t.d.send(
                "POST", "/v1/plans",
                json: #"{\#(Self.near),"budget":{"amountMinor":0,"currency":"EUR"},"interests":[" MUSÉUM "]}"#))
        #expect(zero["cost"]?.objectValue?["amountMinor"] == .int(0))
        #expect(!Self.stops(zero).isEmpty && Self.stops(zero).allSatisfy { $0["cost"] == nil })
        let rich = try await t.d.send(
            "POST", "/v1/plans", json: #"{\#(Self.near),"budget":{"amountMinor":1000000000000,"currency":"EUR"}}"#)
        #expect(rich.status == 200, "\(rich.text.prefix(300))")
        let noBudget = try await t.d.send("POST", "/v1/plans", json: #"{\#(Self.near)}"#)
        #expect(Self.stops(try PlanAPITests.json(rich)).count == Self.stops(try PlanAPITests.json(noBudget)).count)
    }

    @Test("applying the same plan twice does not visit a place twice")
    func applyTwice() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await PlanAPITests.library(t)
        let trip = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-02"}"#)
        let body = #"{"near":"38.7118,-9.1380","itinerary":"\#(trip.id)","apply":true}"#
        let once = try await t.d.send("POST", "/v1/plans", json: body)
        #expect(once.status == 200, "\(once.text.prefix(300))")
        let twice = try await t.d.send("POST", "/v1/plans", json: body)
        #expect(twice.status == 200, "\(twice.text.prefix(300))")
        let names = Self.stops(try PlanAPITests.json(twice)).compactMap { $0["name"]?.stringValue }
        #expect(Set(names).count == names.count, "each place once in the second plan: \(names.sorted())")
        let items = try PlanAPITests.json(try await t.d.send("GET", "/v1/itineraries/\(trip.id)/items"))
        let titles = (items["items"]?.arrayValue ?? []).compactMap { $0.objectValue?["title"]?.stringValue }
        #expect(!titles.isEmpty && Set(titles).count == titles.count, "no place written twice: \(titles.sorted())")
    }
}

extension PlanHostileTests {
    /// A GeoJSON file of `count` places on a grid ~20 m apart around Baixa.
    static func manyPlaces(_ count: Int) -> String {
        let features = (0..<count).map { i in
            let lat = 38.70 + Double(i / 40) * 0.0002
            let lon = -9.15 + Double(i % 40) * 0.0002
            return
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"Spot \#(i)"}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    @Test("a library far larger than a plan weighs: the plan answers in seconds, musts kept, the daemon serving")
    func largeLibrary() async throws {
        let t = try await LoggedInDaemon.start()
        let count = 1_500
        let imported = try await t.d.upload(
            "POST", "/v1/places/import", body: Array(Self.manyPlaces(count).utf8), contentType: "application/geo+json")
        #expect(try PlanAPITests.json(imported)["imported"] == .int(Int64(count)), "\(imported.text.prefix(200))")
        _ = try await t.addPlace("Palácio da Pena", 38.7876, -9.3906)
        let started = ContinuousClock.now
        let r = try await t.d.send(
            "POST", "/v1/plans",
            json: #"{"near":"38.7030,-9.1460","startDate":"2027-05-01","mode":"driving","must":["palacio da pena"]}"#)
        let took = ContinuousClock.now - started
        #expect(r.status == 200, "\(r.text.prefix(300))")
        let plan = try PlanAPITests.json(r)
        let weighed = plan["candidates"]?.intValue ?? .max
        #expect(weighed <= 501, "a plan weighs the best 500 and the must, not all \(count + 1): \(weighed)")
        #expect(Self.stops(plan).contains { $0["name"] == .string("Palácio da Pena") })
        #expect(took < .seconds(60), "\(took)")
        #expect(try await t.d.call(PlaceList.self, "GET", "/v1/places").count == count + 1)
    }
}

extension PlanHostileTests {
    @Test("applying days outside the itinerary's dates: all of the plan is written, or none of it")
    func applyOutsideTheTrip() async throws {
        let t = try await LoggedInDaemon.start()
        let ids = try await PlanAPITests.library(t)
        let trip = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-02"}"#)
        _ = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries/\(trip.id)/places",
            json: #"{"placeId":"\#(ids["Castelo de São Jorge"] ?? "")"}"#)
        let r = try await t.d.send(
            "POST", "/v1/plans",
            json: """
                {"near":"38.7118,-9.1380","itinerary":"\(trip.id)","startDate":"2027-06-10","endDate":"2027-06-11",
                 "apply":true}
                """)
        let items = try PlanAPITests.json(try await t.d.send("GET", "/v1/itineraries/\(trip.id)/items"))
        let written = items["items"]?.arrayValue?.count ?? -1
        if r.status == 200 {
            let stops = Self.stops(try PlanAPITests.json(r))
            #expect(stops.contains { $0["name"] == .string("Castelo de São Jorge") }, "the place to go is kept")
            #expect(written == stops.count - 1, "every new visit written: \(written) of \(stops.count - 1)")
            let after = try await t.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)")
            #expect(after.places.first?.day == "2027-06-10" || after.places.first?.day == "2027-06-11")
        } else {
            #expect(r.status == 400, "\(r.text.prefix(300))")
            #expect(written == 0, "refused, yet \(written) items were written: \(r.text.prefix(200))")
        }
    }
}

extension PlanHostileTests {
    @Test("avoiding a place by name avoids every place of that name, not only the first")
    func avoidByName() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await PlanAPITests.library(t)
        // A second save of the same market, 400 m away (another entrance, a typo'd pin).
        _ = try await t.addPlace("Time Out Market", 38.7105, -9.1420)
        let r = try await t.d.send(
            "POST", "/v1/plans",
            json:
                #"{"near":"38.7118,-9.1380","startDate":"2027-05-01","endDate":"2027-05-02","avoid":["time out market"]}"#
        )
        #expect(r.status == 200, "\(r.text.prefix(300))")
        let names = Self.stops(try PlanAPITests.json(r)).compactMap { $0["name"]?.stringValue }
        #expect(!names.isEmpty && !names.contains("Time Out Market"), "\(names)")
    }
}
