import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Destinations and the dashboard (issue 33) on one in-process daemon with the bundled
/// gazetteer: every answer is checked against `Protocol/control-api.yaml` by the client.
@Suite("Destinations API", .serialized)
struct DestinationsAPITests {
    typealias Object = [String: JSONValue]

    static func json(_ r: InProcessClient.Response) throws -> Object {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    static func date(_ text: String) -> Date {
        let f = ISO8601DateFormatter()
        return f.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        let now = Mutex2(Date(timeIntervalSince1970: 0))
        func set(_ text: String) { now.set(DestinationsAPITests.date(text)) }
        func advance(minutes: Double) { now.set(now.get().addingTimeInterval(minutes * 60)) }
    }

    static func start(_ clock: Clock) async throws -> LoggedInDaemon {
        let t = try await LoggedInDaemon.start()
        let daemon = try #require(t.d.inProcessDaemon)
        await daemon.setDestinationsClock { clock.now.get() }
        await daemon.setWeatherTimeout(milliseconds: 600)
        return t
    }

    func card(_ t: LoggedInDaemon, _ id: String) async throws -> Object {
        let r = try await t.d.send("GET", "/v1/dashboard/\(id)")
        guard r.status == 200 else { throw HarnessError("card \(id): \(r.status) \(r.text)") }
        return try Self.json(r)
    }

    /// Minutes since midnight of a `YYYY-MM-DDTHH:MM` text.
    static func minutes(_ text: String?) -> Double {
        guard let text, text.count == 16, let h = Double(text.dropFirst(11).prefix(2)), let m = Double(text.suffix(2))
        else { return .nan }
        return h * 60 + m
    }

    @Test("add by query, gazetteer id and place; list; remove; unknown ones named")
    func destinations() async throws {
        let clock = Clock()
        clock.set("2026-03-20T12:00:00Z")
        let t = try await Self.start(clock)
        let lisbon = try Self.json(try await t.d.send("POST", "/v1/destinations", json: #"{"query":"Lisbon"}"#))
        #expect(lisbon["id"] == .string("city:2267057"), "the Portuguese city, as discover ranks it")
        #expect(lisbon["timeZone"] == .string("Europe/Lisbon"))
        let maine = try await t.d.send("POST", "/v1/destinations", json: #"{"gazetteerId":"city:4969622"}"#)
        #expect(maine.status == 201)
        #expect(try Self.json(maine)["timeZone"] == .string("America/New_York"))
        let portugal = try Self.json(
            try await t.d.send("POST", "/v1/destinations", json: #"{"gazetteerId":"country:PT"}"#))
        #expect(portugal["timeZone"] == .string("Europe/Lisbon"))
        _ = try await t.addPlace("Casa da Avó", 41.1496, -8.6109)
        let place = try Self.json(try await t.d.send("POST", "/v1/destinations", json: #"{"place":"casa da avo"}"#))
        #expect(place["kind"] == .string("place") && place["timeZone"] == .string("Europe/Lisbon"))

        for (body, field) in [
            (#"{"query":"Qxzqxzqxz"}"#, "query"), (#"{"query":"Lisbon","place":"x"}"#, "query"),
            (#"{"gazetteerId":"city:999999999"}"#, "gazetteerId"), (#"{"place":"Nowhere"}"#, "place"),
            (#"{"query":""}"#, "query"), (#"{"color":"red"}"#, "color"),
            (#"{"gazetteerId":"continent:EU"}"#, "gazetteerId"),
        ] {
            let bad = try await t.d.send("POST", "/v1/destinations", json: body)
            #expect(bad.status == 400, "\(body)")
            #expect(try Self.json(bad)["field"] == .string(field), "\(body): \(bad.text)")
        }
        let typo = try Self.json(try await t.d.send("POST", "/v1/destinations", json: #"{"query":"Lisbonx"}"#))
        #expect(typo["id"] == .string("city:2267057") || typo["detail"]?.stringValue?.contains("Lisbon") == true)

        var list = try Self.json(try await t.d.send("GET", "/v1/destinations"))["destinations"]?.arrayValue ?? []
        #expect(
            list.compactMap { $0.objectValue?["id"]?.stringValue }.prefix(3) == [
                "city:2267057", "city:4969622", "country:PT",
            ])
        #expect(try await t.d.send("DELETE", "/v1/destinations/city%3A4969622").status == 204)
        #expect(try await t.d.send("DELETE", "/v1/destinations/city:4969622").status == 404)
        list = try Self.json(try await t.d.send("GET", "/v1/destinations"))["destinations"]?.arrayValue ?? []
        #expect(!list.contains { $0.objectValue?["id"] == .string("city:4969622") })
    }

    @Test("local time across a DST change, sunrise and sunset, the date line, polar day and night")
    func timeAndSun() async throws {
        let clock = Clock()
        clock.set("2026-03-20T12:00:00Z")
        let t = try await Self.start(clock)
        for id in ["city:2267057", "city:4035413", "city:3133895"] {
            _ = try await t.d.call(Object.self, "POST", "/v1/destinations", json: #"{"gazetteerId":"\#(id)"}"#)
        }
        let here = try Self.json(
            try await t.d.send("PUT", "/v1/here", json: #"{"latitude":40.7143,"longitude":-74.006}"#))
        #expect(here["timeZone"] == .string("America/New_York"))

        // Lisbon on the March equinox (astral: sunrise 400.47, sunset 1128.21 minutes UTC; UTC+0).
        var lisbon = try await card(t, "city:2267057")
        #expect(lisbon["localTime"] == .string("2026-03-20T12:00"))
        #expect(abs(Self.minutes(lisbon["sunrise"]?.stringValue) - 400.47) <= 2, "\(lisbon["sunrise"] ?? .null)")
        #expect(abs(Self.minutes(lisbon["sunset"]?.stringValue) - 1_128.21) <= 2, "\(lisbon["sunset"] ?? .null)")
        #expect(abs((lisbon["dayLengthMinutes"]?.doubleValue ?? 0) - 727.7) <= 2)
        // New York is on summer time since 8 March, Lisbon from 29 March: 4 hours, then 5.
        #expect(lisbon["differenceMinutes"] == .int(240))
        clock.set("2026-03-30T12:00:00Z")
        lisbon = try await card(t, "Lisbon")
        #expect(lisbon["utcOffsetMinutes"] == .int(60) && lisbon["differenceMinutes"] == .int(300))
        #expect(lisbon["localTime"] == .string("2026-03-30T13:00"))

        // Apia, 13 hours ahead at 172° W: on 22 June local, sunrise at 17:50 UTC the day before
        // (astral's solar day of 21 June: 1069.9 minutes).
        clock.set("2026-06-21T12:00:00Z")
        let apia = try await card(t, "city:4035413")
        #expect(apia["localTime"] == .string("2026-06-22T01:00"))
        #expect(apia["sunrise"]?.stringValue?.hasPrefix("2026-06-22T") == true)
        #expect(abs(Self.minutes(apia["sunrise"]?.stringValue) - (1_069.9 + 13 * 60 - 1_440)) <= 3)

        // Tromsø: midnight sun at the June solstice, polar night at the December one.
        let june = try await card(t, "city:3133895")
        #expect(june["sunrise"] == .null && june["sunset"] == .null && june["dayLengthMinutes"] == .int(1_440))
        clock.set("2026-12-21T12:00:00Z")
        let december = try await card(t, "city:3133895")
        #expect(december["sunrise"] == .null && december["dayLengthMinutes"] == .int(0))

        let dashboard = try Self.json(try await t.d.send("GET", "/v1/dashboard"))
        #expect(dashboard["here"]?.objectValue?["kind"] == .string("here"))
        #expect(dashboard["destinations"]?.arrayValue?.count == 3)
        for (body, field) in [
            (#"{"latitude":91,"longitude":0}"#, "latitude"), (#"{"latitude":0,"longitude":-180.5}"#, "longitude"),
            (#"{"latitude":"north","longitude":0}"#, "latitude"), (#"{"place":"Nowhere"}"#, "place"),
        ] {
            let bad = try await t.d.send("PUT", "/v1/here", json: body)
            let problem = try Self.json(bad)
            #expect(bad.status == 400 && problem["field"] == .string(field), "\(body): \(bad.text)")
        }
        #expect(
            (try await card(t, "here"))["timeZone"] == .string("America/New_York"), "a refused here changes nothing")
    }
}

/// A small lock-protected value for the test clock.
final class Mutex2<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ v: Value) { lock.withLock { value = v } }
}
