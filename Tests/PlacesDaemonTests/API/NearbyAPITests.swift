import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `GET /v1/nearby` on one daemon: the user's places within the radius, nearest first, with
/// distance, bearing and whether open now; filters; bad parameters named.
@Suite("Nearby API", .serialized)
struct NearbyAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    @Test("nearest first, distance and bearing, radius, category, hours, bad parameters")
    func nearby() async throws {
        let t = try await LoggedInDaemon.start()
        for (name, lat, lon, category, hours) in [
            ("North", 38.7239, -9.1335, "view", "24/7"), ("East", 38.7139, -9.1235, "food", "Mo-Su 00:00-00:01"),
            ("Near", 38.7141, -9.1335, "food", nil), ("Far", 38.80, -9.1335, "view", nil),
        ] {
            var body = #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon),"categories":["\#(category)"]"#
            if let hours { body += #","openingHours":"\#(hours)""# }
            _ = try await t.d.call(Place.self, "POST", "/v1/places", json: body + "}")
        }
        let r = try Self.json(try await t.d.send("GET", "/v1/nearby?near=38.7139,-9.1335&radius=2000"))
        let places = (r["places"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(places.map { $0["name"]?.stringValue } == ["Near", "East", "North"], "nearest first, Far left out")
        let north = try #require(places.last)
        #expect(abs((north["distanceMeters"]?.doubleValue ?? 0) - 1_112) < 5, "0.01° of latitude")
        #expect(north["bearing"]?.doubleValue == 0)
        #expect(abs((places[1]["bearing"]?.doubleValue ?? 0) - 90) < 0.1, "east is 90°")
        #expect(north["openNow"] == .bool(true), "24/7 is open now")
        #expect(places[0]["openNow"] == .null, "no hours: unknown")
        #expect(places[0]["savedBy"]?.arrayValue?.count == 1)

        // The index follows the library: a place added, then removed, after a query.
        let added = try await t.addPlace("Newer", 38.7140, -9.1335)
        let withNewer = try Self.json(try await t.d.send("GET", "/v1/nearby?near=38.7139,-9.1335&radius=2000"))
        #expect(withNewer["places"]?.arrayValue?.first?.objectValue?["name"] == .string("Newer"))
        _ = try await t.d.send("DELETE", "/v1/places/\(added.id)")
        let without = try Self.json(try await t.d.send("GET", "/v1/nearby?near=38.7139,-9.1335&radius=2000"))
        #expect(without["places"]?.arrayValue?.count == 3, "the deleted place is gone")

        let food = try Self.json(try await t.d.send("GET", "/v1/nearby?near=Near&radius=2000&category=Food"))
        #expect(food["places"]?.arrayValue?.count == 2)
        let open = try Self.json(try await t.d.send("GET", "/v1/nearby?near=38.7139,-9.1335&radius=2000&openNow=true"))
        #expect(
            open["places"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }.contains("North") == true)
        let friends = try Self.json(try await t.d.send("GET", "/v1/nearby?near=Near&who=friends"))
        #expect(friends["places"]?.arrayValue?.isEmpty == true, "no friend saved anything")

        for (query, field) in [
            ("", "near"), ("near=91,0", "near"), ("near=Nowhere", "near"), ("near=Near&radius=0", "radius"),
            ("near=Near&radius=60000", "radius"), ("near=Near&radius=nan", "radius"), ("near=Near&limit=0", "limit"),
            ("near=Near&who=Zorro", "who"), ("near=Near&openNow=yes", "openNow"), ("near=Near&color=red", "color"),
        ] {
            let bad = try await t.d.send("GET", "/v1/nearby?\(query)")
            #expect(bad.status == 400, "\(query)")
            #expect(try Self.json(bad)["field"] == .string(field), "\(query): \(bad.text)")
        }
    }
}
