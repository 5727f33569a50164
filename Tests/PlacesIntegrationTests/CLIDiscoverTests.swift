import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Names anywhere a place, favorite or itinerary is taken: the real `places` binary against
/// a real daemon (needs nothing of issue 15's daemon routes).
@Suite("places CLI: names", .serialized)
struct CLINameTests {
    /// A running, initialised daemon with a few places and itineraries.
    struct Fixture {
        let dir = TempDir()
        let daemon: DaemonProcess

        init() throws {
            daemon = DaemonProcess(dataDir: dir.path)
            try daemon.start()
            try daemon.initialize()
        }

        func stop() {
            _ = daemon.stop()
            dir.remove()
        }

        /// Adds a library place, returning its id.
        func place(_ name: String, _ latitude: Double, _ longitude: Double) throws -> String {
            let added = try daemon.cli([
                "place", "add", name, "--lat", String(latitude), "--lon", String(longitude), "--json",
            ])
            guard added.status == 0 else { throw HarnessError("place add \(name): \(added.stderr)") }
            return try JSONDecoder().decode(Place.self, from: Data(added.stdout.utf8)).id
        }
    }

    @Test("a place by exact name, without accents, by a unique prefix, by id; several → listed, exit 2")
    func places() throws {
        let f = try Fixture()
        defer { f.stop() }
        let tower = try f.place("Belém Tower", 38.6916, -9.2160)
        let brasileira = try f.place("Café A Brasileira", 38.7107, -9.1416)
        let nicola = try f.place("Café Nicola", 38.7139, -9.1394)

        let exact = try f.daemon.cli(["place", "show", "Belém Tower"])
        #expect(exact.status == 0 && exact.stdout.contains(tower), "\(exact.stderr)")
        let plain = try f.daemon.cli(["place", "show", "BELEM TOWER"])
        #expect(plain.status == 0 && plain.stdout.contains(tower), "\(plain.stderr)")
        let prefix = try f.daemon.cli(["place", "show", "bel"])
        #expect(prefix.status == 0 && prefix.stdout.contains(tower), "\(prefix.stderr)")
        let byID = try f.daemon.cli(["place", "show", String(nicola.prefix(8))])
        #expect(byID.status == 0 && byID.stdout.contains("Café Nicola"), "\(byID.stderr)")

        // "cafe" is also 4 hex digits: as a name it is two places, listed with their ids.
        let several = try f.daemon.cli(["place", "show", "cafe"])
        #expect(several.status == 2)
        #expect(several.stderr.contains("could be 2 places"))
        #expect(several.stderr.contains("\(brasileira.prefix(8))  Café A Brasileira"))
        #expect(several.stderr.contains("\(nicola.prefix(8))  Café Nicola"))
        #expect(several.stdout.isEmpty)

        let none = try f.daemon.cli(["place", "show", "Jerónimos"])
        #expect(none.status == 2 && none.stderr.contains("no place called “Jerónimos”"), "\(none.stderr)")
        // An id nobody has is still the daemon's to refuse, as before.
        let unknownID = try f.daemon.cli(["place", "show", "abcdef12"])
        #expect(unknownID.status == 1 && unknownID.stderr.contains("no place"))

        let edited = try f.daemon.cli(["place", "edit", "cafe nic", "--rating", "4"])
        #expect(edited.status == 0 && edited.stdout.contains("4 / 5"), "\(edited.stderr)")
        let removed = try f.daemon.cli(["place", "remove", "café a"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = try f.daemon.cli(["place", "list"])
        #expect(!left.stdout.contains("Brasileira") && left.stdout.contains("Nicola"))
    }

    @Test("favorites by their place's name: add, move, remove; share needs a favorite's name too")
    func favorites() throws {
        let f = try Fixture()
        defer { f.stop() }
        _ = try f.place("Belém Tower", 38.6916, -9.2160)
        _ = try f.place("Padrão dos Descobrimentos", 38.6936, -9.2057)

        let hearted = try f.daemon.cli(["favorite", "add", "belem tower"])
        #expect(hearted.status == 0 && hearted.stdout.contains("♥ Belém Tower is favorite #1"), "\(hearted.stderr)")
        #expect(try f.daemon.cli(["favorite", "add", "padrao"]).status == 0)
        let moved = try f.daemon.cli(["favorite", "move", "padrão dos", "--to", "1"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let lines = moved.stdout.split(separator: "\n")
        #expect(lines.count >= 2 && lines[1].contains("Padrão dos Descobrimentos"))
        let missing = try f.daemon.cli(["favorite", "remove", "jeronimos"])
        #expect(missing.status == 2 && missing.stderr.contains("no favorite called “jeronimos”"))
        let removed = try f.daemon.cli(["favorite", "remove", "BELEM"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let list = try f.daemon.cli(["favorite", "list"])
        #expect(!list.stdout.contains("Belém") && list.stdout.contains("1 favorite"))
    }

    @Test("itineraries by name: show, activity, add-place with a place's name; ambiguous → exit 2")
    func itineraries() throws {
        let f = try Fixture()
        defer { f.stop() }
        _ = try f.place("Belém Tower", 38.6916, -9.2160)
        _ = try f.place("Café Nicola", 38.7139, -9.1394)
        let weekend = try f.daemon.cli(["itinerary", "create", "Lisbon weekend", "--place", "belem", "--json"])
        #expect(weekend.status == 0, "\(weekend.stderr)")
        let weekendID = try JSONDecoder().decode(Itinerary.self, from: Data(weekend.stdout.utf8)).id
        let wine = try f.daemon.cli(["itinerary", "create", "Lisbon wine tour", "--json"])
        let wineID = try JSONDecoder().decode(Itinerary.self, from: Data(wine.stdout.utf8)).id

        let shown = try f.daemon.cli(["itinerary", "show", "lisbon weekend"])
        #expect(shown.status == 0 && shown.stdout.contains(weekendID) && shown.stdout.contains("Belém Tower"))
        let activity = try f.daemon.cli(["activity", "LISBON WE"])
        #expect(activity.status == 0, "\(activity.stderr)")
        let added = try f.daemon.cli(["itinerary", "add-place", "lisbon wi", "cafe nic"])
        #expect(added.status == 0 && added.stdout.contains(wineID) && added.stdout.contains("Café Nicola"))

        let unstopped = try f.daemon.cli(["itinerary", "remove-place", "lisbon wi", "NICOLA"])
        #expect(unstopped.status == 0 && !unstopped.stdout.contains("Café Nicola"), "\(unstopped.stderr)")

        let both = try f.daemon.cli(["itinerary", "show", "lisbon"])
        #expect(both.status == 2 && both.stderr.contains("could be 2 itineraries"))
        #expect(both.stderr.contains("\(weekendID.prefix(8))  Lisbon weekend"))
        #expect(both.stderr.contains("\(wineID.prefix(8))  Lisbon wine tour"))
        let none = try f.daemon.cli(["checklist", "add", "Porto trip", "passport"])
        #expect(none.status == 2 && none.stderr.contains("no itinerary called “Porto trip”"), "\(none.stderr)")
    }

    @Test("discover's bad input is refused before anything is sent")
    func discoverUsage() throws {
        let f = try Fixture()
        defer { f.stop() }
        for (arguments, message) in [
            (["discover", "par", "--limit", "0"], "--limit must be 1 to 100"),
            (["discover", "par", "--near", "95,0"], "between -90 and 90"),
            (["discover", "par", "--near", "here"], "not LAT,LON"),
            (["discover", "par", "--kind", "planet"], "--kind must be one of"),
            (["discover", String(repeating: "a", count: 201)], "200 at most"),
            (["discover", "   "], "the query is empty"),
            (["discover", "par", "--sort", "up"], "--sort"),
            (["favorite", "share", "off", "--only", "x"], "--only goes with `on`"),
        ] {
            let refused = try f.daemon.cli(arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }
}

/// What `places discover` and the result arguments send and print, against a scripted
/// daemon answering with the JSON of design §2 (runs today, before the daemon's routes).
@Suite("places CLI: discover output", .serialized)
struct CLIDiscoverOutputTests {
    static let lisbon = #"""
        {"id":"city:2267057","kind":"city","name":"Lisbon","region":"Lisbon","country":"Portugal",\#
        "countryCode":"PT","continent":"Europe","latitude":38.71667,"longitude":-9.13333,\#
        "population":517802,"popularity":2,"favorite":true}
        """#
    static let portugal = #"""
        {"id":"country:PT","kind":"country","name":"Portugal","region":null,"country":"Portugal",\#
        "countryCode":"PT","continent":"Europe","latitude":39.5,"longitude":-8.0,\#
        "population":10305564,"popularity":0,"favorite":false}
        """#

    func run(
        _ arguments: [String], _ script: [String: ScriptedDaemon.Answer]
    ) throws -> (result: CommandResult, requests: [ScriptedDaemon.Request]) {
        let dir = TempDir()
        defer { dir.remove() }
        let daemon = try ScriptedDaemon(socketPath: dir.path + ".sock", script: script)
        defer { daemon.stop() }
        let result = try runCommand(Binaries.places, ["--socket", daemon.socketPath] + arguments)
        return (result, daemon.requests)
    }

    @Test("a results table: rank, name, kind, where, population, popularity, heart, id")
    func table() throws {
        let body = #"{"results":[\#(Self.lisbon),\#(Self.portugal)]}"#
        let target = "/v1/discover?q=lis%20boa&kind=city&near=38.7,-9.1&limit=5"
        let (shown, requests) = try run(
            ["discover", "lis boa", "--kind", "city", "--near", "38.7,-9.1", "--limit", "5"],
            ["GET \(target)": .json(200, body)])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(requests.map(\.target) == [target])
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("#  NAME      KIND     WHERE") == true, "\(shown.stdout)")
        #expect(lines.count == 3)
        #expect(lines[1].contains("Lisbon") && lines[1].contains("Lisbon, Portugal") && lines[1].contains("517,802"))
        #expect(lines[1].contains("♥") && lines[1].hasSuffix("city:2267057"))
        #expect(lines[2].contains("country") && lines[2].contains("Europe") && lines[2].contains("10,305,564"))

        let json = try run(["discover", "lisboa", "--json"], ["GET /v1/discover?q=lisboa": .json(200, body)])
        #expect(json.result.stdout == body + "\n")
        let nothing = try run(["discover", "xyzzy"], ["GET /v1/discover?q=xyzzy": .json(200, #"{"results":[]}"#)])
        #expect(nothing.result.status == 0 && nothing.result.stdout.contains("nothing found for “xyzzy”"))
    }

    @Test("--sort always keeps the choice (PUT /v1/preferences), then searches when a query is given")
    func sort() throws {
        let saved = #"{"discoverSort":"descending"}"#
        let (set, sent) = try run(["discover", "--sort", "desc"], ["PUT /v1/preferences": .json(200, saved)])
        #expect(set.status == 0 && set.stdout.contains("discover sort: descending"), "\(set.stderr)")
        #expect(sent.map { "\($0.method) \($0.target) \($0.text)" } == ["PUT /v1/preferences \(saved)"])

        let (searched, both) = try run(
            ["discover", "par", "--sort", "asc"],
            [
                "PUT /v1/preferences": .json(200, #"{"discoverSort":"ascending"}"#),
                "GET /v1/discover?q=par": .json(200, #"{"results":[\#(Self.lisbon)]}"#),
            ])
        #expect(searched.status == 0 && searched.stderr.contains("discover sort: ascending"))
        #expect(both.map(\.method) == ["PUT", "GET"])
        #expect(searched.stdout.contains("city:2267057"))

        let shown = try run(["discover"], ["GET /v1/preferences": .json(200, #"{"discoverSort":"off"}"#)]).result
        #expect(shown.stdout.contains("discover sort: off"))
    }

    @Test("place add NAME: the first result is used and named; its gazetteer id goes with it")
    func placeAdd() throws {
        let created = #"""
            {"id":"\#(String(repeating: "a", count: 32))","name":"Lisbon","latitude":38.71667,"longitude":-9.13333,\#
            "categories":[],"favorite":false,"createdAt":"2026-11-25T06:00:00.000Z","gazetteerId":"city:2267057"}
            """#
        let (added, requests) = try run(
            ["place", "add", "lisboa"],
            [
                "GET /v1/discover?q=lisboa&limit=5": .json(200, #"{"results":[\#(Self.lisbon)]}"#),
                "GET /v1/places": .json(200, #"{"places":[],"count":0}"#),
                "POST /v1/places": .json(201, created),
            ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.contains("using Lisbon, Lisbon, Portugal (city:2267057)"))
        #expect(added.stdout.contains("added place aaaaaaaa Lisbon"))
        let post = try #require(requests.first { $0.method == "POST" })
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(post.body))
        #expect(body.objectValue?["gazetteerId"] == .string("city:2267057"))
        #expect(body.objectValue?["name"] == .string("Lisbon"))

        // The same result again: the library place with that gazetteer id is reused.
        let listed = #"{"places":[\#(created)],"count":1}"#
        let (again, sent) = try run(
            ["place", "add", "city:2267057"],
            [
                "GET /v1/discover/city:2267057": .json(200, Self.lisbon),
                "GET /v1/places": .json(200, listed),
                "GET /v1/places/\(String(repeating: "a", count: 32))": .json(200, created),
            ])
        #expect(again.status == 0 && again.stdout.contains("already in your library"), "\(again.stderr)")
        #expect(!sent.contains { $0.method == "POST" })
    }
}

/// The discover commands against a real daemon with issue 15's routes
/// (`GET /v1/discover`, `PUT /v1/preferences`, `POST /v1/places` with `gazetteerId`,
/// `/v1/favorites/sharing`, `/v1/contacts/{id}`). NEEDS THE DAEMON ROUTES: these fail on a
/// daemon without them; the lead runs them after merging.
@Suite("places CLI: discover (needs the daemon's discover routes)", .serialized)
struct CLIDiscoverRouteTests {
    @Test("discover, then place add / favorite add / add-place from results, reusing the library place")
    func fromResults() throws {
        let f = try CLINameTests.Fixture()
        defer { f.stop() }
        let found = try f.daemon.cli(["discover", "lisboa"])
        #expect(found.status == 0, "\(found.stderr)")
        let first = found.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(first.contains("Lisbon") && first.contains("city") && first.contains("Portugal"), "\(found.stdout)")

        let json = try f.daemon.cli(["discover", "sao paulo", "--limit", "3", "--json"])
        let results = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8))
        let best = results.objectValue?["results"]?.arrayValue?.first?.objectValue
        #expect(best?["name"] == .string("São Paulo") && best?["kind"] == .string("city"))

        let added = try f.daemon.cli(["place", "add", "Lisbon"])
        #expect(added.status == 0 && added.stderr.contains("using Lisbon"), "\(added.stderr)")
        let again = try f.daemon.cli(["place", "add", "lisboa"])
        #expect(again.status == 0 && again.stdout.contains("already in your library"), "\(again.stdout)")
        let hearted = try f.daemon.cli(["favorite", "add", "Lisbon"])
        #expect(hearted.status == 0 && hearted.stdout.contains("♥ Lisbon"), "\(hearted.stderr)")
        let porto = try f.daemon.cli(["favorite", "add", "porto"])
        #expect(porto.status == 0 && porto.stderr.contains("using Porto"), "\(porto.stderr)")
        let list = try f.daemon.cli(["place", "list"])
        #expect(list.stdout.contains("2 places"), "\(list.stdout)")

        let near = try f.daemon.cli(["place", "add", "Belem Tower", "--in", "Lisbon"])
        #expect(near.status == 0 && near.stdout.contains("added place"), "\(near.stderr)")
        #expect(near.stderr.contains("Lisbon"))
        let named = try f.daemon.cli(["place", "show", "belem tower"])
        #expect(named.status == 0 && named.stdout.contains("Belem Tower"), "\(named.stderr)")
        _ = try f.daemon.cli(["itinerary", "create", "Porto days"])
        let stop = try f.daemon.cli(["itinerary", "add-place", "porto d", "Porto"])
        #expect(stop.status == 0 && stop.stdout.contains("Porto"), "\(stop.stderr)")
        #expect(try f.daemon.cli(["place", "list"]).stdout.contains("3 places"))

        let shown = try f.daemon.cli(["discover", "lisbon", "--kind", "city"])
        #expect(shown.stdout.split(separator: "\n").dropFirst().first?.contains("♥") == true, "\(shown.stdout)")
    }

    @Test("the sort toggle is kept: --sort desc, then plain discover shows it; --sort off clears it")
    func sortKept() throws {
        let f = try CLINameTests.Fixture()
        defer { f.stop() }
        #expect(try f.daemon.cli(["discover"]).stdout.contains("discover sort: off"))
        let set = try f.daemon.cli(["discover", "--sort", "desc"])
        #expect(set.status == 0 && set.stdout.contains("descending"), "\(set.stderr)")
        #expect(try f.daemon.cli(["discover"]).stdout.contains("discover sort: descending"))
        let searched = try f.daemon.cli(["discover", "par", "--sort", "asc"])
        #expect(searched.status == 0 && searched.stderr.contains("ascending"))
        #expect(try f.daemon.cli(["discover"]).stdout.contains("discover sort: ascending"))
        _ = try f.daemon.cli(["discover", "--sort", "off"])
        #expect(try f.daemon.cli(["discover"]).stdout.contains("discover sort: off"))
    }

    @Test("favorite share on, --only, off and its status; contacts list and an unknown contact")
    func sharing() throws {
        let f = try CLINameTests.Fixture()
        defer { f.stop() }
        _ = try f.place("Belém Tower", 38.6916, -9.2160)
        _ = try f.place("Café Nicola", 38.7139, -9.1394)
        _ = try f.daemon.cli(["favorite", "add", "belem"])
        _ = try f.daemon.cli(["favorite", "add", "nicola"])
        #expect(try f.daemon.cli(["favorite", "share"]).stdout.contains("not sharing"))
        let all = try f.daemon.cli(["favorite", "share", "on"])
        #expect(all.status == 0 && all.stdout.contains("sharing all your favorites"), "\(all.stderr)")
        let some = try f.daemon.cli(["favorite", "share", "on", "--only", "cafe nicola"])
        #expect(some.status == 0 && some.stdout.contains("sharing 1 favorite with your contacts: Café Nicola"))
        #expect(try f.daemon.cli(["favorite", "share"]).stdout.contains("Café Nicola"))
        let off = try f.daemon.cli(["favorite", "share", "off"])
        #expect(off.status == 0 && off.stdout.contains("not sharing"))

        #expect(try f.daemon.cli(["contacts"]).stdout.contains("no contacts yet"))
        let nobody = try f.daemon.cli(["contacts", "show", String(repeating: "a", count: 64)])
        #expect(nobody.status == 1)
    }
}
