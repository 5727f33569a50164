import Foundation
import PlacesAPI
import PlacesControl
import PlacesTestSupport
import Testing

/// Each bad request gets a 4xx problem+json that names what to fix, changes nothing, and
/// leaves the daemon serving.
@Suite("Bad input", .serialized)
struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var method: String
        var path: String
        var body: String?
        var status: Int
        var code: String
        var mentions: String
        var testDescription: String { "\(method) \(path) \(body?.prefix(40) ?? "") → \(status) \(code)" }
    }

    static let placeID = "PLACE"

    static let cases: [Case] = [
        Case(
            method: "POST", path: "/v1/places", body: "{not json", status: 400, code: "malformed-request",
            mentions: "JSON"),
        Case(
            method: "POST", path: "/v1/places", body: "[1,2]", status: 400, code: "malformed-request",
            mentions: "object"),
        Case(method: "POST", path: "/v1/places", body: nil, status: 400, code: "malformed-request", mentions: "body"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":91,"longitude":0}"#, status: 400,
            code: "invalid-field", mentions: "latitude"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":0,"longitude":-180.5}"#, status: 400,
            code: "invalid-field", mentions: "longitude"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":"north","longitude":0}"#, status: 400,
            code: "invalid-field", mentions: "latitude"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","longitude":0}"#, status: 400,
            code: "invalid-field", mentions: "latitude"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"  ","latitude":0,"longitude":0}"#, status: 400,
            code: "invalid-field", mentions: "empty"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":0,"longitude":0,"rating":5.5}"#,
            status: 400, code: "invalid-field", mentions: "rating"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":0,"longitude":0,"priceLevel":5}"#,
            status: 400, code: "invalid-field", mentions: "1 to 4"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":0,"longitude":0,"priceLevel":0}"#,
            status: 400, code: "invalid-field", mentions: "1 to 4"),
        Case(
            method: "POST", path: "/v1/places",
            body: #"{"name":"x","latitude":0,"longitude":0,"url":"javascript:alert(1)"}"#, status: 400,
            code: "invalid-field", mentions: "url"),
        Case(
            method: "POST", path: "/v1/places", body: #"{"name":"x","latitude":0,"longitude":0,"ratng":3}"#,
            status: 400, code: "invalid-field", mentions: "unknown field 'ratng'"),
        Case(
            method: "POST", path: "/v1/places",
            body: #"{"name":"\#(String(repeating: "n", count: 201))","latitude":0,"longitude":0}"#, status: 400,
            code: "invalid-field", mentions: "at most 200"),
        Case(
            method: "PATCH", path: "/v1/places/PLACE", body: #"{"name":null}"#, status: 400, code: "invalid-field",
            mentions: "cannot be cleared"),
        Case(
            method: "GET", path: "/v1/places/0123456789abcdef0123456789abcdef", body: nil, status: 404,
            code: "not-found", mentions: "no place"),
        Case(
            method: "GET", path: "/v1/places/zz", body: nil, status: 400, code: "invalid-field", mentions: "not an id"),
        Case(
            method: "GET", path: "/v1/nowhere", body: nil, status: 404, code: "no-route",
            mentions: "not part of the API"),
        Case(
            method: "POST", path: "/v1/favorites", body: #"{"placeId":"abcdabcd"}"#, status: 404, code: "not-found",
            mentions: "no place"),
        Case(
            method: "POST", path: "/v1/itineraries", body: #"{"name":"t","startDate":"2027-02-30"}"#, status: 400,
            code: "invalid-field", mentions: "YYYY-MM-DD"),
        Case(
            method: "POST", path: "/v1/itineraries",
            body: #"{"name":"t","startDate":"2027-05-04","endDate":"2027-05-01"}"#, status: 400, code: "invalid-field",
            mentions: "before"),
        Case(
            method: "POST", path: "/v1/itineraries",
            body: #"{"name":"t","travelPrice":{"amountMinor":12.5,"currency":"EUR"}}"#, status: 400,
            code: "invalid-field", mentions: "amountMinor"),
        Case(
            method: "POST", path: "/v1/itineraries",
            body: #"{"name":"t","travelPrice":{"amountMinor":-1,"currency":"EUR"}}"#, status: 400,
            code: "invalid-field", mentions: "between 0"),
        Case(
            method: "POST", path: "/v1/itineraries",
            body: #"{"name":"t","travelPrice":{"amountMinor":100,"currency":"euro"}}"#, status: 400,
            code: "invalid-field", mentions: "ISO 4217"),
        Case(
            method: "POST", path: "/v1/itineraries", body: #"{"name":"t","lodging":{"stars":5}}"#, status: 400,
            code: "invalid-field", mentions: "unknown lodging field"),
        Case(
            method: "POST", path: "/v1/itineraries", body: #"{"name":"t","places":["abcdabcd"]}"#, status: 404,
            code: "not-found", mentions: "no place"),
        Case(
            method: "GET", path: "/v1/itineraries?scope=everyone", body: nil, status: 400, code: "invalid-field",
            mentions: "scope"),
        Case(
            method: "POST", path: "/v1/init", body: #"{"name":"B","username":"b","passphrase":"p"}"#, status: 409,
            code: "already-initialized", mentions: "already exists"),
        Case(
            method: "POST", path: "/v1/routes/solve", body: #"{"matrix":[[0,1],[1]]}"#, status: 400,
            code: "invalid-route", mentions: "square"),
        Case(
            method: "POST", path: "/v1/routes/solve", body: #"{"points":[{"latitude":100,"longitude":0}]}"#,
            status: 400, code: "invalid-route", mentions: "latitude"),
    ]

    /// One fixture for every case of `refused` (made on first use, for the whole test run):
    /// each case sends one request that must change nothing and compares the state before
    /// and after it, so one daemon serves them all instead of a daemon, an identity (an
    /// Argon2id derivation) and the fixture's writes per case. A request that did change
    /// something still fails its own case. (Its data dir under /tmp stays when the run ends.)
    static let shared = Task { try await Fixture() }

    /// A daemon with one place, which every bad request is tried on.
    struct Fixture {
        let t: LoggedInDaemon
        let place: Place

        init() async throws {
            t = try await LoggedInDaemon.start()
            place = try await t.addPlace("Keep me", 10, 10)
        }
    }

    @Test("a bad request is refused precisely and changes nothing", arguments: cases)
    func refused(_ c: Case) async throws {
        let f = try await Self.shared.value
        let t = f.t, place = f.place
        let before = try await ["/v1/places", "/v1/favorites", "/v1/itineraries"].asyncMap {
            try await t.d.send("GET", $0).text
        }
        let path = c.path.replacingOccurrences(of: BadInputTests.placeID, with: place.id)
        let r = try await t.d.send(c.method, path, json: c.body)
        #expect(r.status == c.status, "\(r.text)")
        #expect(r.contentType == "application/problem+json")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(r.body))
        #expect(problem.code == c.code)
        #expect(problem.detail.contains(c.mentions), "detail was: \(problem.detail)")
        let after = try await ["/v1/places", "/v1/favorites", "/v1/itineraries"].asyncMap {
            try await t.d.send("GET", $0).text
        }
        #expect(after == before, "nothing changed")
        #expect(try await t.d.send("GET", "/v1/status").status == 200, "the daemon keeps serving")
    }
}
