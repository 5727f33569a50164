import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesTestSupport
import Testing

@Suite("Control API", .serialized)
struct ControlAPITests {
    @Test("places: add with every field, show, edit, clear, remove")
    func placesCRUD() async throws {
        let t = try await LoggedInDaemon.start()
        let created = try await t.d.call(
            Place.self, "POST", "/v1/places",
            json: """
                {"name":"Time Out Market","latitude":38.7069,"longitude":-9.1459,"address":"Av. 24 de Julho 49",
                 "categories":["food","market"],"priceLevel":2,"rating":4.4,"notes":"go hungry","url":"https://example.org/m"}
                """)
        #expect(created.categories == ["food", "market"])
        #expect(created.priceLevel == 2 && created.rating == 4.4)
        let shown = try await t.d.call(Place.self, "GET", "/v1/places/\(created.id.prefix(6))")
        #expect(shown == created)
        let edited = try await t.d.call(
            Place.self, "PATCH", "/v1/places/\(created.id)",
            json: #"{"rating":4.8,"notes":null,"name":"Mercado da Ribeira"}"#)
        #expect(edited.rating == 4.8 && edited.notes == nil && edited.name == "Mercado da Ribeira")
        #expect(edited.address == "Av. 24 de Julho 49")
        #expect(try await t.d.send("DELETE", "/v1/places/\(created.id)").status == 204)
        #expect(try await t.d.call(PlaceList.self, "GET", "/v1/places").count == 0)
        #expect(try await t.d.send("GET", "/v1/places/\(created.id)").status == 404)
    }

    @Test("favorites: heart, list in order with count, move, remove")
    func favorites() async throws {
        let t = try await LoggedInDaemon.start()
        let a = try await t.addPlace("A", 1, 1), b = try await t.addPlace("B", 2, 2),
            c = try await t.addPlace("C", 3, 3)
        for p in [a, b, c] {
            _ = try await t.d.call(Favorite.self, "POST", "/v1/favorites", json: #"{"placeId":"\#(p.id)"}"#)
        }
        var list = try await t.d.call(FavoriteList.self, "GET", "/v1/favorites")
        #expect(list.count == 3)
        #expect(list.favorites.map(\.name) == ["A", "B", "C"])
        #expect(list.favorites.map(\.position) == [1, 2, 3])
        list = try await t.d.call(
            FavoriteList.self, "POST", "/v1/favorites/\(list.favorites[2].id)/move", json: #"{"position":1}"#)
        #expect(list.favorites.map(\.name) == ["C", "A", "B"])
        list = try await t.d.call(FavoriteList.self, "POST", "/v1/favorites/\(a.id)/move", json: #"{"position":3}"#)
        #expect(list.favorites.map(\.name) == ["C", "B", "A"])
        let duplicate = try await t.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(b.id)"}"#)
        #expect(duplicate.status == 409)
        #expect(try await t.d.send("DELETE", "/v1/favorites/\(b.id)").status == 204)
        list = try await t.d.call(FavoriteList.self, "GET", "/v1/favorites")
        #expect(list.favorites.map(\.name) == ["C", "A"] && list.count == 2)
        #expect(try await t.d.call(Place.self, "GET", "/v1/places/\(c.id)").favorite)
        #expect(try await t.d.call(Place.self, "GET", "/v1/places/\(b.id)").favorite == false)
        let bad = try await t.d.send("POST", "/v1/favorites/\(a.id)/move", json: #"{"position":9}"#)
        #expect(bad.status == 400 && bad.text.contains("out of range"))
    }

    @Test("itineraries: create with every field, total cost, places to go, edit, activity, delete")
    func itineraries() async throws {
        let t = try await LoggedInDaemon.start()
        let belem = try await t.addPlace("Belém Tower", 38.6916, -9.2160)
        let castle = try await t.addPlace("São Jorge Castle", 38.7139, -9.1335)
        let tram = try await t.addPlace("Tram 28", 38.7114, -9.1366)
        let it = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: """
                {"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-04","transportation":"TP 1234 BER→LIS",
                 "lodging":{"name":"Casa do Bairro","address":"Rua X 1","checkIn":"2027-05-01","checkOut":"2027-05-04"},
                 "travelPrice":{"amountMinor":18999,"currency":"EUR"},"lodgingPrice":{"amountMinor":42000,"currency":"EUR"},
                 "notes":"bring shoes","places":["\(belem.id)","\(castle.id.prefix(8))"]}
                """)
        #expect(it.totalCost == [Money(amountMinor: 60999, currency: "EUR")])
        #expect(it.places.map(\.name) == ["Belém Tower", "São Jorge Castle"])
        #expect(it.lodging?.checkOut == "2027-05-04" && it.role == "owner")

        var now = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries/\(it.id)/places", json: #"{"placeId":"\#(tram.id)","position":1}"#)
        #expect(now.places.map(\.name) == ["Tram 28", "Belém Tower", "São Jorge Castle"])
        now = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries/\(it.id)/places/\(tram.id)/move", json: #"{"position":3}"#)
        #expect(now.places.map(\.name) == ["Belém Tower", "São Jorge Castle", "Tram 28"])
        now = try await t.d.call(Itinerary.self, "DELETE", "/v1/itineraries/\(it.id)/places/\(now.places[0].id)")
        #expect(now.places.map(\.name) == ["São Jorge Castle", "Tram 28"])
        now = try await t.d.call(
            Itinerary.self, "PATCH", "/v1/itineraries/\(it.id.prefix(5))",
            json:
                #"{"name":"Lisbon long weekend","lodgingPrice":{"amountMinor":50000,"currency":"EUR"},"lodging":{"name":"Hotel Avenida"}}"#
        )
        #expect(now.name == "Lisbon long weekend" && now.totalCost == [Money(amountMinor: 68999, currency: "EUR")])
        #expect(now.lodging?.name == "Hotel Avenida" && now.lodging?.address == "Rua X 1")

        let activity = try await t.d.call(ActivityList.self, "GET", "/v1/itineraries/\(it.id)/activity")
        let summaries = activity.activity.map(\.summary)
        #expect(summaries.contains("Ana changed name from “Lisbon” to “Lisbon long weekend”"))
        #expect(summaries.contains("Ana created the itinerary “Lisbon”"))
        #expect(summaries.contains { $0.contains("removed “Belém Tower”") })
        #expect(activity.activity.last?.action == "created", "newest first, creation last")
        let edit = activity.activity.first { $0.field == "lodgingPrice" }
        #expect(edit?.old == Money(amountMinor: 42000, currency: "EUR").jsonValue)

        let list = try await t.d.call(ItineraryList.self, "GET", "/v1/itineraries?scope=mine")
        #expect(list.itineraries.map(\.name) == ["Lisbon long weekend"] && list.itineraries[0].placeCount == 2)
        #expect(try await t.d.call(ItineraryList.self, "GET", "/v1/itineraries?scope=shared").count == 0)
        #expect(try await t.d.send("DELETE", "/v1/itineraries/\(it.id)").status == 204)
        #expect(try await t.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0)
        #expect(try await t.d.send("GET", "/v1/itineraries/\(it.id)").status == 404)
    }

    @Test("rebuilding the materialized tables from the op log gives byte-identical API answers")
    func rebuildIdentical() async throws {
        let t = try await LoggedInDaemon.start()
        var ids = [String]()
        for i in 0..<12 { ids.append(try await t.addPlace("P\(i)", Double(i), Double(-i)).id) }
        for id in ids.prefix(8) { _ = try await t.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(id)"}"#) }
        _ = try await t.d.send("POST", "/v1/favorites/\(ids[5])/move", json: #"{"position":2}"#)
        _ = try await t.d.send("DELETE", "/v1/favorites/\(ids[0])")
        _ = try await t.d.send("PATCH", "/v1/places/\(ids[3])", json: #"{"rating":3.5,"name":"Renamed"}"#)
        let it = try await t.d.call(
            Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Trip","places":["\#(ids[1])","\#(ids[2])"]}"#)
        _ = try await t.d.send("PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"n"}"#)
        let paths = [
            "/v1/places", "/v1/favorites", "/v1/itineraries", "/v1/itineraries/\(it.id)",
            "/v1/itineraries/\(it.id)/activity",
        ]
        let before = try await paths.asyncMap { try await t.d.send("GET", $0).text }
        let rebuilt = try await t.d.send("POST", "/v1/maintenance/rebuild")
        #expect(rebuilt.status == 200)
        for (path, old) in zip(paths, before) {
            #expect(try await t.d.send("GET", path).text == old, "\(path) differs after the rebuild")
        }
        t.d.stop()
        try await t.d.start()
        _ = try await t.d.send("POST", "/v1/login", json: #"{"passphrase":"correct horse"}"#)
        #expect(try await paths.asyncMap { try await t.d.send("GET", $0).text } == before)
    }
}
