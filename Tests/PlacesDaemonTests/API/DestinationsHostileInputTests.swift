import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Hostile input to the destinations API (issue 33): weather URLs that are not what they
/// look like, queries that are one "character" and 60 KB, positions off the globe. Each is
/// a 400 naming its field, and nothing changes.
@Suite("Destinations API: hostile input", .serialized)
struct DestinationsHostileInputTests {
    typealias Object = DestinationsAPITests.Object

    func start() async throws -> LoggedInDaemon {
        let clock = DestinationsAPITests.Clock()
        clock.set("2026-07-10T10:00:00Z")
        return try await DestinationsAPITests.start(clock)
    }

    func problem(_ r: InProcessClient.Response) -> Object { (try? DestinationsAPITests.json(r)) ?? [:] }

    @Test("weather URLs: other schemes, user info, two ports, a signed port, 10,000 characters, controls: refused")
    func weatherURLs() async throws {
        let t = try await start()
        let good = "http://127.0.0.1:9/forecast"
        _ = try await t.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(good)"}"#)
        let long = "http://example.com/" + String(repeating: "a", count: 10_000)
        for bad in [
            "file:///etc/passwd", "javascript:alert(1)", "ftp://example.com/", "http:/example.com/", "//example.com/",
            "http://user@example.com/", "https://user:pw@example.com/", "http://example.com@10.0.0.1/",
            "http://1.2.3.4:80:90/", "http://example.com:+80/", "http://example.com:-1/", "http://example.com:99999/",
            "http://[::1/", "http://exämple.com/", "http://example.com/a b", "http://example.com/\\u0000",
            "http://example.com/\\r\\nX-Injected: 1", "http://:80/", long,
        ] {
            let r = try await t.d.send(
                "PUT", "/v1/preferences", json: #"{"weatherSource":\#(Self.jsonString(bad))}"#)
            #expect(r.status == 400, "\(bad.prefix(60)): \(r.status)")
            #expect(problem(r)["field"] == .string("weatherSource"), "\(bad.prefix(60)): \(r.text.prefix(200))")
        }
        #expect(try await t.d.call(Preferences.self, "GET", "/v1/preferences").weatherSource == good, "unchanged")
        for odd in [#"{"weatherSource":5}"#, #"{"weatherSource":["http://a/"]}"#, #"{"weatherSource":{}}"#] {
            #expect(
                problem(try await t.d.send("PUT", "/v1/preferences", json: odd))["field"] == .string("weatherSource"))
        }
    }

    /// `text` as a JSON string (the escapes in the list above stay escapes).
    static func jsonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    @Test("destination queries: one character of 60 KB, control characters, wrong types, two fields: 400, quickly")
    func queries() async throws {
        let t = try await start()
        let heavy = "a" + String(repeating: "\u{0301}", count: 30_000)  // one grapheme, 60 KB
        // The gazetteer loads on the first request: not timed.
        _ = try await t.d.send("POST", "/v1/destinations", json: #"{"gazetteerId":"city:0"}"#)
        for (body, field) in [
            (#"{"query":"\#(heavy)"}"#, "query"), (#"{"place":"\#(heavy)"}"#, "place"),
            (#"{"gazetteerId":"\#(heavy)"}"#, "gazetteerId"), (#"{"query":5}"#, "query"),
            (#"{"query":"Lisbon","place":"x"}"#, "query"), (#"{"gazetteerId":"../../etc/passwd"}"#, "gazetteerId"),
            (#"{"query":""}"#, "query"), (#"{"query":"\u0000\u0001"}"#, "query"),
        ] {
            let started = ContinuousClock.now
            let r = try await t.d.send("POST", "/v1/destinations", json: body)
            #expect(r.status == 400, "\(body.prefix(60)): \(r.status)")
            #expect(problem(r)["field"] == .string(field), "\(body.prefix(60)): \(r.text.prefix(200))")
            #expect(r.body.count < 4_096, "the error does not echo the input back: \(r.body.count) bytes")
            #expect(ContinuousClock.now - started < .seconds(2), "\(body.prefix(40))")
        }
        let listed = try DestinationsAPITests.json(try await t.d.send("GET", "/v1/destinations"))
        #expect(listed["destinations"] == .array([]), "nothing was added")
    }

    @Test("here: off the globe, infinite, strings, half a position, both kinds: 400 naming the field; here unchanged")
    func here() async throws {
        let t = try await start()
        _ = try await t.d.send("PUT", "/v1/here", json: #"{"latitude":38.72,"longitude":-9.14}"#)
        let heavy = "a" + String(repeating: "\u{0301}", count: 30_000)
        for (body, field) in [
            (#"{"latitude":1e999,"longitude":0}"#, "latitude"), (#"{"latitude":0,"longitude":-1e999}"#, "longitude"),
            (#"{"latitude":90.000001,"longitude":0}"#, "latitude"), (#"{"latitude":0,"longitude":180.5}"#, "longitude"),
            (#"{"latitude":"38","longitude":"-9"}"#, "latitude"), (#"{"latitude":true,"longitude":0}"#, "latitude"),
            (#"{"latitude":38}"#, "longitude"), (#"{"latitude":38,"longitude":-9,"place":"x"}"#, "place"),
            (#"{"place":"\#(heavy)"}"#, "place"), (#"{"altitude":3}"#, "altitude"),
        ] {
            let r = try await t.d.send("PUT", "/v1/here", json: body)
            #expect(r.status == 400, "\(body.prefix(60)): \(r.status)")
            #expect(problem(r)["field"] == .string(field), "\(body.prefix(60)): \(r.text.prefix(200))")
            #expect(r.body.count < 4_096)
        }
        let here = try DestinationsAPITests.json(try await t.d.send("GET", "/v1/dashboard/here"))
        #expect(here["latitude"] == .number(38.72) && here["name"] == .string("Lisbon"), "here unchanged")
    }
}
