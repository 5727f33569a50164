import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The trip commands of the real `places` binary against a scripted daemon: what they send
/// (checked against the spec's request schemas) and what a user reads. Every scripted
/// answer is a PlacesAPI value encoded as the daemon encodes it and checked against the
/// spec's response schemas, so the types, the spec and the CLI are held together.
@Suite("places CLI: trips", .serialized)
struct CLITripTests {
    static let hotel = TripItem(
        id: String(repeating: "a", count: 32), type: "lodging", title: "Casa Porto", start: "2027-05-03T15:00",
        end: "2027-05-06T11:00", timeZone: "Europe/Lisbon", location: ItemLocation(address: "Rua das Flores 1"),
        price: Money(amountMinor: 34_000, currency: "EUR"), confirmationCode: "X7K2",
        createdAt: "2026-11-24T10:00:00.000Z")
    static let train = TripItem(
        id: String(repeating: "b", count: 32), type: "transport", title: "Train Lisbon → Porto",
        start: "2027-05-03T09:10", end: "2027-05-03T12:05", timeZone: "Europe/Lisbon",
        location: ItemLocation(name: "Lisbon"), to: ItemLocation(name: "Porto"), mode: "train", carrier: "CP",
        number: "123", createdAt: "2026-11-24T10:00:00.000Z")
    static let dinner = TripItem(
        id: String(repeating: "c", count: 32), type: "food", title: "Ramiro", start: "2027-05-03T20:00",
        timeZone: "Europe/Lisbon", rating: 4.5, createdAt: "2026-11-24T10:00:00.000Z")
    static let lello = TripItem(
        id: String(repeating: "d", count: 32), type: "place", title: "Livraria Lello",
        location: ItemLocation(latitude: 41.1469, longitude: -8.6148), placeId: String(repeating: "e", count: 32))
    static let day3 = TripDay(date: "2027-05-03", number: 3, lodging: hotel, items: [train, hotel, dinner, lello])

    static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> ScriptedDaemon.Answer {
        ScriptedDaemon.Answer(
            status: status, contentType: "application/json", body: Array(try ControlJSON.encoder.encode(value)))
    }

    /// Runs `places` against a daemon answering `script`; every answer and every JSON
    /// request body is checked against Protocol/control-api.yaml.
    func run(
        _ arguments: [String], _ script: [String: ScriptedDaemon.Answer] = [:]
    ) throws -> (result: CommandResult, requests: [ScriptedDaemon.Request]) {
        let checker = try #require(ResponseChecker.controlAPI)
        let document = try OpenAPIDocument.controlAPI.get()
        for (key, answer) in script {
            let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
            let problems = checker.problems(
                method: parts[0], target: parts[1], status: answer.status, contentType: answer.contentType,
                body: answer.body)
            #expect(problems.isEmpty, "\(key): \(problems)")
        }
        let dir = TempDir()
        defer { dir.remove() }
        let daemon = try ScriptedDaemon(socketPath: dir.path + ".sock", script: script)
        defer { daemon.stop() }
        let result = try runCommand(Binaries.places, ["--socket", daemon.socketPath] + arguments)
        for request in daemon.requests where request.contentType == "application/json" && !request.body.isEmpty {
            let path = String(request.target.split(separator: "?")[0])
            let op = try #require(document.operation(method: request.method, path: path), "\(path) not in the spec")
            let schema = op.object["requestBody"]?.members["content"]?.members["application/json"]?.members["schema"]
            let body = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
            let violations = SchemaValidator(document: document).validate(body, against: try #require(schema))
            #expect(violations.isEmpty, "\(request.method) \(path) body \(request.text): \(violations)")
        }
        return (result, daemon.requests)
    }

    @Test("a day reads as a plan: times, symbols, where you sleep")
    func dayView() throws {
        let script = ["GET /v1/itineraries/b70f/days/3": try Self.json(Self.day3)]
        let shown = try run(["itinerary", "show", "b70f", "--day", "3"], script).result
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.stdout == """
                Day 3 · Mon 3 May 2027 · sleeping at Casa Porto
                  09:10–12:05  🚆 Train Lisbon → Porto  (CP 123)
                  15:00        🛏 Check in Casa Porto
                  20:00        🍽 Ramiro  (★4.5)
                               📍 Livraria Lello

                """)
        let plain = try run(["itinerary", "show", "b70f", "--day", "3", "--plain"], script).result
        #expect(plain.stdout.contains("  20:00        [food] Ramiro  (4.5/5)\n"))
        #expect(!plain.stdout.unicodeScalars.contains { $0.properties.isEmojiPresentation })

        let overnight = TripItem(
            id: String(repeating: "f", count: 32), type: "transport", title: "Lisbon → Tokyo",
            start: "2027-05-04T22:40",
            end: "2027-05-05T18:15", timeZone: "Europe/Lisbon", endTimeZone: "Asia/Tokyo", mode: "flight")
        let days = DayList(
            days: [Self.day3, TripDay(date: "2027-05-04", number: 4, items: [overnight])],
            unscheduled: [
                TripItem(id: String(repeating: "9", count: 32), type: "activity", title: "Port tasting", booked: true)
            ])
        let all = try run(["itinerary", "days", "b70f"], ["GET /v1/itineraries/b70f/days": try Self.json(days)]).result
        #expect(all.stdout.contains("Day 4 · Tue 4 May 2027\n  22:40–18:15+1  ✈️ Lisbon → Tokyo\n"), "\(all.stdout)")
        #expect(all.stdout.hasSuffix("Not on a day yet:\n  🎟 Port tasting  (booked)\n"))
    }

    @Test("item add sends exact prices and the type's fields; a wrong option never reaches the daemon")
    func addItem() throws {
        let created = try Self.json(Self.train, status: 201)
        let (added, requests) = try run(
            [
                "item", "add", "b70f", "transport", "Train Lisbon → Porto", "--mode", "train", "--start",
                "2027-05-03 09:10", "--end", "2027-05-03T12:05", "--tz", "Europe/Lisbon", "--at", "Lisbon",
                "--lat=-9.5",
                "--lon", "38.7", "--to", "Porto", "--price", "34.5 EUR", "--carrier", "CP", "--number", "123",
            ], ["POST /v1/itineraries/b70f/items": created])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added transport bbbbbbbb Train Lisbon → Porto\n")
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(requests.first).body))
        #expect(body.members["price"] == Money(amountMinor: 3450, currency: "EUR").jsonValue)
        #expect(body.members["start"] == .string("2027-05-03T09:10"))
        #expect(body.members["location"]?.members["latitude"] == .double(-9.5))

        let yen = try run(["item", "add", "b70f", "food", "Sushi", "--price", "JPY 3000"], [:]).requests
        let yenBody = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(yen.first).body))
        #expect(yenBody.members["price"] == Money(amountMinor: 3000, currency: "JPY").jsonValue)

        for (arguments, message) in [
            (["food", "X", "--mode", "train"], "--mode is for transport items"),
            (["food", "X", "--price", "12.505 EUR"], "more decimals than EUR allows"),
            (["food", "X", "--price", "12.50"], "\"12.50 EUR\""),
            (["activity", "X", "--start", "2027-02-30"], "not a date"),
            (["transport", "X", "--lat", "1"], "--lat and --lon together"),
        ] {
            let (refused, sent) = try run(["item", "add", "b70f"] + arguments)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            #expect(sent.isEmpty)
        }
    }

    @Test("item edit sends only what changes; --clear sends null, a location part merges")
    func editItem() throws {
        let (edited, requests) = try run(
            [
                "item", "edit", "b70f", "cccc", "--rating", "4", "--clear", "coordinates", "--at", "Ramiro", "--clear",
                "price",
            ],
            ["PATCH /v1/itineraries/b70f/items/cccc": try Self.json(Self.dinner)])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(
            try #require(requests.first).text
                == #"{"location":{"latitude":null,"longitude":null,"name":"Ramiro"},"price":null,"rating":4}"#)
        #expect(edited.stdout.contains("4.5 / 5"))
        let clash = try run(["item", "edit", "b70f", "cccc", "--clear", "location", "--at", "X"]).result
        #expect(clash.status == 2 && clash.stderr.contains("--clear location conflicts"))
    }

    @Test("item move by day number or date, and the day comes back")
    func moveItem() throws {
        let script = ["POST /v1/itineraries/b70f/items/cccc/move": try Self.json(Self.day3)]
        let (moved, requests) = try run(["item", "move", "b70f", "cccc", "--day", "3", "--position", "2"], script)
        #expect(moved.status == 0 && moved.stdout.hasPrefix("Day 3 · Mon 3 May 2027"))
        #expect(try #require(requests.first).text == #"{"day":3,"position":2}"#)
        let byDate = try run(["item", "move", "b70f", "cccc", "--day", "2027-05-03"], script).requests
        #expect(try #require(byDate.first).text == #"{"date":"2027-05-03"}"#)
    }

    @Test("lists: items as a table with legacy ones marked, warnings as ⚠ lines, the checklist")
    func lists() throws {
        let legacy = TripItem(
            id: "legacy-lodging", type: "lodging", title: "Casa do Bairro", start: "2027-05-01", end: "2027-05-03",
            price: Money(amountMinor: 42_000, currency: "EUR"), legacy: true)
        let items = try run(
            ["item", "list", "b70f"],
            ["GET /v1/itineraries/b70f/items": try Self.json(ItemList(items: [Self.train, legacy], count: 2))]
        ).result
        #expect(items.stdout.contains("bbbbbbbb        transport/train  2027-05-03 09:10 → 12:05"))
        #expect(items.stdout.contains("legacy-lodging  lodging*         2027-05-01 → 2027-05-03"))
        #expect(items.stdout.contains("420.00 EUR"))

        let warning = TripWarning(
            code: "lodging-overlap", items: [legacy.id, Self.hotel.id],
            message: "“Casa do Bairro” and “Casa Porto” both cover the night of 3 May: shorten one stay.")
        let check = try run(
            ["itinerary", "check", "b70f"],
            ["GET /v1/itineraries/b70f/warnings": try Self.json(WarningList(warnings: [warning]))]
        ).result
        #expect(check.status == 0)
        #expect(check.stdout == "⚠ lodging-overlap: \(warning.message)\n1 warning\n")
        let fine = try run(
            ["itinerary", "check", "b70f"],
            ["GET /v1/itineraries/b70f/warnings": try Self.json(WarningList(warnings: []))]
        ).result
        #expect(fine.stdout == "no problems found\n")

        let entry = ChecklistItem(
            id: String(repeating: "1", count: 32), text: "Passport", checked: true, list: "Packing",
            assigneeName: "Bruno", position: 1, createdAt: "2026-11-24T10:00:00.000Z")
        let checklist = try run(
            ["checklist", "b70f"],
            ["GET /v1/itineraries/b70f/checklist": try Self.json(ChecklistList(items: [entry], count: 1))]
        ).result
        #expect(checklist.stdout.contains("1.  11111111  [x]   Passport  Packing  Bruno"), "\(checklist.stdout)")
        #expect(checklist.stdout.hasSuffix("1 of 1 done\n"))
        let (assigned, sent) = try run(
            ["checklist", "assign", "b70f", "1111", "--none"],
            ["PATCH /v1/itineraries/b70f/checklist/1111": try Self.json(entry)])
        #expect(assigned.status == 0)
        #expect(try #require(sent.first).text == #"{"assignee":null}"#)
    }

    @Test("import sends the file as is with its media type; exports keep their bytes; refusals exit 1")
    func files() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let kml = dir.path + "/saved.kml"
        let content = #"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>"#
        try content.write(toFile: kml, atomically: true, encoding: .utf8)
        let result = ImportResult(
            imported: 12, skipped: 3, ignored: [ImportIgnored(index: 4, reason: "“Walk” is a track, not a place")],
            places: [])
        let (imported, requests) = try run(
            ["place", "import", kml], ["POST /v1/places/import": try Self.json(result)])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout
                == "imported 12 places, skipped 3 already in your library\n  ignored entry 5: “Walk” is a track, not a place\n"
        )
        let request = try #require(requests.first)
        #expect(request.contentType == "application/vnd.google-earth.kml+xml" && request.text == content)
        let unknown = try run(["place", "import", dir.path + "/saved.txt"]).result
        #expect(unknown.status == 2 && unknown.stderr.contains("--format"))

        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
        let exported = try run(
            ["itinerary", "export", "b70f", "--format", "ics"],
            [
                "GET /v1/itineraries/b70f/calendar": ScriptedDaemon.Answer(
                    status: 200, contentType: "text/calendar; charset=utf-8", body: Array(calendar.utf8))
            ]
        ).result
        #expect(exported.stdout == calendar)

        let missing = try run(["item", "show", "b70f", "9999"]).result
        #expect(missing.status == 1 && missing.stderr.contains("no item with id"))
    }
}

extension JSONValue {
    /// The members of an object (empty for anything else).
    fileprivate var members: [String: JSONValue] { if case .object(let o) = self { o } else { [:] } }
}
