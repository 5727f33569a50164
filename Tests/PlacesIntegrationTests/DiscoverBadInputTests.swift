import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesTestSupport
import Testing

/// Issue 15's bad input, through the control socket of a real daemon: every malformed
/// discover query, preference and gazetteer id gets a 400 whose problem names the parameter
/// at fault, and changes nothing (the sort preference stays, no place is created). Each test
/// first shows the good request working, so that a missing route (404) never passes for a
/// refusal.
@Suite("Discover bad input (issue 15)", .serialized)
struct DiscoverBadInputTests {
    /// A refusal as the problem document says it.
    struct Refusal {
        var status: Int
        var type: String
        var detail: String
        var field: String?
        var text: String
    }

    static func refusal(_ r: ControlClient.Response) -> Refusal {
        let object = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any]
        return Refusal(
            status: r.status, type: object?["type"] as? String ?? "", detail: object?["detail"] as? String ?? "",
            field: object?["field"] as? String, text: r.text)
    }

    /// Whether the problem names `parameter`: as its `field`, or as a word of its detail.
    static func names(_ refusal: Refusal, _ parameter: String) -> Bool {
        if refusal.field == parameter { return true }
        let words = refusal.detail.split { !($0.isLetter || $0.isNumber) }
        return words.contains { $0 == Substring(parameter) }
    }

    /// `q` percent-encoded for a query string.
    static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// The discover sort preference as the daemon answers it.
    static func preference(_ t: LoggedInDaemon) -> String? {
        guard let r = try? t.d.send("GET", "/v1/preferences"), r.status == 200,
            let object = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any]
        else { return nil }
        return object["discoverSort"] as? String
    }

    static func placeCount(_ t: LoggedInDaemon) -> Int {
        (try? t.d.call(PlaceList.self, "GET", "/v1/places").count) ?? -1
    }

    @Test("every bad discover query is a 400 bad-query naming its parameter, and changes nothing")
    func badQueries() throws {
        let t = try LoggedInDaemon()
        // The good requests answer, so that the refusals below are refusals and not a
        // missing route; the per-request sort must not become the kept preference.
        let good = try t.d.send("GET", "/v1/discover?q=lisbon&kind=city&near=38.7,-9.1&limit=5&sort=ascending")
        try #require(good.status == 200, "a good discover query: \(good.status) \(good.text.prefix(300))")
        #expect(good.text.contains("city:2267057"), "Lisbon is not among the results: \(good.text.prefix(300))")
        let boundary = try t.d.send("GET", "/v1/discover?q=\(String(repeating: "a", count: 200))&limit=100")
        #expect(boundary.status == 200, "a 200-character query is allowed: \(boundary.status)")
        let accented = try t.d.send("GET", "/v1/discover?q=\(Self.encoded(String(repeating: "é", count: 200)))")
        #expect(accented.status == 200, "200 characters are 200 characters, not 400 bytes: \(accented.status)")
        let one = try t.d.send("GET", "/v1/discover?q=p&limit=1")
        #expect(one.status == 200, "a one-letter query with limit 1: \(one.status)")
        let defaultSort = Self.preference(t)
        #expect(defaultSort == "off", "the default sort is \(defaultSort ?? "not answered"), not off")
        let places = Self.placeCount(t)

        let cases: [(what: String, query: String, parameter: String)] = [
            ("no q at all", "limit=5", "q"),
            ("an empty q", "q=", "q"),
            ("a q of spaces only", "q=%20%20%20", "q"),
            ("a q of 201 characters", "q=\(String(repeating: "a", count: 201))", "q"),
            ("a q of 1,000 characters", "q=\(String(repeating: "x", count: 1_000))", "q"),
            ("a q of 201 accented characters", "q=\(Self.encoded(String(repeating: "é", count: 201)))", "q"),
            ("near latitude 91", "q=paris&near=91,0", "near"),
            ("near latitude -90.5", "q=paris&near=-90.5,0", "near"),
            ("near longitude 181", "q=paris&near=0,181", "near"),
            ("near longitude -180.01", "q=paris&near=0,-180.01", "near"),
            ("near that is one number", "q=paris&near=48.8", "near"),
            ("near with three numbers", "q=paris&near=48.8,2.3,0", "near"),
            ("near that is a word", "q=paris&near=paris", "near"),
            ("near of NaN", "q=paris&near=nan,0", "near"),
            ("near of infinity", "q=paris&near=0,inf", "near"),
            ("near of 1e999", "q=paris&near=1e999,0", "near"),
            ("an empty near", "q=paris&near=", "near"),
            ("near with no latitude", "q=paris&near=,2.3", "near"),
            ("the kind town", "q=paris&kind=town", "kind"),
            ("an empty kind", "q=paris&kind=", "kind"),
            ("a kind list with an unknown kind", "q=paris&kind=city,town", "kind"),
            ("the sort sideways", "q=paris&sort=sideways", "sort"),
            ("the sort popularity", "q=paris&sort=popularity", "sort"),
            ("limit 0", "q=paris&limit=0", "limit"),
            ("limit 101", "q=paris&limit=101", "limit"),
            ("limit 10,000", "q=paris&limit=10000", "limit"),
            ("limit -1", "q=paris&limit=-1", "limit"),
            ("limit x", "q=paris&limit=x", "limit"),
            ("limit 1.5", "q=paris&limit=1.5", "limit"),
            ("an empty limit", "q=paris&limit=", "limit"),
            ("a limit past Int64", "q=paris&limit=99999999999999999999999", "limit"),
            ("a parameter discover does not take", "q=paris&radius=5", "radius"),
        ]
        for c in cases {
            let r = Self.refusal(try t.d.send("GET", "/v1/discover?\(c.query)"))
            #expect(r.status == 400, "\(c.what): \(r.status) \(r.text.prefix(300))")
            #expect(r.type.hasSuffix("/bad-query"), "\(c.what): the problem type is \(r.type)")
            #expect(Self.names(r, c.parameter), "\(c.what): the problem does not name '\(c.parameter)': \(r.text)")
        }
        #expect(Self.preference(t) == defaultSort, "a refused or one-off sort changed the kept preference")
        #expect(Self.placeCount(t) == places)
        #expect(try t.d.send("GET", "/v1/status").status == 200)
        // One result by id: an unknown id is 404, a malformed one too (nothing to find).
        #expect(try t.d.send("GET", "/v1/discover/city:2267057").status == 200)
        for id in ["city:9999999999", "city:abc", "place:zz", "town:1", "%00"] {
            let r = try t.d.send("GET", "/v1/discover/\(id)")
            #expect(r.status == 404 || r.status == 400, "GET /v1/discover/\(id): \(r.status) \(r.text.prefix(200))")
        }
    }

    @Test("a bad discoverSort or a bad body is a 400 naming discoverSort, and the preference stays")
    func badPreferences() throws {
        let t = try LoggedInDaemon()
        let set = try t.d.send("PUT", "/v1/preferences", json: #"{"discoverSort":"ascending"}"#)
        try #require(set.status == 200, "a good PUT /v1/preferences: \(set.status) \(set.text.prefix(300))")
        #expect(Self.preference(t) == "ascending")

        let values: [(what: String, body: String)] = [
            ("desc, the CLI's word", #"{"discoverSort":"desc"}"#),
            ("upper case", #"{"discoverSort":"DESCENDING"}"#),
            ("an empty string", #"{"discoverSort":""}"#),
            ("null", #"{"discoverSort":null}"#),
            ("a number", #"{"discoverSort":1}"#),
            ("true", #"{"discoverSort":true}"#),
            ("a list", #"{"discoverSort":["descending"]}"#),
            ("both directions at once", #"{"discoverSort":"ascending,descending"}"#),
            ("a value of 10,000 characters", #"{"discoverSort":"\#(String(repeating: "d", count: 10_000))"}"#),
        ]
        for v in values {
            let r = Self.refusal(try t.d.send("PUT", "/v1/preferences", json: v.body))
            #expect(r.status == 400, "discoverSort = \(v.what): \(r.status) \(r.text.prefix(300))")
            #expect(Self.names(r, "discoverSort"), "discoverSort = \(v.what): not named in \(r.text.prefix(300))")
            #expect(Self.preference(t) == "ascending", "discoverSort = \(v.what) changed the preference")
        }
        let bodies: [(what: String, body: String?)] = [
            ("no body", nil),
            ("an empty object", "{}"),
            ("a body that is not JSON", "{discoverSort: descending"),
            ("a JSON list", #"["descending"]"#),
            ("a JSON string", #""descending""#),
            ("an unknown key beside a good value", #"{"discoverSort":"descending","theme":"dark"}"#),
            ("a misspelt key", #"{"discoversort":"descending"}"#),
        ]
        for b in bodies {
            let r = Self.refusal(try t.d.send("PUT", "/v1/preferences", json: b.body))
            #expect(r.status == 400, "PUT /v1/preferences with \(b.what): \(r.status) \(r.text.prefix(300))")
            #expect(!r.detail.isEmpty, "PUT /v1/preferences with \(b.what): no detail")
            #expect(Self.preference(t) == "ascending", "PUT /v1/preferences with \(b.what) changed the preference")
        }
        #expect(try t.d.send("GET", "/v1/status").status == 200)
    }

    @Test("POST /v1/places with an unknown or malformed gazetteerId is a 400 naming it, and creates nothing")
    func badGazetteerIDs() throws {
        let t = try LoggedInDaemon()
        let good = try t.d.send("POST", "/v1/places", json: #"{"gazetteerId":"city:2267057"}"#)
        try #require(good.status == 201 || good.status == 200, "a place from Lisbon's id: \(good.status) \(good.text)")
        let place = try? JSONDecoder().decode(Place.self, from: Data(good.body))
        #expect(place?.name == "Lisbon", "the place's name is \(place?.name ?? "none")")
        #expect(abs((place?.latitude ?? 0) - 38.72) < 0.1 && abs((place?.longitude ?? 0) + 9.13) < 0.1)
        let count = Self.placeCount(t)

        let ids: [(what: String, value: String)] = [
            ("a city id that does not exist", #""city:9999999999""#),
            ("a country that does not exist", #""country:XX""#),
            ("a region that does not exist", #""region:PT.99999""#),
            ("a city id that is not a number", #""city:lisbon""#),
            ("a city id with a leading zero", #""city:02267057""#),
            ("a city id of 11 digits", #""city:12345678901""#),
            ("an unknown kind", #""town:2267057""#),
            ("a continent that is not one", #""continent:ZZ""#),
            ("a country in lower case", #""country:pt""#),
            ("a region without its country", #""region:14""#),
            ("the id of a place, not a result", #""place:0123456789abcdef0123456789abcdef""#),
            ("an empty string", #""""#),
            ("a number", "2267057"),
            ("an object", #"{"id":"city:2267057"}"#),
            ("an id with a NUL", #""city:2267057\u0000""#),
        ]
        for id in ids {
            for body in [
                #"{"gazetteerId":\#(id.value)}"#,
                #"{"name":"Mine","latitude":38.7,"longitude":-9.1,"gazetteerId":\#(id.value)}"#,
            ] {
                let r = Self.refusal(try t.d.send("POST", "/v1/places", json: body))
                #expect(r.status == 400, "gazetteerId \(id.what) (\(body)): \(r.status) \(r.text.prefix(300))")
                #expect(Self.names(r, "gazetteerId"), "gazetteerId \(id.what): not named in \(r.text.prefix(300))")
            }
        }
        // A good id with coordinates that contradict it is the user's choice (they moved the
        // pin), but coordinates off the globe are still refused.
        let off = Self.refusal(
            try t.d.send("POST", "/v1/places", json: #"{"gazetteerId":"city:2267057","latitude":91,"longitude":0}"#))
        #expect(off.status == 400 && Self.names(off, "latitude"), "\(off.text.prefix(300))")
        #expect(Self.placeCount(t) == count, "a refused gazetteerId created a place")
        #expect(try t.d.send("GET", "/v1/status").status == 200)
    }
}
