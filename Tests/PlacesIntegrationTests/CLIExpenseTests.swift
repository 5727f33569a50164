import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The expense commands of the real `places` binary (issue 14): first against a scripted
/// daemon, for what they send (checked against the spec's request schemas) and what a user
/// reads; then against a real daemon, the issue's own command line to settling up.
@Suite("places CLI: expenses", .serialized)
struct CLIExpenseTests {
    static let ana = "AOQQPP7-TZYIL44-HLQ3UMO-OS6ATFL-T6JVRQT-OSQ2XYH-53SDGIE-SVGG4AV"
    static let bruno = String(repeating: "b", count: 32)
    static let carla = String(repeating: "c", count: 32)
    static let jose = String(repeating: "d", count: 32)
    static let anabel = String(repeating: "a", count: 32)

    static let travellers = """
        {"travellers":[\
        {"id":"\(ana)","name":"Ana","member":true,"expenseCount":1},\
        {"id":"\(anabel)","name":"Anabel","member":false,"expenseCount":0},\
        {"id":"\(bruno)","name":"Bruno","member":false,"expenseCount":1},\
        {"id":"\(carla)","name":"Carla","member":false,"expenseCount":1},\
        {"id":"\(jose)","name":"José","member":false,"expenseCount":0}],"count":5}
        """

    static let dinner = """
        {"id":"\(String(repeating: "e", count: 32))","title":"Dinner at Ramiro","kind":"expense",\
        "amount":{"amountMinor":8450,"currency":"EUR"},"date":"2027-05-03","category":"food",\
        "paidBy":[{"traveller":"\(ana)","name":"Ana","amountMinor":8450}],\
        "split":{"mode":"equal","among":[{"traveller":"\(ana)","name":"Ana","shareMinor":2817},\
        {"traveller":"\(bruno)","name":"Bruno","shareMinor":2817},\
        {"traveller":"\(carla)","name":"Carla","shareMinor":2816}]},\
        "settlementAmount":{"amountMinor":8450,"currency":"EUR"},"createdBy":"\(ana)","createdByName":"Ana",\
        "createdAt":"2026-11-25T03:00:00.000Z"}
        """

    static let base: [String: ScriptedDaemon.Answer] = [
        "GET /v1/itineraries/b70f/travellers": .json(200, travellers),
        "GET /v1/profile": .json(200, #"{"id":"\#(ana)","name":"Ana","username":"ana"}"#),
        "POST /v1/itineraries/b70f/expenses": .json(201, dinner),
    ]

    /// Runs `places` against a daemon answering `script` (with ``base`` under it); every
    /// answer and every JSON request body is checked against Protocol/control-api.yaml.
    func run(
        _ arguments: [String], _ script: [String: ScriptedDaemon.Answer] = [:]
    ) throws -> (result: CommandResult, requests: [ScriptedDaemon.Request]) {
        let script = Self.base.merging(script) { $1 }
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

    /// The body of the one POST to the expenses.
    func posted(_ arguments: [String]) throws -> JSONValue {
        let (result, requests) = try run(["expense", "add", "b70f"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let post = try #require(requests.first { $0.method == "POST" })
        return try JSONDecoder().decode(JSONValue.self, from: Data(post.body))
    }

    @Test("the issue's line: names resolved to ids, 84.50 EUR sent as 8450, equal among three")
    func issueLine() throws {
        let (added, requests) = try run([
            "expense", "add", "b70f", "Dinner at Ramiro", "84.50", "EUR", "--paid-by", "ana", "--split", "equal",
            "--among", "ana,bruno,carla",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout
                == "added expense eeeeeeee “Dinner at Ramiro” 84.50 EUR: paid by Ana; equal: Ana, Bruno, Carla\n")
        // The profile is not asked for: nobody said `me`.
        #expect(
            requests.map { "\($0.method) \($0.target)" } == [
                "GET /v1/itineraries/b70f/travellers", "POST /v1/itineraries/b70f/expenses",
            ])
        #expect(
            requests.last?.text
                == #"{"amount":{"amountMinor":8450,"currency":"EUR"},"paidBy":[{"traveller":"\#(Self.ana)"}],"#
                + #""split":{"among":[{"traveller":"\#(Self.ana)"},{"traveller":"\#(Self.bruno)"},"#
                + #"{"traveller":"\#(Self.carla)"}],"mode":"equal"},"title":"Dinner at Ramiro"}"#)
    }

    @Test("amounts use the currency's exponent; more decimals than it has never reach the daemon")
    func amounts() throws {
        let yen = try posted(["Sushi", "1200", "JPY", "--paid-by", "bruno"])
        #expect(yen.members["amount"] == Money(amountMinor: 1200, currency: "JPY").jsonValue)
        #expect(yen.members["split"] == .object(["mode": .string("equal")]))
        let dinar = try posted(["Tea", "1.250", "bhd", "--paid-by", "bruno"])
        #expect(dinar.members["amount"] == Money(amountMinor: 1250, currency: "BHD").jsonValue)
        #expect(
            try posted(["Tip", "0.5", "EUR", "--paid-by", "bruno"]).members["amount"]?.members["amountMinor"]
                == .int(50))

        for (arguments, message) in [
            (["84.505", "EUR"], "AMOUNT: '84.505' has 3 decimals but EUR has only 2"),
            (["1200.5", "JPY"], "AMOUNT: '1200.5' has 1 decimal"),
            (["1.2505", "BHD"], "AMOUNT: '1.2505' has 4 decimals but BHD has only 3"),
            (["84,50", "EUR"], "with a dot (84.50)"),
            (["1e3", "EUR"], "without an exponent"),
            (["0", "EUR"], "must be more than zero"),
            (["12", "EURO"], "not an ISO 4217 currency code"),
            (["12", "XYZ"], "not an ISO 4217 currency code"),
            (
                ["10", "EUR", "--paid-by", "ana:5,bruno:4"],
                "--paid-by amounts sum to 9.00 EUR, not the expense's 10.00 EUR"
            ),
            (["10", "EUR", "--paid-by", "ana:5.001,bruno"], "--paid-by ana: '5.001' has 3 decimals"),
            (["10", "EUR", "--split", "percent", "--among", "ana:50,bruno:40"], "sum to 90%, not 100%"),
            (["10", "EUR", "--split", "exact", "--among", "ana:6,bruno:5"], "sum to 11.00 EUR, not 10.00 EUR"),
            (["10", "EUR", "--among", "ana:2,bruno"], "--split equal takes names only"),
            (["10", "EUR", "--split", "shares", "--among", "ana:1.5,bruno"], "shares are whole numbers"),
            (["10", "EUR", "--among", "ana,bruno,ana"], "names 'ana' twice"),
        ] {
            let (refused, sent) = try run(["expense", "add", "b70f", "X"] + arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.status)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            #expect(sent.isEmpty, "\(arguments)")
        }
    }

    @Test("names: any case and accent, exact before a unique prefix, `me`; unknown or ambiguous exits 2")
    func names() throws {
        func payer(_ name: String) throws -> JSONValue? {
            try posted(["X", "10", "EUR", "--paid-by", name]).members["paidBy"]
        }
        #expect(try payer("BRUNO") == .array([.object(["traveller": .string(Self.bruno)])]))
        #expect(try payer("jose") == .array([.object(["traveller": .string(Self.jose)])]))
        #expect(try payer("car") == .array([.object(["traveller": .string(Self.carla)])]))
        // "ana" is Ana exactly, though Anabel starts with it too.
        #expect(try payer("ana") == .array([.object(["traveller": .string(Self.ana)])]))
        #expect(try payer("me") == .array([.object(["traveller": .string(Self.ana)])]))
        #expect(try payer("dddd") == .array([.object(["traveller": .string(Self.jose)])]))

        let ambiguous = try run(["expense", "add", "b70f", "X", "10", "EUR", "--paid-by", "an"])
        #expect(ambiguous.result.status == 2)
        #expect(ambiguous.result.stderr.contains("“an” could be 2 travellers"), "\(ambiguous.result.stderr)")
        #expect(ambiguous.result.stderr.contains("Ana (") && ambiguous.result.stderr.contains("Anabel (aaaaaaaa)"))
        #expect(!ambiguous.requests.contains { $0.method == "POST" })
        let unknown = try run(["expense", "add", "b70f", "X", "10", "EUR", "--among", "ana,zed"])
        #expect(unknown.result.status == 2)
        #expect(
            unknown.result.stderr.contains(
                "no traveller called “zed”; the travellers are: Ana, Anabel, Bruno, Carla, José"),
            "\(unknown.result.stderr)")
        #expect(!unknown.requests.contains { $0.method == "POST" })
    }

    @Test("several payers, shares, percentages and exact amounts; one left without a value takes the rest")
    func splits() throws {
        let shares = try posted([
            "Groceries", "84.50", "EUR", "--paid-by", "ana:50,bruno:34.50", "--split", "shares", "--among",
            "ana:2,bruno,carla",
        ])
        #expect(
            shares.members["paidBy"]
                == .array([
                    .object(["traveller": .string(Self.ana), "amountMinor": .int(5000)]),
                    .object(["traveller": .string(Self.bruno), "amountMinor": .int(3450)]),
                ]))
        #expect(
            shares.members["split"]
                == .object([
                    "mode": .string("shares"),
                    "among": .array([
                        .object(["traveller": .string(Self.ana), "shares": .int(2)]),
                        .object(["traveller": .string(Self.bruno), "shares": .int(1)]),
                        .object(["traveller": .string(Self.carla), "shares": .int(1)]),
                    ]),
                ]))
        let rest = try posted(["Taxi", "30", "EUR", "--paid-by", "ana:10", "--paid-by", "carla"])
        #expect(rest.members["paidBy"]?.elements.last?.members["amountMinor"] == .int(2000))
        let percent = try posted(["Boat", "100", "EUR", "--split", "percent", "--among", "ana:33.33,bruno:33.33,carla"])
        #expect(
            percent.members["split"]?.members["among"]?.elements.map { $0.members["percent"] } == [
                .double(33.33), .double(33.33), .double(33.34),
            ])
        #expect(percent.members["paidBy"] == .array([.object(["traveller": .string(Self.ana)])]))
        let exact = try posted(["Museum", "84.50", "EUR", "--split", "exact", "--among", "ana:30,bruno"])
        #expect(
            exact.members["split"]?.members["among"]?.elements.map { $0.members["amountMinor"] } == [
                .int(3000), .int(5450),
            ])
        let transfer = try posted(["Cash", "20", "EUR", "--paid-by", "bruno", "--among", "ana", "--transfer"])
        #expect(transfer.members["kind"] == .string("transfer"))
        #expect(transfer.members["split"]?.members["mode"] == .string("exact"))
        #expect(transfer.members["paidBy"]?.elements.first?.members["amountMinor"] == .int(2000))
    }

    @Test("edit sends only what changes; a new amount keeps the single payer; an exact split must be given again")
    func edit() throws {
        let expense = "GET /v1/itineraries/b70f/expenses/eeee"
        let patch = "PATCH /v1/itineraries/b70f/expenses/eeee"
        let script: [String: ScriptedDaemon.Answer] = [
            expense: .json(200, Self.dinner), patch: .json(200, Self.dinner),
        ]
        let (retitled, sent) = try run(
            ["expense", "edit", "b70f", "eeee", "--title", "Ramiro", "--clear", "category"], script)
        #expect(retitled.status == 0, "\(retitled.stderr)")
        #expect(sent.map(\.method) == ["PATCH"])
        #expect(sent.last?.text == #"{"category":null,"title":"Ramiro"}"#)
        #expect(retitled.stdout.contains("paid by:  Ana\n") && retitled.stdout.contains("Carla      28.16 EUR"))

        let (amount, requests) = try run(["expense", "edit", "b70f", "eeee", "--amount", "90"], script)
        #expect(amount.status == 0, "\(amount.stderr)")
        #expect(requests.map(\.method) == ["GET", "PATCH"])
        #expect(
            requests.last?.text
                == #"{"amount":{"amountMinor":9000,"currency":"EUR"},"paidBy":[{"traveller":"\#(Self.ana)"}]}"#)

        let (among, amongSent) = try run(["expense", "edit", "b70f", "eeee", "--among", "ana,bruno"], script)
        #expect(among.status == 0, "\(among.stderr)")
        #expect(
            amongSent.last?.text
                == #"{"split":{"among":[{"traveller":"\#(Self.ana)"},{"traveller":"\#(Self.bruno)"}],"mode":"equal"}}"#)

        let exact = Self.dinner.replacingOccurrences(of: #""mode":"equal""#, with: #""mode":"exact""#)
        let refused = try run(["expense", "edit", "b70f", "eeee", "--amount", "90"], [expense: .json(200, exact)])
        #expect(refused.result.status == 2)
        #expect(refused.result.stderr.contains("the split has exact amounts: give --among with the new amounts"))
        #expect(!refused.requests.contains { $0.method == "PATCH" })
        let nothing = try run(["expense", "edit", "b70f", "eeee"]).result
        #expect(nothing.status == 2 && nothing.stderr.contains("nothing to change"))
    }

    @Test("a refusal prints the daemon's detail and the field, and exits 1")
    func refusal() throws {
        let problem = """
            {"type":"https://places.invalid/problems/invalid-field","title":"Invalid field","status":400,\
            "code":"invalid-field","field":"rate",\
            "detail":"an expense in USD needs a rate to EUR: give one or add USD to the rate table"}
            """
        let refused = try run(
            ["expense", "add", "b70f", "Museum", "45", "USD", "--paid-by", "ana"],
            [
                "POST /v1/itineraries/b70f/expenses": ScriptedDaemon.Answer(
                    status: 400, contentType: "application/problem+json", body: Array(problem.utf8))
            ]
        ).result
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: an expense in USD needs a rate to EUR: give one or add USD to the rate table (field: rate)\n"
        )
    }

    @Test("list, balances, settle and debts read as sentences and tables")
    func views() throws {
        let list = try run(
            ["expense", "list", "b70f"],
            ["GET /v1/itineraries/b70f/expenses": .json(200, #"{"expenses":[\#(Self.dinner)],"count":1}"#)]
        ).result
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.stdout.contains("ID        DATE        TITLE                AMOUNT  PAID BY  SPLIT"), "\(list.stdout)")
        #expect(
            list.stdout.contains("eeeeeeee  2027-05-03  Dinner at Ramiro  84.50 EUR  Ana      equal: Ana, Bruno, Carla")
        )
        #expect(list.stdout.hasSuffix("1 expense, 84.50 EUR in all\n"))

        let balances = """
            {"currency":"EUR","unconverted":[],"balances":[\
            {"traveller":"\(Self.ana)","name":"Ana","paidMinor":8450,"shareMinor":2817,"balanceMinor":5633,"byCategory":{"food":2817}},\
            {"traveller":"\(Self.bruno)","name":"Bruno","paidMinor":0,"shareMinor":2817,"balanceMinor":-2817,"byCategory":{"food":2817}},\
            {"traveller":"\(Self.carla)","name":"Carla","paidMinor":0,"shareMinor":2816,"balanceMinor":-2816,"byCategory":{"food":2816}}]}
            """
        let shown = try run(
            ["expense", "balances", "b70f", "--by-category"],
            ["GET /v1/itineraries/b70f/balances": .json(200, balances)]
        ).result
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.stdout.contains("Ana        84.50 EUR  28.17 EUR  +56.33 EUR  is owed 56.33 EUR"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Bruno       0.00 EUR  28.17 EUR  -28.17 EUR  owes 28.17 EUR"))
        #expect(shown.stdout.contains("balance = paid − share: positive is owed money, negative owes it"))
        #expect(shown.stdout.contains("Carla      28.16 EUR"))

        let plan = """
            {"currency":"EUR","optimal":true,"transfers":[\
            {"from":"\(Self.bruno)","fromName":"Bruno","to":"\(Self.ana)","toName":"Ana","amountMinor":2817},\
            {"from":"\(Self.carla)","fromName":"Carla","to":"\(Self.ana)","toName":"Ana","amountMinor":2816}]}
            """
        let settle = try run(
            ["expense", "settle", "b70f"], ["GET /v1/itineraries/b70f/settlement": .json(200, plan)]
        ).result
        #expect(
            settle.stdout == """
                Bruno pays Ana 28.17 EUR
                Carla pays Ana 28.16 EUR
                2 transfers settle every balance: proven to be the fewest possible

                """)
        let heuristic = plan.replacingOccurrences(of: #""optimal":true"#, with: #""optimal":false"#)
        let unproven = try run(
            ["expense", "settle", "b70f"], ["GET /v1/itineraries/b70f/settlement": .json(200, heuristic)]
        ).result
        #expect(unproven.stdout.contains("not proven to be the fewest"))
        let settled = try run(
            ["expense", "settle", "b70f"],
            ["GET /v1/itineraries/b70f/settlement": .json(200, #"{"currency":"EUR","optimal":true,"transfers":[]}"#)]
        ).result
        #expect(settled.stdout == "everyone is settled up: nothing to pay\n")
        let debts = try run(
            ["expense", "debts", "b70f"],
            [
                "GET /v1/itineraries/b70f/debts": .json(
                    200, plan.replacingOccurrences(of: #""optimal":true,"transfers""#, with: #""debts""#))
            ]
        ).result
        #expect(debts.stdout == "Bruno owes Ana 28.17 EUR\nCarla owes Ana 28.16 EUR\n", "\(debts.stdout)")
    }

    @Test("pay records a transfer; rates --set/--remove writes the whole table back")
    func payAndRates() throws {
        let (paid, requests) = try run(["expense", "pay", "b70f", "--from", "bruno", "--to", "ana", "28.17", "EUR"])
        #expect(paid.status == 0, "\(paid.stderr)")
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(requests.last).body))
        #expect(body.members["kind"] == .string("transfer") && body.members["title"] == .string("Bruno paid Ana"))
        #expect(
            body.members["paidBy"] == .array([.object(["traveller": .string(Self.bruno), "amountMinor": .int(2817)])]))
        #expect(
            body.members["split"]
                == .object([
                    "mode": .string("exact"),
                    "among": .array([.object(["traveller": .string(Self.ana), "amountMinor": .int(2817)])]),
                ]))

        let table = #"{"currency":"EUR","rates":{"GBP":"1.17","JPY":"0.0061"}}"#
        let (rates, sent) = try run(
            ["itinerary", "rates", "b70f", "--set", "usd=0.92", "--remove", "JPY"],
            [
                "GET /v1/itineraries/b70f/rates": .json(200, table),
                "PUT /v1/itineraries/b70f/rates": .json(
                    200, #"{"currency":"EUR","rates":{"GBP":"1.17","USD":"0.92"}}"#),
            ])
        #expect(rates.status == 0, "\(rates.stderr)")
        #expect(try #require(sent.last).text == #"{"rates":{"GBP":"1.17","USD":"0.92"}}"#)
        #expect(rates.stdout == "settlement currency: EUR\n1 GBP = 1.17 EUR\n1 USD = 0.92 EUR\n")
        let bad = try run(["itinerary", "rates", "b70f", "--set", "USD=-1"]).result
        #expect(bad.status == 2 && bad.stderr.contains("not a positive decimal rate"))
    }
}

/// The expense commands against a real `placesd`, as a user types them.
@Suite("places CLI: expenses on a real daemon", .serialized)
struct CLIExpenseDaemonTests {
    @Test("the issue's line, balances, settle up, pay, nothing left, CSV, and a bad amount refused")
    func settleUp() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        defer { d.stop() }
        try d.initialize(name: "Ana", username: "ana")
        let created = try d.cli(["itinerary", "create", "Porto", "--json"])
        #expect(created.status == 0, "\(created.stderr)")
        let itinerary = String(try JSONDecoder().decode(Itinerary.self, from: Data(created.stdout.utf8)).id.prefix(8))
        // Ana is a member; Bruno and Carla have no device.
        for name in ["Bruno", "Carla"] {
            let added = try d.cli(["traveller", "add", itinerary, name])
            #expect(added.status == 0 && added.stdout.hasPrefix("added traveller \(name) ("), "\(added.stderr)")
        }
        let travellers = try d.cli(["traveller", "list", itinerary])
        #expect(travellers.stdout.contains("Ana ") && travellers.stdout.contains("member"), "\(travellers.stdout)")
        #expect(travellers.stdout.hasSuffix("3 travellers\n"))

        let line = [
            "expense", "add", itinerary, "Dinner at Ramiro", "84.50", "EUR", "--paid-by", "ana", "--split", "equal",
            "--among", "ana,bruno,carla",
        ]
        let dinner = try d.cli(line)
        #expect(dinner.status == 0, "\(dinner.stderr)")
        #expect(dinner.stdout.contains("“Dinner at Ramiro” 84.50 EUR: paid by Ana; equal: Ana, Bruno, Carla"))

        let balances = try d.cli(["expense", "balances", itinerary])
        #expect(balances.status == 0, "\(balances.stderr)")
        #expect(balances.stdout.contains("84.50 EUR") && balances.stdout.contains("is owed 56.3"), "\(balances.stdout)")
        #expect(balances.stdout.contains("owes 28.1"))
        let report = try JSONDecoder().decode(
            JSONValue.self, from: Data(try d.cli(["expense", "balances", itinerary, "--json"]).stdout.utf8))
        let figures = report.members["balances"]?.elements.compactMap { $0.members["balanceMinor"] } ?? []
        #expect(figures.count == 3 && figures.compactMap(\.intValue).reduce(0, +) == 0, "\(report)")

        let settle = try d.cli(["expense", "settle", itinerary])
        #expect(settle.status == 0, "\(settle.stderr)")
        #expect(settle.stdout.hasSuffix("2 transfers settle every balance: proven to be the fewest possible\n"))
        let suggestions = settle.stdout.split(separator: "\n").dropLast().map { $0.split(separator: " ") }
        #expect(suggestions.count == 2 && suggestions.allSatisfy { $0.count == 5 && $0[1] == "pays" && $0[2] == "Ana" })
        var paid: Int64 = 0
        for words in suggestions where words.count == 5 {
            let pay = try d.cli([
                "expense", "pay", itinerary, "--from", String(words[0]), "--to", "ana", String(words[3]),
                String(words[4]),
            ])
            #expect(pay.status == 0, "\(pay.stderr)")
            #expect(pay.stdout.contains(": \(words[0]) paid Ana \(words[3]) EUR"), "\(pay.stdout)")
            paid += Int64(words[3].replacingOccurrences(of: ".", with: "")) ?? 0
        }
        // What Ana is owed, to the cent (84.50 − her share of the three-way split).
        let ana = report.members["balances"]?.elements.first { $0.members["name"] == .string("Ana") }
        #expect(paid > 0 && paid == ana?.members["balanceMinor"]?.intValue, "\(report)")
        #expect(try d.cli(["expense", "settle", itinerary]).stdout == "everyone is settled up: nothing to pay\n")
        #expect(try d.cli(["expense", "debts", itinerary]).stdout == "nobody owes anybody anything\n")
        let list = try d.cli(["expense", "list", itinerary])
        #expect(list.stdout.hasSuffix("1 expense, 84.50 EUR in all; 2 payments between travellers\n"), "\(list.stdout)")

        // The first expense set the trip's settlement currency; the itinerary says so.
        let shown = try d.cli(["itinerary", "show", itinerary])
        #expect(shown.stdout.contains("settlement currency") && shown.stdout.contains("EUR"), "\(shown.stdout)")

        let csv = try d.cli(["expense", "export", itinerary])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(
            csv.stdout.hasPrefix(
                "date,title,kind,category,amount,currency,rate,settlement amount,settlement currency,paid by,split\r\n"),
            "\(csv.stdout)")
        #expect(csv.stdout.contains("Dinner at Ramiro,expense,,84.50,EUR,"))
        let file = dir.path + "-balances.csv"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let written = try d.cli(["expense", "export", itinerary, "--balances", "-o", file])
        #expect(written.status == 0 && written.stdout.hasPrefix("wrote \(file)"), "\(written.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("traveller,paid,share,balance,currency"))

        // Too many decimals: refused before the daemon sees it, nothing added.
        let bad = try d.cli(line.map { $0 == "84.50" ? "84.505" : $0 })
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("AMOUNT: '84.505' has 3 decimals but EUR has only 2"), "\(bad.stderr)")
        // What only the daemon knows comes back with the field at fault.
        let noRate = try d.cli(["expense", "add", itinerary, "Museum", "45", "USD", "--among", "ana,bruno"])
        #expect(noRate.status == 1 && noRate.stderr.contains("(field: rate)"), "\(noRate.stderr)")
        #expect(try d.cli(["expense", "list", itinerary, "--json"]).stdout.contains(#""count":3"#))
        let removeBruno = try d.cli(["traveller", "remove", itinerary, "bruno"])
        #expect(removeBruno.status == 1, "\(removeBruno.stdout)")
        #expect(removeBruno.stderr.contains("Bruno appears in"), "\(removeBruno.stderr)")

        // Percentages with decimals, an edit of the amount, a removal.
        let boat = try d.cli([
            "expense", "add", itinerary, "Boat", "100", "EUR", "--split", "percent", "--among",
            "ana:33.33,bruno:33.33,carla", "--json",
        ])
        #expect(boat.status == 0, "\(boat.stderr)")
        let boatJSON = try JSONDecoder().decode(JSONValue.self, from: Data(boat.stdout.utf8))
        let boatID = String(try #require(boatJSON.members["id"]?.stringValue).prefix(8))
        let edited = try d.cli(["expense", "edit", itinerary, boatID, "--amount", "90"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("amount:   90.00 EUR"), "\(edited.stdout)")
        #expect(edited.stdout.contains("split:    percent: Ana 33.33%, Bruno 33.33%, Carla 33.34%"))
        #expect(try d.cli(["expense", "remove", itinerary, boatID]).stdout == "removed expense \(boatID)\n")
        #expect(try d.cli(["expense", "settle", itinerary]).stdout == "everyone is settled up: nothing to pay\n")
    }
}

extension JSONValue {
    /// The members of an object (empty for anything else).
    fileprivate var members: [String: JSONValue] { if case .object(let o) = self { o } else { [:] } }
    /// The elements of an array (empty for anything else).
    fileprivate var elements: [JSONValue] { if case .array(let a) = self { a } else { [] } }
}
