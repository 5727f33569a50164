import Foundation
import PlacesTestSupport
import Testing

/// Published trips through the real `places` binary against real daemons over loopback
/// (issue 17), as people would type it: Ana publishes her Porto weekend, her friend Bruno
/// explores it, likes it, saves it and copies it to his own dates; Ana withdraws it.
@Suite("places CLI: published trips to explore", .serialized)
struct CLIExploreTests {
    /// What Ana keeps to herself: a booking reference, a confirmation code, the host's phone
    /// number and a note. None of it may show anywhere but on her own daemon.
    static let secrets = ["PNR-7Q4", "X7K2", "912 345 678", "table 12"]

    /// Runs `places` on `node`, failing the test with its stderr when it does not exit 0.
    @discardableResult
    static func places(_ node: SyncNode, _ arguments: [String]) throws -> String {
        let r = try node.d.cli(arguments)
        guard r.status == 0 else {
            throw HarnessError("\(node.name): places \(arguments.joined(separator: " ")) → \(r.status): \(r.stderr)")
        }
        return r.stdout
    }

    /// Ana's Porto weekend, made with the CLI: dates and a time zone, a train with its booking
    /// reference, a stay with its confirmation code and the host's phone, a dinner with a
    /// private note, and two places to go.
    static func portoWeekend(_ ana: SyncNode) throws {
        try places(ana, ["place", "add", "Livraria Lello", "--lat", "41.1469", "--lon", "-8.6148"])
        try places(ana, ["place", "add", "Torre dos Clérigos", "--lat", "41.1458", "--lon", "-8.6139"])
        try places(
            ana,
            [
                "itinerary", "create", "Porto weekend", "--start", "2027-05-01", "--end", "2027-05-03", "--tz",
                "Europe/Lisbon", "--place", "Livraria Lello", "--place", "Torre dos",
            ])
        try places(
            ana,
            [
                "item", "add", "porto", "transport", "Lisbon → Porto", "--mode", "train", "--start", "2027-05-01T09:10",
                "--end", "2027-05-01T12:05", "--tz", "Europe/Lisbon", "--carrier", "CP", "--number", "123",
                "--booking", "PNR-7Q4", "--price", "34.50 EUR", "--at", "Santa Apolónia", "--to", "Campanhã",
            ])
        try places(
            ana,
            [
                "item", "add", "porto", "lodging", "Casa Porto", "--start", "2027-05-01T15:00", "--end",
                "2027-05-03T11:00", "--price", "340 EUR", "--code", "X7K2", "--contact", "+351 912 345 678",
                "--address", "Rua das Flores 1",
            ])
        try places(
            ana,
            [
                "item", "add", "porto", "food", "Ramiro", "--start", "2027-05-02T20:00", "--rating", "4.5", "--notes",
                "ask for table 12",
            ])
    }

    /// The line of a table that names `name`, or "" when none does.
    static func row(_ output: String, _ name: String) -> String {
        output.split(separator: "\n").first { $0.contains(name) }.map(String.init) ?? ""
    }

    @Test(
        "publish to friends: the dry run shows the plan without codes; a friend explores, likes, saves and copies it; unpublished, it reads withdrawn"
    )
    func publishExploreCopyUnpublish() async throws {
        let (ana, bruno) = try await CLISocialTests.friends()
        try Self.portoWeekend(ana)

        // The dry run: everything a reader will see, nothing that stays Ana's, nothing published.
        let preview = try Self.places(ana, ["itinerary", "publish", "porto", "--to", "friends", "--dry-run"])
        #expect(preview.hasPrefix("dry run: this is what would be published to your friends"), "\(preview)")
        // Each item: its time, title and where on its line, its time zone and price under it.
        for shown in [
            "Porto weekend", "2027-05-01 → 2027-05-03", "Day 1 · Sat 1 May 2027 · sleeping at Casa Porto",
            "09:10–12:05  🚆 Lisbon → Porto  Santa Apolónia → Campanhã", "Europe/Lisbon · 34.50 EUR",
            "15:00        🛏 Check in Casa Porto", "Europe/Lisbon · at Rua das Flores 1 · 340.00 EUR",
            "20:00        🍽 Ramiro  (★4.5)", "Livraria Lello", "Torre dos Clérigos",
        ] {
            #expect(preview.contains(shown), "the dry run lacks “\(shown)”:\n\(preview)")
        }
        #expect(Self.row(preview, "lodging").contains("340.00 EUR"), "costs per section:\n\(preview)")
        #expect(Self.row(preview, "transport").contains("34.50 EUR"), "costs per section:\n\(preview)")
        for secret in Self.secrets { #expect(!preview.contains(secret), "the dry run shows “\(secret)”") }
        #expect(try Self.places(ana, ["explore"]).hasPrefix("no published trips to explore yet"))

        let published = try Self.places(ana, ["itinerary", "publish", "porto", "--to", "friends"])
        #expect(published.hasPrefix("published “Porto weekend” to your friends: "), "\(published)")
        let short = try #require(
            published.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        #expect(short.count == 8, "\(published)")
        let mine = Self.row(try Self.places(ana, ["explore"]), "Porto weekend")
        #expect(mine.contains("  you  ") && mine.contains("Porto") && mine.hasSuffix(short), "\(mine)")

        // Bruno, Ana's friend, finds it and reads it: the plan, not Ana's codes.
        try await eventually("Bruno's `places explore` lists Ana's Porto weekend", timeout: .seconds(30)) {
            Self.row(try Self.places(bruno, ["explore"]), "Porto weekend").contains("Ana")
        }
        let shown = try Self.places(bruno, ["explore", "show", "porto"])
        for text in ["author:", "Ana", "Casa Porto", "09:10–12:05", "Ramiro", "Livraria Lello", "340.00 EUR"] {
            #expect(shown.contains(text), "`explore show` lacks “\(text)”:\n\(shown)")
        }
        for secret in Self.secrets { #expect(!shown.contains(secret), "Bruno sees “\(secret)”") }
        let day2 = try Self.places(bruno, ["explore", "show", short, "--day", "2", "--plain"])
        #expect(day2.hasPrefix("Day 2 · Sun 2 May 2027 · sleeping at Casa Porto"), "\(day2)")
        #expect(day2.contains("20:00        [food] Ramiro  (4.5/5)"), "\(day2)")

        let route = try Self.places(bruno, ["explore", "route", short, "--mode", "walking"])
        #expect(route.contains("Livraria Lello") && route.contains("Torre dos Clérigos"), "\(route)")
        #expect(route.contains("mode:       walking") && route.contains("total:"), "\(route)")

        let liked = try Self.places(bruno, ["explore", "like", "porto"])
        #expect(liked.hasPrefix("liked “Porto weekend” · ♥ 1 (1 from people you know), yours"), "\(liked)")
        let saved = try Self.places(bruno, ["explore", "save", short])
        #expect(saved.hasPrefix("saved “Porto weekend” (`places saved` lists it)"), "\(saved)")
        let list = try Self.places(bruno, ["saved"])
        #expect(Self.row(list, "Porto weekend").contains("liked,saved") && list.contains("1 saved trip"), "\(list)")
        let friend = try Self.places(bruno, ["friends", "show", "ana"])
        #expect(friend.contains("Trips:") && Self.row(friend, "Porto weekend").contains(short), "\(friend)")

        // Ana's daemon counts Bruno's like, and knows him.
        try await eventually("Ana's `places explore` counts Bruno's like", timeout: .seconds(30)) {
            Self.row(try Self.places(ana, ["explore"]), "Porto weekend").contains("1/1")
        }

        // Bruno makes it his own trip, a month later: the days move, the codes never came.
        let copied = try Self.places(bruno, ["itinerary", "create", "--from", "porto", "--start", "2027-06-04"])
        #expect(copied.hasPrefix("created itinerary ") && copied.contains(" Porto weekend, 2027-06-04 → 2027-06-06"))
        #expect(copied.contains("copied from published trip"), "\(copied)")
        let copy = try #require(copied.split(separator: " ").dropFirst(2).first.map(String.init))
        let days = try Self.places(bruno, ["itinerary", "days", copy])
        #expect(days.contains("Day 1 · Fri 4 Jun 2027 · sleeping at Casa Porto"), "\(days)")
        #expect(days.contains("09:10–12:05  🚆 Lisbon → Porto"), "\(days)")
        let items = try Self.places(bruno, ["item", "list", copy])
        for secret in Self.secrets { #expect(!items.contains(secret), "the copy holds “\(secret)”") }

        // Ana withdraws it: gone from explore, marked in Bruno's saved trips.
        let withdrawn = try Self.places(ana, ["itinerary", "unpublish", "porto"])
        #expect(withdrawn.hasPrefix("unpublished itinerary "), "\(withdrawn)")
        try await eventually("Bruno's saved trip reads withdrawn", timeout: .seconds(30)) {
            Self.row(try Self.places(bruno, ["saved"]), "Porto weekend").contains("(withdrawn by its author)")
        }
        #expect(!(try Self.places(bruno, ["explore"]).contains("Porto weekend")))
        #expect(try Self.places(bruno, ["itinerary", "days", copy]).contains("Casa Porto"), "Bruno's copy stays his")
    }

    @Test("a group sees a trip published to it, a stranger does not; published to the network, the stranger does")
    func groupThenNetwork() async throws {
        let (ana, bruno) = try await CLISocialTests.friends()
        let carla = try SyncNode("Carla")
        try ana.addPeer(carla)
        try carla.addPeer(ana)
        try Self.portoWeekend(ana)
        try Self.places(ana, ["groups", "create", "close friends", "--member", "bruno"])

        let toGroup = try Self.places(ana, ["itinerary", "publish", "porto", "--to", "close friends"])
        #expect(toGroup.hasPrefix("published “Porto weekend” to “close friends”: "), "\(toGroup)")
        try await eventually("Bruno, in the group, explores it", timeout: .seconds(30)) {
            try Self.places(bruno, ["explore"]).contains("Porto weekend")
        }
        #expect(!(try Self.places(carla, ["explore"]).contains("Porto weekend")), "Carla is in no audience")

        let toNetwork = try Self.places(ana, ["itinerary", "publish", "porto", "--to", "network"])
        #expect(toNetwork.hasPrefix("published “Porto weekend” to everyone on the network: "), "\(toNetwork)")
        try await eventually("Carla, a stranger on the network, explores it", timeout: .seconds(30)) {
            Self.row(try Self.places(carla, ["explore", "porto"]), "Porto weekend").contains("Ana")
        }
        let found = try Self.places(carla, ["explore", "--country", "pt", "--sort", "likes", "--limit", "5"])
        #expect(Self.row(found, "Porto weekend").contains("PT"), "\(found)")
        let shown = try Self.places(carla, ["explore", "show", "porto"])
        #expect(shown.contains("Casa Porto") && shown.contains("everyone on the network"), "\(shown)")
        for secret in Self.secrets { #expect(!shown.contains(secret), "Carla sees “\(secret)”") }
    }

    @Test("bad input is refused before sending (exit 2) or with the daemon's reason (exit 1); create NAME is unchanged")
    func badInput() throws {
        let node = try SyncNode("Ana")
        let d = node.d
        let created = try d.cli(["itinerary", "create", "Plain trip", "--start", "2027-01-01"])
        #expect(created.status == 0 && created.stdout.hasPrefix("created itinerary "), "\(created.stderr)")

        let limit = try d.cli(["explore", "--limit", "0"])
        #expect(limit.status == 2 && limit.stderr.contains("--limit must be 1 to 100"), "\(limit.stderr)")
        let country = try d.cli(["explore", "--country", "PRT"])
        #expect(country.status == 2 && country.stderr.contains("two-letter ISO 3166 code"), "\(country.stderr)")
        let noStart = try d.cli(["itinerary", "create", "--from", "plain"])
        #expect(noStart.status == 2 && noStart.stderr.contains("--from needs --start"), "\(noStart.stderr)")
        let extra = try d.cli([
            "itinerary", "create", "--from", "plain", "--start", "2027-02-01", "--end", "2027-02-03",
        ])
        #expect(extra.status == 2 && extra.stderr.contains("not --end"), "\(extra.stderr)")
        let nameless = try d.cli(["itinerary", "create"])
        #expect(nameless.status == 2 && nameless.stderr.contains("give the itinerary's name"), "\(nameless.stderr)")

        let unnamed = try d.cli(["explore", "show", "nowhere"])
        #expect(
            unnamed.status == 2 && unnamed.stderr.contains("no published trip called “nowhere”"), "\(unnamed.stderr)")
        let unknown = try d.cli(["explore", "like", "0123abcd"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no published trip '0123abcd'"), "\(unknown.stderr)")
        let group = try d.cli(["itinerary", "publish", "plain", "--to", "hiking club"])
        #expect(group.status == 1 && group.stderr.contains("unknown audience 'hiking club'"), "\(group.stderr)")
        let notPublished = try d.cli(["itinerary", "unpublish", "plain"])
        #expect(
            notPublished.status == 1 && notPublished.stderr.contains("the itinerary is not published"),
            "\(notPublished.stderr)")

        // Copying one's own itinerary works too, by name.
        let copied = try d.cli(["itinerary", "create", "--from", "plain", "--start", "2027-03-01", "Plain again"])
        #expect(copied.status == 0 && copied.stdout.contains("Plain again, from 2027-03-01"), "\(copied.stderr)")
        #expect(try d.cli(["saved"]).stdout.hasPrefix("no saved trips yet"))
    }
}
