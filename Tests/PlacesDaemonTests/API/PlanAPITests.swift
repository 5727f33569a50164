import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `POST /v1/plans` as a user tries it on one daemon: a weekend from a library of Lisbon
/// places with hours, visit lengths and prices; written as a trip; bad input refused by field
/// with nothing written.
@Suite("Plans API", .serialized)
struct PlanAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    /// Twelve places around Baixa: museums, places to eat, viewpoints; one far away.
    static func library(_ t: LoggedInDaemon) async throws -> [String: String] {
        let places: [(String, Double, Double, String, String?, Int?, Int?)] = [
            ("Castelo de São Jorge", 38.7139, -9.1335, "view", "Mo-Su 09:00-21:00", 90, 1_500),
            ("MUDE", 38.7093, -9.1370, "museum", "Tu-Su 10:00-18:00; Mo off", 75, nil),
            ("Museu do Aljube", 38.7105, -9.1320, "museum", "Tu-Su 10:00-18:00", 60, 300),
            ("Time Out Market", 38.7069, -9.1459, "food", "Su-We 10:00-24:00; Th-Sa 10:00-02:00", 60, nil),
            (
                "Taberna da Rua das Flores", 38.7106, -9.1432, "food", "Mo-Sa 12:00-15:00,18:00-23:00; Su off", 75,
                nil
            ),
            ("Miradouro de Santa Luzia", 38.7118, -9.1300, "view", nil, 20, nil),
            ("Sé de Lisboa", 38.7100, -9.1335, "church", "Mo-Sa 09:30-19:00", 30, 500),
            ("Elevador de Santa Justa", 38.7121, -9.1394, "view", "Mo-Su 07:30-23:00", 20, 530),
            ("Convento do Carmo", 38.7120, -9.1405, "museum", "Mo-Sa 10:00-18:00", 45, 500),
            ("Manteigaria", 38.7107, -9.1440, "food", "Mo-Su 08:00-24:00", 15, 130),
            ("Praça do Comércio", 38.7075, -9.1364, "view", "24/7", 20, nil),
            ("Palácio da Pena", 38.7876, -9.3906, "museum", "Mo-Su 09:30-18:30", 120, 2_000),
        ]
        var ids = [String: String]()
        for (name, lat, lon, category, hours, visit, price) in places {
            var body = #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon),"categories":["\#(category)"]"#
            if let hours { body += #","openingHours":"\#(hours)""# }
            if let visit { body += #","visitMinutes":\#(visit)"# }
            if let price { body += #","entryPrice":{"amountMinor":\#(price),"currency":"EUR"}"# }
            ids[name] = try await t.d.call(Place.self, "POST", "/v1/places", json: body + "}").id
        }
        _ = try await t.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(ids["MUDE"] ?? "")"}"#)
        return ids
    }

    static let weekend = #""near":"38.7118,-9.1380","startDate":"2027-05-01","endDate":"2027-05-03""#

    @Test("a weekend plan: stops open on arrival, days within their hours, budget kept, reasons given")
    func weekend() async throws {
        let t = try await LoggedInDaemon.start()
        let ids = try await Self.library(t)
        let r = try await t.d.send(
            "POST", "/v1/plans",
            json: """
                {\(Self.weekend),"stay":{"latitude":38.7107,"longitude":-9.1365},"dayStart":"09:30",
                 "dayEnd":"19:00","budget":{"amountMinor":3000,"currency":"EUR"},"interests":["food","museum"]}
                """)
        #expect(r.status == 200, "\(r.text)")
        let plan = try Self.json(r)
        let days = plan["days"]?.arrayValue ?? []
        #expect(days.map { $0.objectValue?["date"]?.stringValue } == ["2027-05-01", "2027-05-02", "2027-05-03"])
        var visited = [String]()
        for day in days.compactMap(\.objectValue) {
            for stop in day["stops"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                let arrive = stop["arrive"]?.stringValue ?? ""
                let leave = stop["leave"]?.stringValue ?? ""
                #expect(arrive.hasPrefix(day["date"]?.stringValue ?? "?") && arrive.count == 16)
                #expect(arrive >= "\(arrive.prefix(10))T09:30" && leave <= "\(leave.prefix(10))T19:00")
                #expect((stop["reasons"]?.arrayValue?.count ?? 0) > 0, "every stop says why")
                visited.append(stop["name"]?.stringValue ?? "")
            }
        }
        #expect(visited.count >= 6, "a weekend in Baixa visits something: \(visited)")
        #expect(visited.contains("MUDE"), "the favorite museum is planned (closed only on Mondays)")
        #expect(!visited.contains("Palácio da Pena"), "Sintra is outside the 10 km radius")
        #expect(Set(visited).count == visited.count)
        let cost = plan["cost"]?.objectValue?["amountMinor"]?.intValue ?? .max
        #expect(cost <= 3_000, "the budget is kept")
        #expect(ids.count == 12)

        // The same inputs, the same plan.
        let again = try await t.d.send(
            "POST", "/v1/plans",
            json: """
                {\(Self.weekend),"stay":{"latitude":38.7107,"longitude":-9.1365},"dayStart":"09:30",
                 "dayEnd":"19:00","budget":{"amountMinor":3000,"currency":"EUR"},"interests":["food","museum"]}
                """)
        #expect(again.body == r.body)
    }

    @Test("must, avoid, and a plan written as a trip holds exactly the stops shown")
    func mustAvoidAndCreate() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await Self.library(t)
        let r = try await t.d.send(
            "POST", "/v1/plans",
            json: """
                {\(Self.weekend),"mode":"driving","must":["palácio da pena"],"avoid":["Time Out Market"],
                 "create":"Lisbon weekend"}
                """)
        #expect(r.status == 200, "\(r.text)")
        let plan = try Self.json(r)
        let stops = (plan["days"]?.arrayValue ?? []).flatMap {
            $0.objectValue?["stops"]?.arrayValue?.compactMap(\.objectValue) ?? []
        }
        let names = stops.compactMap { $0["name"]?.stringValue }
        #expect(names.contains("Palácio da Pena"), "the must is planned, outside the radius, by car")
        #expect(!names.contains("Time Out Market"))
        let id = try #require(plan["itinerary"]?.stringValue)
        let items = try Self.json(try await t.d.send("GET", "/v1/itineraries/\(id)/items"))
        let written = (items["items"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(written.count == stops.count, "one item per stop shown")
        #expect(
            Set(written.compactMap { "\($0["title"]?.stringValue ?? "")@\($0["start"]?.stringValue ?? "")" })
                == Set(stops.compactMap { "\($0["name"]?.stringValue ?? "")@\($0["arrive"]?.stringValue ?? "")" }))
        let trip = try await t.d.call(Itinerary.self, "GET", "/v1/itineraries/\(id)")
        #expect(trip.name == "Lisbon weekend" && trip.startDate == "2027-05-01" && trip.endDate == "2027-05-03")
    }

    @Test("bad input names the field and writes nothing; no place in the radius is an empty plan")
    func badInput() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await Self.library(t)
        let cases: [(String, String)] = [
            (#"{\#(Self.weekend),"must":["Eiffel Tower"],"create":"X"}"#, "must[0]"),
            (#"{\#(Self.weekend),"avoid":["nowhere at all"]}"#, "avoid[0]"),
            (#"{"near":"38.71,-9.13","startDate":"2027-05-03","endDate":"2027-05-01","create":"X"}"#, "endDate"),
            (#"{\#(Self.weekend),"dayStart":"18:00","dayEnd":"09:00"}"#, "dayEnd"),
            (#"{\#(Self.weekend),"dayStart":"25:00"}"#, "dayStart"),
            (#"{\#(Self.weekend),"budget":{"amountMinor":100,"currency":"EURO"}}"#, "budget"),
            (#"{\#(Self.weekend),"interests":["opera"],"create":"X"}"#, "interests[0]"),
            (#"{\#(Self.weekend),"mode":"teleport"}"#, "mode"),
            (#"{\#(Self.weekend),"pace":"frantic"}"#, "pace"),
            (#"{\#(Self.weekend),"radiusKm":-1}"#, "radiusKm"),
            (#"{\#(Self.weekend),"stay":{"latitude":91,"longitude":0}}"#, "stay"),
            (#"{\#(Self.weekend),"apply":true}"#, "apply"),
            (#"{\#(Self.weekend),"hotel":"Ritz"}"#, "hotel"),
            (#"{"startDate":"2027-05-01"}"#, "near"),
            (#"{"near":"38.71,-9.13","startDate":"2027-05-01","endDate":"2027-06-30"}"#, "endDate"),
        ]
        for (body, field) in cases {
            let r = try await t.d.send("POST", "/v1/plans", json: body)
            #expect(r.status == 400, "\(body): \(r.text)")
            #expect(try Self.json(r)["field"] == .string(field), "\(body): \(r.text)")
        }
        #expect(try await t.d.call(ItineraryList.self, "GET", "/v1/itineraries").itineraries.isEmpty)
        let unknownTrip = try await t.d.send("POST", "/v1/plans", json: #"{\#(Self.weekend),"itinerary":"abcdef12"}"#)
        #expect(unknownTrip.status == 404)

        let empty = try await t.d.send(
            "POST", "/v1/plans", json: #"{"near":"-33.92,18.42","startDate":"2027-05-01","radiusKm":5}"#)
        #expect(empty.status == 200)
        let plan = try Self.json(empty)
        #expect(plan["days"]?.arrayValue?.first?.objectValue?["stops"]?.arrayValue?.isEmpty == true)
        #expect(plan["note"]?.stringValue?.contains("radius") == true)
    }
}
