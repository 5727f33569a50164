import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// The real `places` binary against a real daemon, as a user types it.
@Suite("places CLI", .serialized)
struct CLITests {
    @Test("init, whoami, places, favorites and itineraries from the command line")
    func tour() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        defer { d.stop() }
        let passFile = dir.path + ".pass"
        try "correct horse\n".write(toFile: passFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: passFile) }

        let initialized = try d.cli(["init", "--name", "Ana", "--username", "ana", "--passphrase-file", passFile])
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let whoami = try d.cli(["whoami", "--json"])
        let profile = try JSONDecoder().decode(Profile.self, from: Data(whoami.stdout.utf8))
        #expect(profile.username == "ana")
        #expect(try d.cli(["whoami"]).stdout.contains(profile.id))

        let added = try d.cli([
            "place", "add", "Cabo da Roca", "--lat", "38.7804", "--lon", "-9.4989", "--rating", "5", "--json",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let place = try JSONDecoder().decode(Place.self, from: Data(added.stdout.utf8))
        #expect(place.longitude == -9.4989)
        #expect(try d.cli(["favorite", "add", String(place.id.prefix(6))]).status == 0)
        let favorites = try d.cli(["favorite", "list"])
        #expect(favorites.stdout.contains("Cabo da Roca") && favorites.stdout.contains("1 favorite"))

        let created = try d.cli([
            "itinerary", "create", "Sintra day", "--start", "2027-06-01", "--end", "2027-06-01", "--travel-price",
            "12.50",
            "--lodging-price", "80", "--currency", "EUR", "--place", place.id, "--json",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let it = try JSONDecoder().decode(Itinerary.self, from: Data(created.stdout.utf8))
        #expect(it.totalCost.first?.amountMinor == 9250)
        let shown = try d.cli(["itinerary", "show", String(it.id.prefix(8))])
        #expect(shown.stdout.contains("92.50 EUR") && shown.stdout.contains("Cabo da Roca"))
        _ = try d.cli(["itinerary", "edit", it.id, "--notes", "bring a jacket"])
        let activity = try d.cli(["activity", it.id])
        #expect(activity.stdout.contains("set notes to “bring a jacket”"))
    }

    @Test("bad input and missing daemon give clear errors and meaningful exit codes")
    func errorsAndExitCodes() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        let none = try d.cli(["status"])
        #expect(none.status == 3)
        #expect(none.stderr.contains("placesd"))

        try d.start()
        defer { d.stop() }
        let notInit = try d.cli(["place", "list"])
        #expect(notInit.status == 4 && notInit.stderr.contains("places init"))
        try d.initialize()
        let badLat = try d.cli(["place", "add", "X", "--lat", "95", "--lon", "0"])
        #expect(badLat.status == 2 && badLat.stderr.contains("between -90 and 90"))
        let unknown = try d.cli(["place", "show", "abcdef12"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no place"))
        _ = try d.cli(["logout"])
        let loggedOut = try d.cli(["favorite", "list"])
        #expect(loggedOut.status == 4 && loggedOut.stderr.contains("places login"))
        let wrong = try runCommand(
            Binaries.places, ["login", "--data-dir", d.dataDir, "--passphrase-file", "/dev/stdin"], input: "nope\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("wrong"))
        let right = try runCommand(
            Binaries.places, ["login", "--data-dir", d.dataDir, "--passphrase-file", "/dev/stdin"],
            input: "correct horse\n")
        #expect(right.status == 0, "\(right.stderr)")
    }
}
