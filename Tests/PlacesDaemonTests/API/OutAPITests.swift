import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `PUT/GET/DELETE /v1/out` on one daemon: the note as written (rounded unless exact, a place
/// as itself, until's bounds), bad input named with nothing written, and ending it.
@Suite("I'm out API", .serialized)
struct OutAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    @Test("a note rounded to about 200 m, a place as itself, bad input named, then stopped")
    func note() async throws {
        let t = try await LoggedInDaemon.start()
        _ = try await t.addPlace("Time Out Market", 38.70697, -9.14583)

        let rounded = try Self.json(
            try await t.d.send(
                "PUT", "/v1/out", json: #"{"latitude":38.71234,"longitude":-9.14321,"note":"  come by  "}"#))
        let lat = try #require(rounded["latitude"]?.doubleValue), lon = try #require(rounded["longitude"]?.doubleValue)
        #expect(lat != 38.71234 && lon != -9.14321, "the position is rounded")
        #expect(abs(lat - 38.71234) <= 0.001 && abs(lon - -9.14321) <= 0.0013, "to the nearest line of the grid")
        #expect(abs((lat / 0.002).rounded() * 0.002 - lat) < 1e-9, "latitude on the 0.002° grid")
        #expect(rounded["exact"] == .bool(false) && rounded["note"] == .string("come by"))
        #expect(rounded["audience"] == .string("friends") && rounded["readers"] == .int(0))
        let since = try #require(rounded["since"]?.stringValue.flatMap(Format.parse))
        let until = try #require(rounded["until"]?.stringValue.flatMap(Format.parse))
        #expect(abs(until.timeIntervalSince(since) - 3 * 3_600) < 2, "three hours by default")

        let exact = try Self.json(
            try await t.d.send("PUT", "/v1/out", json: #"{"latitude":38.71234,"longitude":-9.14321,"exact":true}"#))
        #expect(exact["latitude"] == .number(38.71234) && exact["longitude"] == .number(-9.14321))
        #expect(exact["note"] == .null, "a new note replaces every field")

        let at = Self.iso(Date().addingTimeInterval(2 * 3_600))
        let place = try Self.json(
            try await t.d.send("PUT", "/v1/out", json: #"{"place":"time out market","until":"\#(at)"}"#))
        #expect(place["place"] == .string("Time Out Market") && place["latitude"] == .number(38.70697))
        let mine = try Self.json(try await t.d.send("GET", "/v1/out"))
        #expect(mine["friends"] == .array([]))
        #expect(mine["mine"]?.objectValue?["place"] == .string("Time Out Market"))
        #expect(
            mine["mine"]?.objectValue?["until"]?.stringValue.flatMap(Format.parse)?.timeIntervalSince1970.rounded()
                == Format.parse(at)?.timeIntervalSince1970.rounded())

        let past = Self.iso(Date().addingTimeInterval(-60)), far = Self.iso(Date().addingTimeInterval(25 * 3_600))
        let long = String(repeating: "é", count: 281)
        for (body, field) in [
            (#"{"latitude":38.7}"#, "latitude"), (#"{}"#, "place"), (#"{"latitude":91,"longitude":0}"#, "latitude"),
            (#"{"place":"Nowhere"}"#, "place"),
            (#"{"place":"Time Out Market","latitude":1,"longitude":1}"#, "latitude"),
            (#"{"place":"Time Out Market","until":"\#(past)"}"#, "until"),
            (#"{"place":"Time Out Market","until":"\#(far)"}"#, "until"),
            (#"{"place":"Time Out Market","until":"22:00"}"#, "until"),
            (#"{"place":"Time Out Market","note":"\#(long)"}"#, "note"),
            (#"{"place":"Time Out Market","audience":"only-me"}"#, "audience"),
            (#"{"place":"Time Out Market","audience":"Zorro"}"#, "audience"),
            (#"{"place":"Time Out Market","audience":[]}"#, "audience"),
            (#"{"place":"Time Out Market","audience":["Zorro"]}"#, "audience"),
            (#"{"place":"Time Out Market","exact":"yes"}"#, "exact"), (#"{"place":"x","colour":"red"}"#, "colour"),
        ] {
            let bad = try await t.d.send("PUT", "/v1/out", json: body)
            #expect(bad.status == 400, "\(body)")
            #expect(try Self.json(bad)["field"] == .string(field), "\(body): \(bad.text)")
        }
        let kept = try Self.json(try await t.d.send("GET", "/v1/out"))
        #expect(kept["mine"]?.objectValue?["place"] == .string("Time Out Market"), "bad input changed nothing")
        #expect(try await t.d.send("GET", "/v1/out?near=91,0").status == 400)

        #expect(try Self.json(try await t.d.send("DELETE", "/v1/out"))["stopped"] == .bool(true))
        #expect(try Self.json(try await t.d.send("GET", "/v1/out"))["mine"] == .null)
        #expect(try Self.json(try await t.d.send("DELETE", "/v1/out"))["stopped"] == .bool(false))
    }
}

/// RFC 3339 as the API writes it.
private enum Format {
    static func parse(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = f.date(from: text) { return date }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }
}
