import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Issue 14, "Bad input", through the `places` binary on a real daemon: each bad expense,
/// traveller or rate command exits non-zero (2 for a usage error the CLI sees itself, 1 for
/// the daemon's refusal) with a message naming what is wrong, and changes nothing.
@Suite("places CLI: bad expense input", .serialized)
struct CLIExpenseBadInputTests {
    /// Arguments after `places` (`IT` is the itinerary), the exit status, and words the
    /// message must contain.
    static let cases: [(args: [String], status: Int32, mentions: String)] = [
        (["expense", "add", "IT", "Dinner", "84.505", "EUR"], 2, "3 decimals"),
        (["expense", "add", "IT", "Dinner", "0", "EUR"], 2, "more than zero"),
        (["expense", "add", "IT", "--", "Dinner", "-5", "EUR"], 2, "without a sign"),
        (["expense", "add", "IT", "Dinner", "1e3", "EUR"], 2, "exponent"),
        (["expense", "add", "IT", "Dinner", "84,50", "EUR"], 2, "dot"),
        (["expense", "add", "IT", "Dinner", "99999999999999999999999", "EUR"], 2, "too large"),
        (["expense", "add", "IT", "Dinner", "84.50", "EURO"], 2, "ISO 4217"),
        (["expense", "add", "IT", "Dinner", "84.50", "EUR", "--paid-by", "nobody"], 2, "no traveller called “nobody”"),
        (["expense", "add", "IT", "Dinner", "84.50", "EUR", "--paid-by", "ana:40,bruno:40"], 2, "sum to 80.00 EUR"),
        (
            [
                "expense", "add", "IT", "Dinner", "84.50", "EUR", "--split", "percent", "--among",
                "ana:33.333,bruno:66.667",
            ],
            2, "more than 2 decimals"
        ),
        (
            [
                "expense", "add", "IT", "Dinner", "84.50", "EUR", "--split", "percent", "--among",
                "ana:33.33,bruno:33.33,carla:33.33",
            ],
            2, "99.99%"
        ),
        (
            ["expense", "add", "IT", "Dinner", "84.50", "EUR", "--split", "exact", "--among", "ana:30,bruno:54.49"], 2,
            "84.49 EUR, not 84.50 EUR"
        ),
        (
            ["expense", "add", "IT", "Dinner", "84.50", "EUR", "--split", "shares", "--among", "ana:0,bruno"], 2,
            "1 to 1000000"
        ),
        (["expense", "add", "IT", "Dinner", "84.50", "EUR", "--among", "ana,ana"], 2, "twice"),
        (["expense", "add", "IT", "Dinner", "84.50", "EUR", "--among", "bruno:"], 2, "nothing after its colon"),
        (["expense", "add", "IT", "Museum", "45", "USD"], 1, "no rate from USD"),
        (["expense", "add", "IT", "Museum", "45", "USD", "--rate", "abc"], 2, "not a positive decimal rate"),
        (["expense", "add", "IT", "Dinner", "84.50", "EUR", "--rate", "1.1"], 1, "takes no rate"),
        (
            ["expense", "add", "IT", "Cash", "20", "EUR", "--paid-by", "ana", "--among", "ana", "--transfer"], 1,
            "other than the payer"
        ),
        (["expense", "add", "IT", "Dinner", "84.50", "EUR", "--date", "2027-02-30"], 2, "not a date"),
        (["expense", "add", "IT", "", "84.50", "EUR"], 1, "'title' must not be empty"),
        (["traveller", "remove", "IT", "bruno"], 1, "Bruno appears in 1 expense"),
        (["traveller", "rename", "IT", "ana", "Boss"], 1, "member"),
        (["itinerary", "rates", "IT", "--set", "XYZ=1"], 2, "ISO 4217"),
        (["itinerary", "rates", "IT", "--set", "EUR=1"], 1, "settlement currency"),
        (["itinerary", "rates", "IT", "--set", "USD=-0.92"], 2, "rate"),
        (["itinerary", "edit", "IT", "--settlement-currency", "USD"], 1, "settled in EUR"),
    ]

    @Test("each bad expense, traveller or rate command exits non-zero with a precise message and changes nothing")
    func refused() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        defer { d.stop() }
        try d.initialize(name: "Ana", username: "ana")
        let created = try d.cli(["itinerary", "create", "Porto", "--json"])
        let it = String(try JSONDecoder().decode(Itinerary.self, from: Data(created.stdout.utf8)).id.prefix(8))
        for name in ["Bruno", "Carla"] {
            #expect(try d.cli(["traveller", "add", it, name]).status == 0)
        }
        let dinner = try d.cli(["expense", "add", it, "Dinner at Ramiro", "84.50", "EUR", "--among", "ana,bruno,carla"])
        #expect(dinner.status == 0, "\(dinner.stderr)")
        func state() throws -> [String] {
            [
                try d.cli(["expense", "list", it, "--json"]).stdout,
                try d.cli(["expense", "balances", it, "--json"]).stdout,
                try d.cli(["traveller", "list", it, "--json"]).stdout,
                try d.cli(["itinerary", "rates", it, "--json"]).stdout,
            ]
        }
        let before = try state()
        for c in Self.cases {
            let args = c.args.map { $0 == "IT" ? it : $0 }
            let r = try d.cli(args)
            let said = r.stderr + r.stdout
            #expect(r.status == c.status, "places \(args.joined(separator: " ")) exited \(r.status): \(said)")
            #expect(said.contains(c.mentions), "places \(args.joined(separator: " ")) said: \(said)")
            #expect(!said.contains("Fatal error"), "places \(args.joined(separator: " ")) trapped: \(said)")
        }
        #expect(try state() == before, "a refused command changed something")
        #expect(try d.send("GET", "/v1/status").status == 200, "the daemon keeps serving")
    }
}
