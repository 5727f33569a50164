import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The trip folder through the control API, as a user tries it on one daemon: items of each
/// type with every field, legacy lodging and transport shown as items, costs per section,
/// moving between days, the checklist, and places in and out of other tools' files.
@Suite("Trip folder API", .serialized)
struct TripFolderAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    func itinerary(_ t: LoggedInDaemon, _ extra: String = "") async throws -> Itinerary {
        try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json:
                #"{"name":"Portugal","startDate":"2027-05-01","endDate":"2027-05-05","timeZone":"Europe/Lisbon"\#(extra)}"#
        )
    }

    @Test("items of each type with every field: add, show, list, edit, clear, remove")
    func itemsCRUD() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await itinerary(t)
        let base = "/v1/itineraries/\(it.id)/items"
        let hotel = try await t.d.send(
            "POST", base,
            json: """
                {"type":"lodging","title":"Casa Porto","start":"2027-05-03T15:00","end":"2027-05-05T11:00",
                 "location":{"name":"Casa Porto","address":"Rua das Flores 1","latitude":41.1437,"longitude":-8.6131},
                 "confirmationCode":"XK42","contact":"+351 222 000 000","url":"https://example.org/casa",
                 "price":{"amountMinor":24000,"currency":"EUR"},"notes":"late check-in ok"}
                """)
        #expect(hotel.status == 201)
        let h = try Self.json(hotel)
        #expect(h["type"] == .string("lodging") && h["confirmationCode"] == .string("XK42"))
        #expect(h["timeZone"] == .string("Europe/Lisbon"), "a timed item takes the trip's zone")
        #expect(h["location"]?.objectValue?["latitude"] == .number(41.1437))
        let train = try Self.json(
            try await t.d.send(
                "POST", base,
                json: """
                    {"type":"transport","title":"Lisbon → Porto","mode":"train","start":"2027-05-03T09:10",
                     "end":"2027-05-03T12:05","location":{"name":"Santa Apolónia","latitude":38.7137,"longitude":-9.1225},
                     "to":{"name":"Campanhã","latitude":41.1486,"longitude":-8.5853},"carrier":"CP","number":"123",
                     "bookingReference":"ABC123","price":{"amountMinor":2540,"currency":"EUR"}}
                    """))
        #expect(train["to"]?.objectValue?["name"] == .string("Campanhã") && train["mode"] == .string("train"))
        let food = try Self.json(
            try await t.d.send(
                "POST", base,
                json:
                    #"{"type":"food","title":"Ramiro","recommendation":"the prawns","rating":4.5,"start":"2027-05-01T20:00"}"#
            ))
        let tour = try Self.json(
            try await t.d.send(
                "POST", base,
                json: """
                    {"type":"activity","title":"Port cellar tour","description":"Graham's","start":"2027-05-04T15:00",
                     "end":"2027-05-04T16:30","booked":true,"linkedItem":"\(h["id"]?.stringValue ?? "")",
                     "price":{"amountMinor":3000,"currency":"EUR"}}
                    """))
        #expect(tour["booked"] == .bool(true))

        var list = try Self.json(try await t.d.send("GET", base))
        #expect(list["count"] == .int(4))
        let titles = list["items"]?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue }
        #expect(titles == ["Ramiro", "Lisbon → Porto", "Casa Porto", "Port cellar tour"], "by start")
        list = try Self.json(try await t.d.send("GET", "\(base)?type=food"))
        #expect(list["count"] == .int(1))

        let foodID = food["id"]?.stringValue ?? ""
        let shown = try Self.json(try await t.d.send("GET", "\(base)/\(foodID.prefix(6))"))
        #expect(shown == food)
        let edited = try Self.json(
            try await t.d.send("PATCH", "\(base)/\(foodID)", json: #"{"rating":5,"recommendation":null}"#))
        #expect(edited["rating"] == .int(5) && edited["recommendation"] == nil)
        #expect(try await t.d.send("DELETE", "\(base)/\(foodID)").status == 204)
        #expect(try await t.d.send("GET", "\(base)/\(foodID)").status == 404)

        // Costs per section and the total, per currency.
        let after = try await t.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)")
        #expect(after.costs?["lodging"] == [Money(amountMinor: 24_000, currency: "EUR")])
        #expect(after.costs?["transport"] == [Money(amountMinor: 2_540, currency: "EUR")])
        #expect(after.totalCost == [Money(amountMinor: 29_540, currency: "EUR")])
        #expect(after.itemCount == 3)

        // Activity reads in words.
        let activity = try await t.d.call(ActivityList.self, "GET", "/v1/itineraries/\(it.id)/activity")
        let lines = activity.activity.map(\.summary)
        #expect(lines.contains("Ana added the train Lisbon → Porto on 3 May"))
        #expect(lines.contains("Ana removed Ramiro (food) on 1 May"))
    }

    @Test("an existing trip's lodging and transportation show as read-only items and count in costs")
    func legacyItems() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await itinerary(
            t,
            #","lodging":{"name":"Casa do Bairro","checkIn":"2027-05-01","checkOut":"2027-05-03"},"transportation":"TP 1234","travelPrice":{"amountMinor":18999,"currency":"EUR"}"#
        )
        let list = try Self.json(try await t.d.send("GET", "/v1/itineraries/\(it.id)/items"))
        let items = list["items"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(items.map { $0["id"] } == [.string("legacy-lodging"), .string("legacy-transport")])
        #expect(items.allSatisfy { $0["legacy"] == .bool(true) })
        let patch = try await t.d.send(
            "PATCH", "/v1/itineraries/\(it.id)/items/legacy-lodging", json: #"{"title":"x"}"#)
        #expect(patch.status == 409 && patch.text.contains("PATCH /v1/itineraries"))
        let view = try await t.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)")
        #expect(view.itemCount == 2 && view.costs?["transport"] == [Money(amountMinor: 18_999, currency: "EUR")])
    }

    @Test("items move between days and keep their time; places to go get a day")
    func moves() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await itinerary(t)
        let base = "/v1/itineraries/\(it.id)/items"
        let tour = try Self.json(
            try await t.d.send(
                "POST", base,
                json: #"{"type":"activity","title":"Tour","start":"2027-05-02T10:00","end":"2027-05-02T12:00"}"#))
        let id = tour["id"]?.stringValue ?? ""
        let moved = try await t.d.send("POST", "\(base)/\(id)/move", json: #"{"date":"2027-05-04"}"#)
        #expect(moved.status == 200)
        let after = try Self.json(try await t.d.send("GET", "\(base)/\(id)"))
        #expect(after["start"] == .string("2027-05-04T10:00") && after["end"] == .string("2027-05-04T12:00"))
        let place = try await t.addPlace("Livraria Lello", 41.1469, -8.6148)
        let withStop = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries/\(it.id)/places", json: #"{"placeId":"\#(place.id)"}"#)
        let stop = try #require(withStop.places.first)
        #expect(try await t.d.send("POST", "\(base)/\(stop.id)/move", json: #"{"date":"2027-05-03"}"#).status == 200)
        let view = try await t.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)")
        #expect(view.places.first?.day == "2027-05-03")
        // The places-to-go route plans and unplans too (`date`, `null`), and refuses neither.
        let placesMove = "/v1/itineraries/\(it.id)/places/\(stop.id)/move"
        let planned = try await t.d.call(Itinerary.self, "POST", placesMove, json: #"{"date":"2027-05-05"}"#)
        #expect(planned.places.first?.day == "2027-05-05")
        let unplanned = try await t.d.call(Itinerary.self, "POST", placesMove, json: #"{"date":null}"#)
        #expect(unplanned.places.first?.day == nil)
        #expect(try await t.d.send("POST", placesMove, json: #"{"date":"5 May"}"#).status == 400)
        #expect(try await t.d.send("POST", placesMove, json: #"{}"#).status == 400)
        #expect(try await t.d.send("POST", placesMove, json: #"{"date":"2027-05-03"}"#).status == 200)
        let days = try Self.json(try await t.d.send("GET", "/v1/itineraries/\(it.id)/days"))
        let dayOf3 = days["days"]?.arrayValue?.compactMap(\.objectValue).first { $0["date"] == .string("2027-05-03") }
        #expect(dayOf3?["items"]?.arrayValue?.first?.objectValue?["type"] == .string("place"))
        // The list (written from each item's encoded object) and each day alone agree.
        for day in days["days"]?.arrayValue ?? [] {
            let number = day.objectValue?["number"]?.intValue ?? 0
            let alone = try Self.json(try await t.d.send("GET", "/v1/itineraries/\(it.id)/days/\(number)"))
            #expect(JSONValue.object(alone) == day)
        }
    }

    @Test("the checklist: add, assign, tick, reorder, remove")
    func checklist() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await itinerary(t)
        let base = "/v1/itineraries/\(it.id)/checklist"
        let me = try await t.d.call(Profile.self, "GET", "/v1/profile")
        let sunscreen = try Self.json(
            try await t.d.send("POST", base, json: #"{"text":"Sunscreen","list":"Packing","assignee":"\#(me.id)"}"#))
        #expect(sunscreen["checked"] == .bool(false) && sunscreen["assignee"] == .string(me.id))
        _ = try await t.d.send("POST", base, json: #"{"text":"Book the cellar tour","list":"To do"}"#)
        let id = sunscreen["id"]?.stringValue ?? ""
        let ticked = try Self.json(try await t.d.send("PATCH", "\(base)/\(id)", json: #"{"checked":true}"#))
        #expect(ticked["checked"] == .bool(true))
        let reordered = try Self.json(try await t.d.send("POST", "\(base)/\(id)/move", json: #"{"position":2}"#))
        #expect(
            reordered["items"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
                == ["Book the cellar tour", "Sunscreen"])
        #expect(try await t.d.send("DELETE", "\(base)/\(id)").status == 204)
        let list = try Self.json(try await t.d.send("GET", base))
        #expect(list["count"] == .int(1))
        let activity = try await t.d.call(ActivityList.self, "GET", "/v1/itineraries/\(it.id)/activity")
        #expect(activity.activity.map(\.summary).contains("Ana ticked “Sunscreen” on the checklist"))
    }

    @Test("importing places: a Takeout GeoJSON, then the same file again adds nothing; export reads back")
    func importAndExport() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await t.addPlace("Time Out Market", 38.7069, -9.1459)
        let takeout = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","geometry":{"type":"Point","coordinates":[-9.1459,38.70691]},
              "properties":{"google_maps_url":"https://maps.google.com/?cid=1","location":{"name":"Time Out Market","address":"Av. 24 de Julho"}}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[-9.2160,38.6916]},
              "properties":{"google_maps_url":"https://maps.google.com/?cid=2","location":{"name":"Torre de Belém"},"Comment":"at sunset"}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},
              "properties":{"location":{"name":"Somewhere without coordinates"}}}]}
            """
        let first = try await t.d.upload(
            "POST", "/v1/places/import", body: Array(takeout.utf8), contentType: "application/geo+json")
        #expect(first.status == 200)
        let answer = try Self.json(first)
        #expect(answer["imported"] == .int(1) && answer["skipped"] == .int(1))
        #expect(answer["ignored"]?.arrayValue?.count == 1)
        let again = try Self.json(
            try await t.d.upload(
                "POST", "/v1/places/import", body: Array(takeout.utf8), contentType: "application/geo+json"))
        #expect(again["imported"] == .int(0) && again["skipped"] == .int(2))
        let places = try await t.d.call(PlaceList.self, "GET", "/v1/places")
        #expect(places.places.map(\.name).sorted() == ["Time Out Market", "Torre de Belém"])
        #expect(places.places.first { $0.name == "Torre de Belém" }?.notes == "at sunset")

        for format in ["geojson", "kml", "gpx"] {
            let exported = try await t.d.send("GET", "/v1/places/export?format=\(format)")
            #expect(exported.status == 200)
            let back = try await t.d.upload(
                "POST", "/v1/places/import", body: exported.body, contentType: exported.contentType)
            #expect(try Self.json(back)["skipped"] == .int(2), "\(format) reads back as the same places")
        }
        let wrong = try await t.d.upload("POST", "/v1/places/import", body: [1, 2, 3], contentType: "image/png")
        #expect(wrong.status == 415)
        let broken = try await t.d.upload(
            "POST", "/v1/places/import", body: Array("<kml><Placemark>".utf8),
            contentType: "application/vnd.google-earth.kml+xml")
        #expect(broken.status == 400)
        #expect(try await t.d.call(PlaceList.self, "GET", "/v1/places").count == 2, "a refused file adds nothing")
    }
}

extension TripFolderAPITests {
    @Test("a day's route starts and ends at that night's lodging, keeps timed stops in order, in every format")
    func dayRoutes() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await itinerary(t)
        let base = "/v1/itineraries/\(it.id)/items"
        func add(_ json: String) async throws -> String {
            let r = try await t.d.send("POST", base, json: json)
            return try Self.json(r)["id"]?.stringValue ?? ""
        }
        let hotel = try await add(
            #"{"type":"lodging","title":"Casa Porto","start":"2027-05-02T15:00","end":"2027-05-05T11:00","location":{"latitude":41.1437,"longitude":-8.6131}}"#
        )
        let late = try await add(
            #"{"type":"activity","title":"Cellar","start":"2027-05-03T17:00","location":{"latitude":41.1375,"longitude":-8.6139}}"#
        )
        let early = try await add(
            #"{"type":"activity","title":"Lello","start":"2027-05-03T10:00","location":{"latitude":41.1469,"longitude":-8.6148}}"#
        )
        let lunch = try await add(
            #"{"type":"food","title":"Lunch","start":"2027-05-03","location":{"latitude":41.1413,"longitude":-8.6110}}"#
        )
        let r = try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?day=2027-05-03")
        #expect(r.status == 200)
        let plan = try Self.json(r)
        let ids = plan["stops"]?.arrayValue?.compactMap { $0.objectValue?["place"]?.objectValue?["id"]?.stringValue }
        #expect(ids?.first == hotel)
        #expect(Set(ids ?? []) == [hotel, early, late, lunch])
        let order = ids ?? []
        #expect((order.firstIndex(of: early) ?? 9) < (order.firstIndex(of: late) ?? 0), "timed stops in time order")
        #expect(plan["roundTrip"] == .bool(true) && plan["date"] == .string("2027-05-03"))
        let byNumber = try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?day=3")
        #expect(try Self.json(byNumber)["stops"] == plan["stops"], "day 3 is 3 May")
        for format in ["gpx", "svg", "geojson", "gmaps"] {
            #expect(try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?day=3&format=\(format)").status == 200)
        }
        let all = try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?day=all&format=geojson")
        #expect(all.status == 200 && all.text.contains("\"2027-05-03\""))
        #expect(try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?day=all").status == 400)
        #expect(try await t.d.send("GET", "/v1/itineraries/\(it.id)/route?day=2028-01-01").status == 404)
    }

    @Test("the calendar is text/calendar with each timed item in its own zone")
    func calendar() async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await itinerary(t)
        _ = try await t.d.send(
            "POST", "/v1/itineraries/\(it.id)/items",
            json:
                #"{"type":"transport","title":"Lisbon → Tokyo","mode":"flight","start":"2027-05-01T10:00","end":"2027-05-02T07:05","timeZone":"Europe/Lisbon","endTimeZone":"Asia/Tokyo"}"#
        )
        let r = try await t.d.send("GET", "/v1/itineraries/\(it.id)/calendar")
        #expect(r.status == 200 && r.contentType.hasPrefix("text/calendar"))
        #expect(r.text.contains("DTSTART;TZID=Europe/Lisbon:20270501T100000\r\n"))
        #expect(r.text.contains("DTEND;TZID=Asia/Tokyo:20270502T070500\r\n"))
    }
}
