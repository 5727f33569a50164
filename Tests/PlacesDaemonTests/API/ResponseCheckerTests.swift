import Foundation
import PlacesModel
import PlacesTestSupport
import Testing

/// The check every test response goes through (`ResponseChecker`) catches what it exists
/// for: each case breaks the spec once, on purpose.
@Suite("Responses are checked against Protocol/control-api.yaml")
struct ResponseCheckerTests {
    static let place = #"""
        {"categories":["food"],"createdAt":"2026-04-10T08:00:00.000Z","favorite":false,"id":"0123456789abcdef0123456789abcdef","latitude":38.7,"longitude":-9.1,"name":"Market"}
        """#

    func problems(
        _ body: String = ResponseCheckerTests.place, method: String = "GET", target: String = "/v1/places/0123",
        status: Int = 200, contentType: String = "application/json"
    ) throws -> [String] {
        let checker = try #require(ResponseChecker.controlAPI, "the spec loads")
        return checker.problems(
            method: method, target: target, status: status, contentType: contentType, body: Array(body.utf8))
    }

    @Test("a response as the spec describes it passes")
    func conforming() throws {
        #expect(try problems() == [])
        #expect(try problems("", method: "DELETE", status: 204, contentType: "") == [])
        let problem = #"{"code":"no-route","detail":"d","status":404,"title":"t","type":"x"}"#
        #expect(
            try problems(problem, target: "/v1/nowhere", status: 404, contentType: "application/problem+json") == [])
    }

    @Test("a property the spec does not declare fails, with its JSON pointer")
    func unknownField() throws {
        let body = ResponseCheckerTests.place.replacingOccurrences(of: #""name""#, with: #""nickname":"m","name""#)
        let found = try problems(body)
        #expect(found.count == 1)
        #expect(found.first?.contains("GET /v1/places/{placeRef} → 200 at /nickname") == true, "\(found)")
        let nested = #"{"count":1,"places":[\#(body)]}"#
        #expect(try problems(nested, target: "/v1/places").first?.contains("at /places/0/nickname") == true)
    }

    @Test("a value of the wrong type fails")
    func wrongType() throws {
        let found = try problems(ResponseCheckerTests.place.replacingOccurrences(of: "38.7", with: #""38.7""#))
        #expect(found.count == 1 && found[0].contains("at /latitude: a string where the spec says number"), "\(found)")
        let enumBroken = try problems(
            #"{"summary":"s","time":"2026-04-10T08:00:00.000Z","type":"greeting"}"# + "\n", target: "/v1/events",
            contentType: "application/x-ndjson")
        #expect(
            enumBroken.count == 1 && enumBroken[0].contains("at /type: \"greeting\" is not one of"), "\(enumBroken)")
    }

    @Test("a missing required property fails")
    func missingRequired() throws {
        let found = try problems(ResponseCheckerTests.place.replacingOccurrences(of: #""favorite":false,"#, with: ""))
        #expect(found.count == 1 && found[0].contains("the required property 'favorite' is missing"), "\(found)")
    }

    @Test("a status the operation does not declare fails, and so does an undeclared media type")
    func undeclaredStatus() throws {
        let problem = #"{"code":"internal","detail":"d","status":418,"title":"t","type":"x"}"#
        let found = try problems(problem, status: 418, contentType: "application/problem+json")
        #expect(found.count == 1 && found[0].contains("status 418 is not declared"), "\(found)")
        let text = try problems("hello", contentType: "text/plain")
        #expect(text.count == 1 && text[0].contains("media type 'text/plain' is not declared"), "\(text)")
        let unrouted = try problems("{}", target: "/v1/nowhere")
        #expect(unrouted.count == 1 && unrouted[0].contains("is not in the spec"), "\(unrouted)")
    }
}
