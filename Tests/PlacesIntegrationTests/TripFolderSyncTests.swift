import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The trip folder's items and checklist as a user reads them on one daemon.
extension SyncNode {
    /// `GET …/items` (nil when it does not answer 200).
    func items(_ itinerary: String) -> [JSONValue]? {
        guard let r = try? d.send("GET", "/v1/itineraries/\(itinerary)/items"), r.status == 200,
            let list = try? JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["items"],
            case .array(let items) = list
        else { return nil }
        return items
    }

    /// The items' titles, in the order listed.
    func titles(_ itinerary: String) -> [String] {
        (items(itinerary) ?? []).compactMap { $0.objectValue?["title"]?.stringValue }
    }

    /// One item by id (nil when it does not answer 200).
    func item(_ itinerary: String, _ id: String) -> [String: JSONValue]? {
        guard let r = try? d.send("GET", "/v1/itineraries/\(itinerary)/items/\(id)"), r.status == 200 else {
            return nil
        }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue
    }

    /// Adds an item; returns its id.
    func addItem(_ itinerary: String, _ body: String) throws -> String {
        let r = try d.send("POST", "/v1/itineraries/\(itinerary)/items", json: body)
        guard r.status == 201,
            let id = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["id"]?.stringValue
        else { throw HarnessError("\(name) could not add an item: \(r.status) \(r.text)") }
        return id
    }

    /// Adds a checklist line; returns its id.
    func addLine(_ itinerary: String, _ body: String) throws -> String {
        let r = try d.send("POST", "/v1/itineraries/\(itinerary)/checklist", json: body)
        guard r.status == 201,
            let id = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["id"]?.stringValue
        else { throw HarnessError("\(name) could not add a checklist line: \(r.status) \(r.text)") }
        return id
    }

    /// `GET …/checklist` lines (nil when it does not answer 200).
    func checklist(_ itinerary: String) -> [[String: JSONValue]]? {
        guard let r = try? d.send("GET", "/v1/itineraries/\(itinerary)/checklist"), r.status == 200,
            let list = try? JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["items"],
            case .array(let lines) = list
        else { return nil }
        return lines.compactMap(\.objectValue)
    }

    /// The summaries of the itinerary's activity.
    func activitySummaries(_ itinerary: String) -> [String] {
        ((try? d.call(ActivityList.self, "GET", "/v1/itineraries/\(itinerary)/activity"))?.activity ?? []).map(
            \.summary)
    }
}

/// Issue 13, item 9 ("Everything syncs"): two real daemons editing one trip folder.
@Suite("Trip folder between real daemons", .serialized)
struct TripFolderSyncTests {
    /// Ana's 5-day Lisbon trip, shared with Bruno as editor; both connected both ways.
    static func sharedTrip() async throws -> (a: SyncNode, b: SyncNode, it: String) {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno")
        // Contacts first: a daemon tells its name only in the Hello of a session with someone
        // it knows, and Ana names Bruno by what his Hello said.
        try b.trust(a)
        try a.trust(b)
        try a.addPeer(b)
        try b.addPeer(a)
        let it = try a.d.call(
            Itinerary.self, "POST", "/v1/itineraries",
            json: #"{"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-05","timeZone":"Europe/Lisbon"}"#
        ).id
        try a.share(it, with: b.id, role: "editor")
        try await eventually("Bruno holds the shared trip") { try b.itinerary(it).role == "editor" }
        return (a, b, it)
    }

    /// Both daemons list the same items, field for field (nil when one does not answer).
    static func sameItems(_ a: SyncNode, _ b: SyncNode, _ it: String) -> Bool {
        guard let x = a.items(it), let y = b.items(it) else { return false }
        return x == y
    }

    @Test("two editors add items to the same day at once: both daemons list every item, identically")
    func concurrentAddsToOneDay() async throws {
        let (a, b, it) = try await Self.sharedTrip()
        // Six items each on 3 May, added at the same time from both sides while they sync:
        // timed and untimed, of every type.
        @Sendable func bodies(_ who: String) -> [String] {
            [
                #"{"type":"activity","title":"\#(who): Tram 28","start":"2027-05-03T09:00","end":"2027-05-03T10:00"}"#,
                #"{"type":"food","title":"\#(who): Pastéis","start":"2027-05-03","rating":5}"#,
                #"{"type":"activity","title":"\#(who): Alfama walk","start":"2027-05-03"}"#,
                #"{"type":"transport","title":"\#(who): Train to Sintra","mode":"train","start":"2027-05-03T14:00","end":"2027-05-03T14:40","to":{"name":"Sintra","latitude":38.8,"longitude":-9.38}}"#,
                #"{"type":"food","title":"\#(who): Tasca do Chico","start":"2027-05-03T21:00"}"#,
                #"{"type":"lodging","title":"\#(who): Casa","start":"2027-05-03T15:00","end":"2027-05-04T11:00"}"#,
            ]
        }
        let daemons = [(a.d, a.name), (b.d, b.name)]
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { n in
            let (daemon, name) = daemons[n]
            for body in bodies(name) {
                let r = try? daemon.send("POST", "/v1/itineraries/\(it)/items", json: body)
                if r?.status != 201 { failures.add("\(name): \(r.map { "\($0.status) \($0.text)" } ?? "no answer")") }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        do {
            try await eventually("both daemons list all 12 items, identically") {
                a.items(it)?.count == 12 && Self.sameItems(a, b, it)
            }
        } catch {
            Issue.record("Ana: \(a.titles(it))\nBruno: \(b.titles(it))")
            throw error
        }
        let titles = Set(a.titles(it))
        for who in ["Ana", "Bruno"] {
            for body in bodies(who) {
                let title = try #require(
                    try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)).objectValue?["title"]?.stringValue)
                #expect(titles.contains(title), "\(title) is missing")
            }
        }
        // Every item says who made it the same way on both sides, and the timed ones took
        // the trip's zone.
        let tram = try #require(a.items(it)?.first { $0.objectValue?["title"] == .string("Bruno: Tram 28") })
        #expect(tram.objectValue?["timeZone"] == .string("Europe/Lisbon"))
    }

    @Test("edits of each other's items, a delete and same-field conflicts converge on both daemons")
    func editsAndConflictsConverge() async throws {
        let (a, b, it) = try await Self.sharedTrip()
        let museum = try a.addItem(it, #"{"type":"activity","title":"Gulbenkian","start":"2027-05-02T10:00"}"#)
        let dinner = try a.addItem(it, #"{"type":"food","title":"Cervejaria Ramiro","rating":4}"#)
        let train = try b.addItem(
            it, #"{"type":"transport","title":"Lisbon → Porto","mode":"train","start":"2027-05-04T09:00"}"#)
        let market = try a.addItem(it, #"{"type":"food","title":"Time Out Market"}"#)
        let sintra = try b.addItem(
            it, #"{"type":"activity","title":"Sintra","start":"2027-05-03T09:00","end":"2027-05-03T18:00"}"#)
        let line = try a.addLine(it, #"{"text":"Passports","list":"Packing"}"#)
        try await eventually("Bruno sees Ana's items and checklist line") {
            b.items(it)?.count == 5 && b.checklist(it)?.count == 1
        }

        // Live: Bruno edits an item Ana made, Ana deletes the one Bruno made, Bruno assigns
        // the checklist line to himself.
        let renamed = try b.d.send(
            "PATCH", "/v1/itineraries/\(it)/items/\(museum)",
            json:
                #"{"title":"Gulbenkian Museum","booked":true,"location":{"name":"Av. de Berna","latitude":38.737,"longitude":-9.154}}"#
        )
        #expect(renamed.status == 200, "\(renamed.text)")
        let deleted = try a.d.send("DELETE", "/v1/itineraries/\(it)/items/\(train)")
        #expect(deleted.status == 204, "\(deleted.text)")
        let assigned = try b.d.send(
            "PATCH", "/v1/itineraries/\(it)/checklist/\(line)", json: #"{"assignee":"\#(b.id)"}"#)
        #expect(assigned.status == 200, "\(assigned.text)")
        try await eventually("both see the rename, the delete and the assignment") {
            let shown = a.item(it, museum)
            return shown?["title"] == .string("Gulbenkian Museum") && shown?["booked"] == .bool(true)
                && b.item(it, train) == nil && a.checklist(it)?.first?["assignee"] == .string(b.id)
                && Self.sameItems(a, b, it)
        }
        #expect(try b.d.send("GET", "/v1/itineraries/\(it)/items/\(train)").status == 404)
        // Ana's daemon learns Bruno's name from his daemon (not at once): then the line shows it.
        try await eventually("Ana's checklist names Bruno as the assignee", timeout: .seconds(10)) {
            a.checklist(it)?.first?["assigneeName"] == .string("Bruno")
        }

        // Offline, concurrently: both edit the same fields of one item and tick/untick the
        // same line; Ana gives the museum visit an end at 11:00 while Bruno moves its start to
        // 12:00 (each valid alone); Ana deletes the market while Bruno renames it; each moves
        // the Sintra day to another day. Then they meet again.
        b.stop()
        #expect(try a.d.send("DELETE", "/v1/itineraries/\(it)/items/\(market)").status == 204)
        for (path, body) in [
            ("items/\(sintra)/move", #"{"date":"2027-05-02"}"#),
            ("items/\(dinner)", #"{"notes":"Ana: book for 20:00","rating":5}"#),
            ("items/\(museum)", #"{"end":"2027-05-02T11:00"}"#),
            ("checklist/\(line)", #"{"checked":true}"#),
        ] {
            let method = path.hasSuffix("/move") ? "POST" : "PATCH"
            let r = try a.d.send(method, "/v1/itineraries/\(it)/\(path)", json: body)
            #expect(r.status == 200, "\(method) \(path): \(r.text)")
        }
        a.stop()
        try b.start()
        for (path, body) in [
            ("items/\(market)", #"{"title":"Mercado da Ribeira"}"#),
            ("items/\(sintra)/move", #"{"date":"2027-05-04"}"#),
            ("items/\(dinner)", #"{"notes":"Bruno: walk in, no booking","rating":3}"#),
            ("items/\(museum)", #"{"start":"2027-05-02T12:00"}"#),
            ("checklist/\(line)", #"{"checked":true}"#),
            ("checklist/\(line)", #"{"checked":false,"text":"Passports and ID cards"}"#),
        ] {
            let method = path.hasSuffix("/move") ? "POST" : "PATCH"
            let r = try b.d.send(method, "/v1/itineraries/\(it)/\(path)", json: body)
            #expect(r.status == 200, "\(method) \(path): \(r.text)")
        }
        try a.start()
        do {
            try await eventually("the two daemons agree on every item and the checklist") {
                let sameItinerary = try a.itineraryJSON(it) == b.itineraryJSON(it)
                return sameItinerary && Self.sameItems(a, b, it) && a.checklist(it) != nil
                    && a.checklist(it) == b.checklist(it)
                    && a.item(it, dinner)?["notes"] == b.item(it, dinner)?["notes"]
            }
        } catch {
            Issue.record("Ana: \(a.items(it) ?? [])\n\(a.checklist(it) ?? [])")
            Issue.record("Bruno: \(b.items(it) ?? [])\n\(b.checklist(it) ?? [])")
            throw error
        }
        // One writer won each register, the same on both sides: never a mix of the two edits.
        let merged = try #require(a.item(it, dinner))
        let notes = merged["notes"]?.stringValue ?? ""
        #expect(
            (notes.hasPrefix("Ana") && merged["rating"] == .int(5))
                || (notes.hasPrefix("Bruno") && merged["rating"] == .int(3)),
            "notes and rating of one edit should win together: \(merged)")
        let ticked = try #require(a.checklist(it)?.first)
        #expect(ticked["checked"] == .bool(true) || ticked["checked"] == .bool(false))
        #expect(ticked["text"] == .string("Passports and ID cards"), "only Bruno changed the text")
        // A delete and a concurrent rename: the item stays deleted on both sides (the rename
        // does not bring it back), and the whole move of one side won, start and end together.
        #expect(a.item(it, market) == nil && b.item(it, market) == nil, "\(a.titles(it))")
        #expect(a.items(it)?.count == 3, "\(a.titles(it))")
        let day = try #require(a.item(it, sintra))
        #expect(
            (day["start"] == .string("2027-05-02T09:00") && day["end"] == .string("2027-05-02T18:00"))
                || (day["start"] == .string("2027-05-04T09:00") && day["end"] == .string("2027-05-04T18:00")),
            "a mix of two moves: \(day)")

        // The merged visit ends before it starts (no one wrote that; concurrent writes did).
        // Both can still rename it, and fix it.
        let visit = try #require(a.item(it, museum))
        #expect(visit["start"] == .string("2027-05-02T12:00") && visit["end"] == .string("2027-05-02T11:00"))
        for node in [a, b] {
            let r = try node.d.send(
                "PATCH", "/v1/itineraries/\(it)/items/\(museum)", json: #"{"notes":"\#(node.name) was here"}"#)
            #expect(r.status == 200, "\(node.name) renaming a merged item: \(r.text)")
        }
        let fixed = try a.d.send("PATCH", "/v1/itineraries/\(it)/items/\(museum)", json: #"{"end":"2027-05-02T13:30"}"#)
        #expect(fixed.status == 200, "\(fixed.text)")
        let worse = try a.d.send("PATCH", "/v1/itineraries/\(it)/items/\(museum)", json: #"{"end":"2027-05-02T11:30"}"#)
        #expect(worse.status == 400 && b.problemCode(worse.text) == "invalid-field", "\(worse.text)")
    }

    @Test("the activity of a trip folder reads in words naming the items, on both daemons")
    func activityInWords() async throws {
        let (a, b, it) = try await Self.sharedTrip()
        let train = try b.addItem(
            it,
            #"{"type":"transport","title":"Lisbon → Porto","mode":"train","start":"2027-05-03T09:00","location":{"name":"Santa Apolónia"},"to":{"name":"Porto Campanhã"}}"#
        )
        let tasca = try a.addItem(it, #"{"type":"food","title":"Tasca do Chico"}"#)
        _ = try a.d.call(JSONValue.self, "PATCH", "/v1/itineraries/\(it)/items/\(train)", json: #"{"number":"IC 521"}"#)
        // Bruno deletes the tasca once it has reached him (on a busy machine it may not have
        // yet when Ana's answer comes back: the delete would find no such item).
        try await eventually("Bruno holds the tasca") { b.item(it, tasca) != nil }
        #expect(try b.d.send("DELETE", "/v1/itineraries/\(it)/items/\(tasca)").status == 204)
        _ = try a.addLine(it, #"{"text":"Sunscreen"}"#)
        try await eventually("both daemons hold the same items") {
            a.items(it)?.count == 1 && Self.sameItems(a, b, it) && b.checklist(it)?.count == 1
        }
        // Views are each daemon's own news: compare the rest.
        func changes(_ node: SyncNode) -> [String] { node.activitySummaries(it).filter { !$0.contains("viewed") } }
        do {
            try await eventually("both daemons' activity has the same number of lines", timeout: .seconds(20)) {
                changes(a).count >= 5 && changes(a).count == changes(b).count
            }
        } catch {
            Issue.record("Ana's activity: \(changes(a))\nBruno's: \(changes(b))")
            throw error
        }
        // What a user reads on either side: who did what to which item — never a place to go,
        // never “”.
        for node in [a, b] {
            let lines = changes(node), ana = "Ana", where_ = "on \(node.name)'s daemon: \(lines)"
            #expect(lines.contains { $0.hasPrefix("Bruno") && $0.contains("Lisbon → Porto") }, "\(where_)")
            #expect(lines.contains { $0.hasPrefix(ana) && $0.contains("Tasca do Chico") }, "\(where_)")
            #expect(
                lines.contains { $0.hasPrefix("Bruno") && $0.contains("removed") && $0.contains("Tasca") }, "\(where_)")
            #expect(
                lines.contains { $0.hasPrefix(ana) && $0.contains("IC 521") && $0.contains("Lisbon → Porto") },
                "\(where_)")
            #expect(lines.contains { $0.contains("Sunscreen") }, "\(where_)")
            #expect(!lines.contains { $0.contains("“”") }, "an item named by nothing \(where_)")
            #expect(!lines.contains { $0.contains("places to go") }, "items are not places to go \(where_)")
        }
    }

    @Test("an editor's offline items, made while the owner made him a viewer, end the same on both daemons")
    func editsConcurrentWithDemotion() async throws {
        let (a, b, it) = try await Self.sharedTrip()
        _ = try a.addItem(it, #"{"type":"food","title":"Before"}"#)
        try await eventually("Bruno has Ana's item") { b.items(it)?.count == 1 }
        // Bruno, cut off from Ana, adds an item and ticks nothing; Ana, cut off from Bruno,
        // makes him a viewer. Then they meet.
        a.stop()
        _ = try b.addItem(it, #"{"type":"activity","title":"Bruno's offline pick","start":"2027-05-02"}"#)
        _ = try b.addLine(it, #"{"text":"Bruno's offline line"}"#)
        b.stop()
        try a.start()
        try a.share(it, with: b.id, role: "viewer")
        try b.start()
        do {
            try await eventually("both daemons show the same items, checklist and role", timeout: .seconds(20)) {
                let role = try b.itinerary(it).role
                return role == "viewer" && Self.sameItems(a, b, it) && a.checklist(it) == b.checklist(it)
            }
        } catch {
            Issue.record(
                "Ana: \(a.titles(it)) \(a.checklist(it) ?? [])\nBruno: \(b.titles(it)) \(b.checklist(it) ?? [])")
            throw error
        }
        print("edits concurrent with a demotion: both show \(a.titles(it)), \(a.checklist(it)?.count ?? 0) lines")
        // And now he is refused.
        let r = try b.d.send("POST", "/v1/itineraries/\(it)/items", json: #"{"type":"food","title":"After"}"#)
        #expect(r.status == 403 && b.problemCode(r.text) == "read-only", "\(r.text)")
    }

    @Test("a viewer is refused every item and checklist change with 403 read-only, and still sees the items")
    func viewerIsReadOnly() async throws {
        let (a, b, it) = try await Self.sharedTrip()
        let c = try SyncNode("Carla")
        try a.addPeer(c)
        try c.addPeer(a)
        try c.trust(a)
        let tour = try a.addItem(it, #"{"type":"activity","title":"Belém tour","start":"2027-05-02T10:00"}"#)
        _ = try a.addItem(it, #"{"type":"lodging","title":"Casa","start":"2027-05-01","end":"2027-05-05"}"#)
        let line = try a.addLine(it, #"{"text":"Adapters"}"#)
        try a.share(it, with: c.id, role: "viewer")
        try await eventually("Carla holds the trip with its items and checklist") {
            c.items(it)?.count == 2 && c.checklist(it)?.count == 1
        }
        // Bruno was an editor; Ana makes him a viewer too.
        try a.share(it, with: b.id, role: "viewer")
        try await eventually("Bruno is a viewer now") { try b.itinerary(it).role == "viewer" }

        let attempts: [(String, String, String?)] = [
            ("POST", "items", #"{"type":"food","title":"Carla's pick"}"#),
            ("PATCH", "items/\(tour)", #"{"title":"Carla's tour"}"#),
            ("DELETE", "items/\(tour)", nil),
            ("POST", "items/\(tour)/move", #"{"date":"2027-05-03"}"#),
            ("POST", "checklist", #"{"text":"Carla's line"}"#),
            ("PATCH", "checklist/\(line)", #"{"checked":true}"#),
            ("DELETE", "checklist/\(line)", nil),
            ("POST", "checklist/\(line)/move", #"{"position":1}"#),
        ]
        for viewer in [c, b] {
            for (method, path, body) in attempts {
                let r = try viewer.d.send(method, "/v1/itineraries/\(it)/\(path)", json: body)
                #expect(r.status == 403, "\(viewer.name): \(method) \(path) → \(r.status) \(r.text)")
                #expect(viewer.problemCode(r.text) == "read-only", "\(viewer.name): \(method) \(path): \(r.text)")
            }
        }
        // Nothing changed anywhere, and the viewers still show what the owner shows.
        try await Task.sleep(for: .milliseconds(300))
        #expect(a.titles(it).sorted() == ["Belém tour", "Casa"])
        #expect(a.checklist(it)?.first?["checked"] == .bool(false))
        for viewer in [c, b] {
            #expect(Self.sameItems(a, viewer, it), "\(viewer.name) shows \(viewer.titles(it))")
            #expect(viewer.checklist(it) == a.checklist(it))
            #expect(try viewer.d.send("GET", "/v1/itineraries/\(it)/days").status == 200)
        }
    }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list = [String]()

    func add(_ text: String) { lock.withLock { list.append(text) } }
    var all: [String] { lock.withLock { list } }
}
