import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesTestSupport
import Testing

/// Issue 13, "Bad input": each bad item or checklist request gets a precise problem naming
/// the field at fault, and changes nothing (the items, the checklist and the op count are as
/// before), and the daemon keeps serving.
@Suite("Trip folder bad input", .serialized)
struct TripFolderBadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var what: String
        var method: String
        /// `TRIP`, `OTHER` (another itinerary), `FOOD`, `ACTIVITY`, `OTHERITEM` (an item of
        /// `OTHER`), `LINE` (a checklist line) and `STRANGER` (a human id of no member) are
        /// replaced by the fixture's ids.
        var path: String
        var body: String?
        var status: Int = 400
        var code: String = "invalid-field"
        var field: String?
        var mentions: String
        var testDescription: String { "\(what): \(method) \(path) → \(status) \(code) \(field ?? "")" }
    }

    static let items = "/v1/itineraries/TRIP/items"

    static func post(_ what: String, _ body: String, field: String, mentions: String) -> Case {
        Case(what: what, method: "POST", path: items, body: body, field: field, mentions: mentions)
    }

    static let cases: [Case] = [
        post(
            "an activity ending before it starts",
            #"{"type":"activity","title":"Tour","start":"2027-05-02T10:00","end":"2027-05-02T09:00"}"#, field: "end",
            mentions: "before"),
        post(
            "a flight from Lisbon at 10:00 landing in Tokyo at 17:00 the same day (08:00 UTC, before it left)",
            #"{"type":"transport","title":"LIS → NRT","mode":"flight","start":"2027-05-02T10:00","timeZone":"Europe/Lisbon","end":"2027-05-02T17:00","endTimeZone":"Asia/Tokyo"}"#,
            field: "end", mentions: "arrival"),
        post(
            "a time zone that does not exist",
            #"{"type":"activity","title":"Tour","start":"2027-05-02T10:00","timeZone":"Europe/Atlantis"}"#,
            field: "timeZone", mentions: "Europe/Atlantis"),
        post(
            "an arrival zone that does not exist",
            #"{"type":"transport","title":"Rocket","start":"2027-05-02T10:00","timeZone":"Europe/Lisbon","endTimeZone":"Mars/Olympus"}"#,
            field: "endTimeZone", mentions: "Mars/Olympus"),
        post(
            "a time zone that is not a name at all",
            #"{"type":"activity","title":"Tour","start":"2027-05-02T10:00","timeZone":"../../etc/passwd"}"#,
            field: "timeZone", mentions: "timeZone"),
        post(
            "a check-out before the check-in",
            #"{"type":"lodging","title":"Hotel","start":"2027-05-03","end":"2027-05-02"}"#, field: "end",
            mentions: "check-out"),
        post(
            "a check-out the morning of the check-in day, before check-in time",
            #"{"type":"lodging","title":"Hotel","start":"2027-05-03T15:00","end":"2027-05-03T11:00"}"#, field: "end",
            mentions: "check-out"),
        post("a rating of 6", #"{"type":"food","title":"Tasca","rating":6}"#, field: "rating", mentions: "0 to 5"),
        post("a rating of -1", #"{"type":"food","title":"Tasca","rating":-1}"#, field: "rating", mentions: "0 to 5"),
        post(
            "a rating in words", #"{"type":"food","title":"Tasca","rating":"good"}"#, field: "rating",
            mentions: "0 to 5"),
        post("an unknown item type", #"{"type":"hotel","title":"Ritz"}"#, field: "type", mentions: "hotel"),
        post("no item type", #"{"title":"Ritz"}"#, field: "type", mentions: "required"),
        post("a type that is not a string", #"{"type":1,"title":"Ritz"}"#, field: "type", mentions: "lodging"),
        post(
            "a transport's field on a food", #"{"type":"food","title":"Tasca","mode":"train"}"#, field: "mode",
            mentions: "no field 'mode'"),
        post(
            "a lodging's field on an activity", #"{"type":"activity","title":"Tour","confirmationCode":"X1"}"#,
            field: "confirmationCode", mentions: "no field"),
        post(
            "a latitude without a longitude", #"{"type":"food","title":"Tasca","location":{"latitude":38.7}}"#,
            field: "location.longitude", mentions: "both"),
        post(
            "a destination longitude without a latitude",
            #"{"type":"transport","title":"Train","to":{"name":"Porto","longitude":-8.6}}"#,
            field: "to.latitude", mentions: "both"),
        post(
            "a latitude of 91", #"{"type":"food","title":"Tasca","location":{"latitude":91,"longitude":0}}"#,
            field: "location.latitude", mentions: "out of range"),
        post(
            "a location that is not an object", #"{"type":"food","title":"Tasca","location":"Lisbon"}"#,
            field: "location", mentions: "object"),
        post(
            "an unknown location field", #"{"type":"food","title":"Tasca","location":{"city":"Lisbon"}}"#,
            field: "location.city", mentions: "unknown location field"),
        post(
            "a title of 201 characters",
            #"{"type":"food","title":"\#(String(repeating: "t", count: 201))"}"#, field: "title", mentions: "201"),
        post("an empty title", #"{"type":"food","title":"   "}"#, field: "title", mentions: "empty"),
        post("no title", #"{"type":"food"}"#, field: "title", mentions: "required"),
        post(
            "a start that is not a date", #"{"type":"food","title":"Tasca","start":"2027-13-01"}"#, field: "start",
            mentions: "start"),
        post(
            "a start at 24:00", #"{"type":"food","title":"Tasca","start":"2027-05-01T24:00"}"#, field: "start",
            mentions: "start"),
        post(
            "a transport mode that does not exist", #"{"type":"transport","title":"Zeppelin","mode":"airship"}"#,
            field: "mode", mentions: "mode"),
        post(
            "a link to an item of another itinerary", #"{"type":"activity","title":"Tour","linkedItem":"OTHERITEM"}"#,
            field: "linkedItem", mentions: "not an item"),
        post(
            "a price in a made-up currency",
            #"{"type":"food","title":"Tasca","price":{"amountMinor":100,"currency":"euro"}}"#,
            field: "price", mentions: "ISO 4217"),
        Case(
            what: "an edit raising a rating to 6", method: "PATCH", path: "/v1/itineraries/TRIP/items/FOOD",
            body: #"{"rating":6}"#, field: "rating", mentions: "0 to 5"),
        Case(
            what: "an edit moving the end before the start", method: "PATCH",
            path: "/v1/itineraries/TRIP/items/ACTIVITY", body: #"{"end":"2027-05-02T08:00"}"#, field: "end",
            mentions: "before"),
        Case(
            what: "an edit giving half a location", method: "PATCH", path: "/v1/itineraries/TRIP/items/FOOD",
            body: #"{"location":{"latitude":null}}"#, field: "location.latitude", mentions: "both"),
        Case(
            what: "an edit changing the type", method: "PATCH", path: "/v1/itineraries/TRIP/items/FOOD",
            body: #"{"type":"activity"}"#, field: "type", mentions: "cannot change"),
        Case(
            what: "an edit clearing the title", method: "PATCH", path: "/v1/itineraries/TRIP/items/FOOD",
            body: #"{"title":null}"#, field: "title", mentions: "cannot be cleared"),
        Case(
            what: "an edit of an item of another itinerary", method: "PATCH",
            path: "/v1/itineraries/TRIP/items/OTHERITEM",
            body: #"{"title":"Mine now"}"#, status: 404, code: "not-found", mentions: "no item"),
        Case(
            what: "reading an item of another itinerary", method: "GET", path: "/v1/itineraries/TRIP/items/OTHERITEM",
            status: 404, code: "not-found", mentions: "no item"),
        Case(
            what: "deleting an item of another itinerary", method: "DELETE",
            path: "/v1/itineraries/TRIP/items/OTHERITEM", status: 404, code: "not-found", mentions: "no item"),
        Case(
            what: "moving an item of another itinerary", method: "POST",
            path: "/v1/itineraries/TRIP/items/OTHERITEM/move", body: #"{"date":"2027-05-02"}"#, status: 404,
            code: "not-found",
            mentions: "no item"),
        Case(
            what: "an edit of the legacy lodging", method: "PATCH", path: "/v1/itineraries/TRIP/items/legacy-lodging",
            body: #"{"title":"Another hotel"}"#, status: 409, code: "legacy-item", mentions: "PATCH /v1/itineraries"),
        Case(
            what: "deleting the legacy lodging", method: "DELETE", path: "/v1/itineraries/TRIP/items/legacy-lodging",
            status: 409, code: "legacy-item", mentions: "lodging"),
        Case(
            what: "moving the legacy transportation", method: "POST",
            path: "/v1/itineraries/TRIP/items/legacy-transport/move", body: #"{"date":"2027-05-02"}"#, status: 409,
            code: "legacy-item", mentions: "transportation"),
        Case(
            what: "a move to day 99 of a 5-day trip", method: "POST", path: "/v1/itineraries/TRIP/items/FOOD/move",
            body: #"{"day":99}"#, field: "day", mentions: "day 99 is out of range"),
        Case(
            what: "a move to day 0", method: "POST", path: "/v1/itineraries/TRIP/items/FOOD/move",
            body: #"{"day":0}"#, field: "day", mentions: "day 0 is out of range"),
        Case(
            what: "a move to a date that does not exist", method: "POST", path: "/v1/itineraries/TRIP/items/FOOD/move",
            body: #"{"date":"2027-02-30"}"#, field: "date", mentions: "YYYY-MM-DD"),
        Case(
            what: "a move to nowhere", method: "POST", path: "/v1/itineraries/TRIP/items/FOOD/move", body: "{}",
            field: "date", mentions: "where"),
        Case(
            what: "a checklist line assigned to someone who is not a member", method: "POST",
            path: "/v1/itineraries/TRIP/checklist", body: #"{"text":"Passports","assignee":"STRANGER"}"#,
            field: "assignee", mentions: "not a member"),
        Case(
            what: "a checklist line re-assigned to someone who is not a member", method: "PATCH",
            path: "/v1/itineraries/TRIP/checklist/LINE", body: #"{"assignee":"STRANGER"}"#, field: "assignee",
            mentions: "not a member"),
        Case(
            what: "a checklist line assigned to a made-up id", method: "POST", path: "/v1/itineraries/TRIP/checklist",
            body: #"{"text":"Passports","assignee":"nobody"}"#, field: "assignee", mentions: "not a valid id"),
        Case(
            what: "a checklist line of 501 characters", method: "POST", path: "/v1/itineraries/TRIP/checklist",
            body: #"{"text":"\#(String(repeating: "x", count: 501))"}"#, field: "text", mentions: "501"),
        Case(
            what: "a checklist line checked with a string", method: "PATCH",
            path: "/v1/itineraries/TRIP/checklist/LINE",
            body: #"{"checked":"yes"}"#, field: "checked", mentions: "checked"),
        Case(
            what: "a checklist line of another itinerary", method: "PATCH",
            path: "/v1/itineraries/OTHER/checklist/LINE", body: #"{"checked":true}"#, status: 404, code: "not-found",
            mentions: "no checklist item"),
    ]

    /// One fixture for every case of `refused` (made on first use, for the whole test run):
    /// each case sends one request that must change nothing and compares the state before
    /// and after it, so one daemon serves them all instead of a daemon, an identity (an
    /// Argon2id derivation) and the fixture's writes per case. A request that did change
    /// something still fails its own case. (Its data dir under /tmp stays when the run ends.)
    static let shared = Task { try await Fixture() }

    /// A 5-day trip in Lisbon with a legacy lodging and transportation, a food place, a timed
    /// activity and a checklist line; another itinerary with an item of its own.
    struct Fixture {
        let t: LoggedInDaemon
        let trip: String, other: String, food: String, activity: String, otherItem: String, line: String
        let stranger: String

        init() async throws {
            t = try await LoggedInDaemon.start()
            trip = try await t.d.call(
                Itinerary.self, "POST", "/v1/itineraries",
                json:
                    #"{"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-05","timeZone":"Europe/Lisbon","lodging":{"name":"Casa","checkIn":"2027-05-01","checkOut":"2027-05-05"},"transportation":"TAP from Berlin"}"#
            ).id
            other = try await t.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#).id
            food = try await Self.id(
                t, "POST", "/v1/itineraries/\(trip)/items",
                #"{"type":"food","title":"Tasca","rating":4,"location":{"latitude":38.71,"longitude":-9.14}}"#)
            activity = try await Self.id(
                t, "POST", "/v1/itineraries/\(trip)/items",
                #"{"type":"activity","title":"Tram 28","start":"2027-05-02T10:00","end":"2027-05-02T11:00"}"#)
            otherItem = try await Self.id(
                t, "POST", "/v1/itineraries/\(other)/items", #"{"type":"activity","title":"Port cellar"}"#)
            line = try await Self.id(t, "POST", "/v1/itineraries/\(trip)/checklist", #"{"text":"Sunscreen"}"#)
            stranger = try SigningKeyPair().publicKey.humanID
        }

        static func id(_ t: LoggedInDaemon, _ method: String, _ path: String, _ body: String) async throws -> String {
            let object = try await t.d.call(JSONValue.self, method, path, json: body)
            guard let id = object.objectValue?["id"]?.stringValue else { throw HarnessError("no id from \(path)") }
            return id
        }

        func fill(_ text: String) -> String {
            text.replacingOccurrences(of: "OTHERITEM", with: otherItem).replacingOccurrences(of: "TRIP", with: trip)
                .replacingOccurrences(of: "OTHER", with: other).replacingOccurrences(of: "FOOD", with: food)
                .replacingOccurrences(of: "ACTIVITY", with: activity).replacingOccurrences(of: "LINE", with: line)
                .replacingOccurrences(of: "STRANGER", with: stranger)
        }

        /// What a user could see change: both itineraries' items, checklists and the op count.
        func state() async throws -> [String] {
            var out = [String]()
            for it in [trip, other] {
                for part in ["", "/items", "/checklist"] {
                    let r = try await t.d.send("GET", "/v1/itineraries/\(it)\(part)")
                    out.append("\(r.status) \(r.text)")
                }
            }
            out.append("\(try await t.d.call(Status.self, "GET", "/v1/status").opCount ?? -1) ops")
            return out
        }
    }

    @Test("a bad item or checklist request is refused, naming the field, and changes nothing", arguments: cases)
    func refused(_ c: Case) async throws {
        let f = try await Self.shared.value
        let before = try await f.state()
        let r = try await f.t.d.send(c.method, f.fill(c.path), json: c.body.map(f.fill))
        #expect(r.status == c.status, "\(r.text)")
        #expect(r.contentType == "application/problem+json")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(r.body))
        #expect(problem.code == c.code, "\(r.text)")
        if let field = c.field { #expect(problem.field == field, "\(r.text)") }
        #expect(problem.detail.contains(c.mentions), "detail was: \(problem.detail)")
        #expect(try await f.state() == before, "nothing changed")
        #expect(try await f.t.d.send("GET", "/v1/status").status == 200, "the daemon keeps serving")
    }

    @Test("a flight leaving Tokyo at 10:00 and landing in Lisbon at 09:30 the same day is fine: it lands later")
    func arrivalEarlierOnTheClockIsFine() async throws {
        let f = try await Fixture()
        let r = try await f.t.d.send(
            "POST", "/v1/itineraries/\(f.trip)/items",
            json:
                #"{"type":"transport","title":"NRT → LIS","mode":"flight","start":"2027-05-01T10:00","timeZone":"Asia/Tokyo","end":"2027-05-01T09:30","endTimeZone":"Europe/Lisbon"}"#
        )
        #expect(r.status == 201, "\(r.text)")
        let item = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue ?? [:]
        #expect(item["end"] == .string("2027-05-01T09:30") && item["endTimeZone"] == .string("Europe/Lisbon"))
        // Its own PATCH of another field is not refused for the clock times either.
        let id = try #require(item["id"]?.stringValue)
        let edit = try await f.t.d.send(
            "PATCH", "/v1/itineraries/\(f.trip)/items/\(id)", json: #"{"carrier":"TAP","number":"TP 1"}"#)
        #expect(edit.status == 200, "\(edit.text)")
    }

    @Test("a move that would push an item's end past 9999-12-31 is refused, naming the date, and changes nothing")
    func moveBeyondYear9999() async throws {
        let f = try await Fixture()
        let long = try await Fixture.id(
            f.t, "POST", "/v1/itineraries/\(f.trip)/items",
            #"{"type":"lodging","title":"Long stay","start":"2027-05-01","end":"9999-12-31"}"#)
        let before = try await f.state()
        for body in [#"{"date":"2027-05-02"}"#, #"{"day":2}"#] {
            let r = try await f.t.d.send("POST", "/v1/itineraries/\(f.trip)/items/\(long)/move", json: body)
            #expect(r.status == 400, "\(body): \(r.text)")
            let problem = try JSONDecoder().decode(Problem.self, from: Data(r.body))
            // The engine resolves `day` to a date before the move is checked: either name will do.
            #expect(["date", "day"].contains(problem.field ?? ""), "\(r.text)")
            #expect(problem.detail.contains("9999-12-31"), "\(problem.detail)")
        }
        #expect(try await f.state() == before, "nothing changed")
        // Moving it back (its end moves back too) is fine.
        let back = try await f.t.d.send(
            "POST", "/v1/itineraries/\(f.trip)/items/\(long)/move", json: #"{"date":"2027-04-30"}"#)
        #expect(back.status == 200, "\(back.text)")
        let item = try await f.t.d.call(JSONValue.self, "GET", "/v1/itineraries/\(f.trip)/items/\(long)")
        #expect(item.objectValue?["end"] == .string("9999-12-30"))
    }

    @Test("an item with only an end cannot be moved past its end; a legacy item the trip does not have is not found")
    func endOnlyMoveAndMissingLegacy() async throws {
        let f = try await Fixture()
        let deadline = try await Fixture.id(
            f.t, "POST", "/v1/itineraries/\(f.trip)/items",
            #"{"type":"activity","title":"Book the ferry","end":"2027-05-02"}"#)
        let before = try await f.state()
        let late = try await f.t.d.send(
            "POST", "/v1/itineraries/\(f.trip)/items/\(deadline)/move", json: #"{"date":"2027-05-04"}"#)
        #expect(late.status == 400, "a move that leaves the end before the start: \(late.text)")
        #expect((try? JSONDecoder().decode(Problem.self, from: Data(late.body)))?.field == "date", "\(late.text)")
        #expect(try await f.state() == before, "nothing changed")
        let early = try await f.t.d.send(
            "POST", "/v1/itineraries/\(f.trip)/items/\(deadline)/move", json: #"{"date":"2027-05-01"}"#)
        #expect(early.status == 200, "\(early.text)")

        // The other itinerary has no lodging or transportation of its own.
        for (method, id) in [("GET", "legacy-lodging"), ("GET", "legacy-transport"), ("PATCH", "legacy-lodging")] {
            let r = try await f.t.d.send(
                method, "/v1/itineraries/\(f.other)/items/\(id)", json: method == "PATCH" ? "{}" : nil)
            #expect(r.status == 404, "\(method) \(id) of a trip without one: \(r.status) \(r.text)")
        }
        // The trip that has them shows them.
        let legacy = try await f.t.d.send("GET", "/v1/itineraries/\(f.trip)/items/legacy-lodging")
        #expect(legacy.status == 200 && legacy.text.contains("Casa"), "\(legacy.text)")
    }

    @Test("moves put an untimed item where the user said among the day's untimed items, after the timed ones")
    func movesKeepTheUsersOrder() async throws {
        let f = try await Fixture()
        var ids = [String: String]()
        for title in ["A", "B", "C"] {
            ids[title] = try await Fixture.id(
                f.t, "POST", "/v1/itineraries/\(f.trip)/items",
                #"{"type":"food","title":"\#(title)","start":"2027-05-03"}"#)
        }
        _ = try await Fixture.id(
            f.t, "POST", "/v1/itineraries/\(f.trip)/items",
            #"{"type":"activity","title":"T","start":"2027-05-03T10:00","end":"2027-05-03T11:00"}"#)
        func order(_ date: String) async throws -> [String] {
            let day = try await f.t.d.call(JSONValue.self, "GET", "/v1/itineraries/\(f.trip)/days/\(date)")
            guard case .array(let items)? = day.objectValue?["items"] else { return [] }
            return items.compactMap { $0.objectValue?["title"]?.stringValue }.filter { $0.count == 1 }
        }
        #expect(try await order("2027-05-03") == ["T", "A", "B", "C"])
        let c = try #require(ids["C"]), a = try #require(ids["A"])
        let moved = try await f.t.d.call(
            JSONValue.self, "POST", "/v1/itineraries/\(f.trip)/items/\(c)/move", json: #"{"position":1}"#)
        #expect(moved.objectValue?["date"] == .string("2027-05-03"), "the move answers the day: \(moved)")
        #expect(try await order("2027-05-03") == ["T", "C", "A", "B"])
        _ = try await f.t.d.call(
            JSONValue.self, "POST", "/v1/itineraries/\(f.trip)/items/\(a)/move", json: #"{"position":3}"#)
        #expect(try await order("2027-05-03") == ["T", "C", "B", "A"])
        // To another day by its number, first there; the timed item keeps its time.
        _ = try await f.t.d.call(
            JSONValue.self, "POST", "/v1/itineraries/\(f.trip)/items/\(a)/move", json: #"{"day":4,"position":1}"#)
        #expect(try await order("2027-05-04") == ["A"])
        #expect(try await order("2027-05-03") == ["T", "C", "B"])
        let tooFar = try await f.t.d.send(
            "POST", "/v1/itineraries/\(f.trip)/items/\(c)/move", json: #"{"position":4}"#)
        #expect(tooFar.status == 400 && tooFar.text.contains("position"), "\(tooFar.text)")
    }

    @Test("an activity whose linked item was deleted can still be edited; a new link to the deleted item is refused")
    func danglingLinkAfterDelete() async throws {
        let f = try await Fixture()
        let tour = try await Fixture.id(
            f.t, "POST", "/v1/itineraries/\(f.trip)/items",
            #"{"type":"activity","title":"Tour","linkedItem":"\#(f.activity)"}"#)
        #expect(try await f.t.d.send("DELETE", "/v1/itineraries/\(f.trip)/items/\(f.activity)").status == 204)
        // op-format §5: a link may dangle after a delete. Renaming the activity does not touch
        // the link, so it is no reason to refuse the rename.
        let renamed = try await f.t.d.send(
            "PATCH", "/v1/itineraries/\(f.trip)/items/\(tour)", json: #"{"title":"Tour of Alfama","booked":true}"#)
        #expect(renamed.status == 200, "\(renamed.text)")
        let relinked = try await f.t.d.send(
            "PATCH", "/v1/itineraries/\(f.trip)/items/\(tour)", json: #"{"linkedItem":"\#(f.activity)"}"#)
        #expect(relinked.status == 400 && relinked.text.contains("linkedItem"), "\(relinked.text)")
        let cleared = try await f.t.d.send(
            "PATCH", "/v1/itineraries/\(f.trip)/items/\(tour)", json: #"{"linkedItem":null}"#)
        #expect(cleared.status == 200, "\(cleared.text)")
    }

    @Test("a zone-less timed item takes the trip's zone; an item of a trip with no zone takes the daemon's")
    func defaultZones() async throws {
        let f = try await Fixture()
        let lisbon = try await f.t.d.call(
            JSONValue.self, "POST", "/v1/itineraries/\(f.trip)/items",
            json: #"{"type":"activity","title":"Fado","start":"2027-05-03T21:00"}"#)
        #expect(lisbon.objectValue?["timeZone"] == .string("Europe/Lisbon"))
        let undated = try await f.t.d.call(
            JSONValue.self, "POST", "/v1/itineraries/\(f.trip)/items", json: #"{"type":"activity","title":"Someday"}"#)
        #expect(undated.objectValue?["timeZone"] == nil, "an item with no time needs no zone")
        // A trip with no zone: the daemon's own (on a machine whose /etc/localtime is Etc/UTC,
        // a name Foundation's list of known identifiers leaves out, like every tzdata link).
        let r = try await f.t.d.send(
            "POST", "/v1/itineraries/\(f.other)/items",
            json: #"{"type":"activity","title":"Tour","start":"2027-05-03T10:00"}"#)
        #expect(r.status == 201, "a timed item on a trip without a zone: \(r.text)")
        let zone = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["timeZone"]?.stringValue
        #expect(zone.flatMap { TimeZone(identifier: $0) } != nil, "\(zone ?? "no zone")")
        // The names the planning code converts times in are the ones the API takes (docs/trips.md:
        // tz names, UTC and Etc/UTC; not abbreviations or offsets, which Foundation also opens).
        for (name, status) in [("Etc/UTC", 201), ("UTC", 201), ("Asia/Kolkata", 201), ("EST", 400), ("GMT+5", 400)] {
            let r = try await f.t.d.send(
                "POST", "/v1/itineraries/\(f.trip)/items",
                json: #"{"type":"activity","title":"In \#(name)","start":"2027-05-03T10:00","timeZone":"\#(name)"}"#)
            // India's zone: Foundation's list (ICU's) has the old name Asia/Calcutta, not the
            // tz database's Asia/Kolkata; `TripTime.isKnownZone` also takes a name Foundation
            // opens as itself.
            #expect(r.status == status, "\(name): \(r.text)")
        }
    }
}
