import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// A place's opening hours, visit length and entry price (issue 31) through the control API:
/// set, shown, changed, cleared, refused with the field named, and carried by imports and
/// exports.
@Suite("Place fields for the planner", .serialized)
struct PlaceFieldsAPITests {
    static func problemField(_ r: InProcessClient.Response) throws -> String? {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else { return nil }
        return o["field"]?.stringValue
    }

    @Test("hours, visit length and entry price: add, show, edit, clear")
    func roundTrip() async throws {
        let t = try await LoggedInDaemon.start()
        let museum = try await t.d.call(
            Place.self, "POST", "/v1/places",
            json: """
                {"name":"Museu Gulbenkian","latitude":38.7374,"longitude":-9.1542,"categories":["museum"],
                 "openingHours":"We-Mo 10:00-18:00; Tu off","visitMinutes":120,
                 "entryPrice":{"amountMinor":1500,"currency":"EUR"}}
                """)
        #expect(museum.openingHours == "We-Mo 10:00-18:00; Tu off")
        #expect(museum.visitMinutes == 120)
        #expect(museum.entryPrice == Money(amountMinor: 1500, currency: "EUR"))
        let shown = try await t.d.call(Place.self, "GET", "/v1/places/\(museum.id)")
        #expect(shown == museum)

        // Text the planner does not understand is kept as written.
        let odd = "Jan-Mar Sa 10:00-sunset \"by appointment\""
        let edited = try await t.d.call(
            Place.self, "PATCH", "/v1/places/\(museum.id)",
            json: #"{"openingHours":"\#(odd.replacingOccurrences(of: "\"", with: "\\\""))","visitMinutes":90}"#)
        #expect(edited.openingHours == odd && edited.visitMinutes == 90 && edited.entryPrice == museum.entryPrice)

        let cleared = try await t.d.call(
            Place.self, "PATCH", "/v1/places/\(museum.id)",
            json: #"{"openingHours":null,"visitMinutes":null,"entryPrice":null}"#)
        #expect(cleared.openingHours == nil && cleared.visitMinutes == nil && cleared.entryPrice == nil)
        let raw = try await t.d.send("GET", "/v1/places/\(museum.id)")
        #expect(!raw.text.contains("openingHours"), "a cleared field is absent, as the others are")
    }

    @Test("out-of-range visit lengths, bad prices and over-long hours are refused by field, nothing written")
    func badValues() async throws {
        let t = try await LoggedInDaemon.start()
        let place = try await t.addPlace("Castelo", 38.7139, -9.1335)
        let cases: [(String, String)] = [
            (#"{"visitMinutes":4}"#, "visitMinutes"),
            (#"{"visitMinutes":721}"#, "visitMinutes"),
            (#"{"visitMinutes":30.5}"#, "visitMinutes"),
            (#"{"visitMinutes":"60"}"#, "visitMinutes"),
            (#"{"entryPrice":{"amountMinor":100,"currency":"EURO"}}"#, "entryPrice"),
            (#"{"entryPrice":{"amountMinor":-1,"currency":"EUR"}}"#, "entryPrice"),
            (#"{"entryPrice":12}"#, "entryPrice"),
            (#"{"openingHours":"\#(String(repeating: "Mo 09:00-10:00;", count: 18))"}"#, "openingHours"),
            (#"{"openingHours":42}"#, "openingHours"),
        ]
        for (body, field) in cases {
            let r = try await t.d.send("PATCH", "/v1/places/\(place.id)", json: body)
            #expect(r.status == 400, "\(body)")
            #expect(try Self.problemField(r) == field, "\(body): \(r.text)")
        }
        let after = try await t.d.call(Place.self, "GET", "/v1/places/\(place.id)")
        #expect(after == place, "nothing was written")
        let created = try await t.d.send(
            "POST", "/v1/places", json: #"{"name":"X","latitude":1,"longitude":2,"visitMinutes":0}"#)
        #expect(created.status == 400)
        #expect(try await t.d.call(PlaceList.self, "GET", "/v1/places").count == 1)
    }

    @Test("opening hours come in with a GeoJSON or KML file and go out with an export")
    func importExport() async throws {
        let t = try await LoggedInDaemon.start()
        let overpass = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"node/1","geometry":{"type":"Point","coordinates":[-9.1459,38.7069]},
              "properties":{"name":"Time Out Market","opening_hours":"Su-We 10:00-24:00; Th-Sa 10:00-02:00"}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[-9.2160,38.6916]},
              "properties":{"name":"Torre de Belém","opening_hours":"\(String(repeating: "Tu-Su 10:00-17:30;", count: 20))"}}]}
            """
        let imported = try await t.d.upload(
            "POST", "/v1/places/import", body: Array(overpass.utf8), contentType: "application/geo+json")
        #expect(imported.status == 200)
        var places = try await t.d.call(PlaceList.self, "GET", "/v1/places").places
        #expect(places.first { $0.name == "Time Out Market" }?.openingHours == "Su-We 10:00-24:00; Th-Sa 10:00-02:00")
        #expect(
            places.first { $0.name == "Torre de Belém" }?.openingHours == nil,
            "hours over 255 characters are dropped, the place is kept")

        for format in ["geojson", "kml"] {
            let exported = try await t.d.send("GET", "/v1/places/export?format=\(format)")
            #expect(exported.text.contains("Su-We 10:00-24:00; Th-Sa 10:00-02:00"), "\(format)")
            let fresh = try await LoggedInDaemon.start()
            _ = try await fresh.d.upload(
                "POST", "/v1/places/import", body: exported.body, contentType: exported.contentType)
            places = try await fresh.d.call(PlaceList.self, "GET", "/v1/places").places
            #expect(
                places.first { $0.name == "Time Out Market" }?.openingHours == "Su-We 10:00-24:00; Th-Sa 10:00-02:00",
                "\(format) reads back with its hours")
        }
    }
}
