import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// `places message …` through the real binary against two real daemons (issue 32), as Ana
/// and Bruno would type it.
@Suite("places CLI: messages", .serialized)
struct CLIMessageTests {
    @Test("send, the conversation list with unread counts, one conversation with its marks, mute and block")
    func messages() async throws {
        let (ana, bruno) = try await CLISocialTests.friends()
        let sent = try ana.d.cli(["message", "send", "bruno", "dinner at 8?"])
        #expect(sent.status == 0 && sent.stdout.hasPrefix("sent "), "\(sent.stderr)")
        try await eventually("Bruno's conversation list shows one unread message from Ana") {
            let list = try bruno.d.cli(["message", "list"]).stdout
            return list.contains("Ana  1 unread") && list.contains("Ana: dinner at 8?")
        }
        let opened = try bruno.d.cli(["message", "list", "ana"])
        #expect(opened.status == 0 && opened.stdout.contains("Ana: dinner at 8?"), "\(opened.stdout)")
        try await eventually("Ana sees her message read") {
            try ana.d.cli(["message", "list", "bruno"]).stdout.contains("you: dinner at 8?  [read]")
        }
        #expect(try bruno.d.cli(["message", "list"]).stdout.contains("unread") == false)

        let empty = try ana.d.cli(["message", "send", "bruno"])
        #expect(empty.status == 2 && empty.stderr.contains("say something"), "\(empty.stderr)")
        let stranger = try ana.d.cli(["message", "send", "nobody", "hi"])
        #expect(stranger.status == 2 && stranger.stderr.contains("no friend called"), "\(stranger.stderr)")
        let trip = try ana.d.cli(["message", "send", "--trip", "0123", "hi"])
        #expect(trip.status == 1 && trip.stderr.contains("not a trip you are a member of"), "\(trip.stderr)")

        // A trip's conversation, by the itinerary's id or its start.
        let porto = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#).id
        let said = try ana.d.cli(["message", "send", "--trip", String(porto.prefix(8)), "train at 9"])
        #expect(said.status == 0 && said.stdout.hasPrefix("sent "), "\(said.stderr)")
        let shown = try ana.d.cli(["message", "list", "--trip", porto])
        #expect(shown.status == 0 && shown.stdout.contains("you: train at 9"), "\(shown.stdout)\(shown.stderr)")
        #expect(!shown.stdout.contains("[sent]"), "a trip's conversation has no marks")
        #expect(try ana.d.cli(["message", "list", "trip:\(porto)"]).stdout.contains("you: train at 9"))
        #expect(try ana.d.cli(["message", "list"]).stdout.contains("trip “Porto” (trip:\(porto))"))
        #expect(try ana.d.cli(["message", "mute", "--trip", porto]).stdout.contains("muted"))

        #expect(try ana.d.cli(["message", "mute", "bruno"]).stdout.contains("muted"))
        #expect(try ana.d.cli(["message", "list"]).stdout.contains("(muted)"))
        #expect(try ana.d.cli(["message", "block", "bruno"]).stdout.contains("blocked"))
        #expect(try ana.d.cli(["message", "block", "--list"]).stdout.contains(bruno.id))
        let refused = try ana.d.cli(["message", "send", "bruno", "still there?"])
        #expect(refused.status == 1 && refused.stderr.contains("blocked"), "\(refused.stderr)")
        #expect(try ana.d.cli(["message", "unblock", "bruno"]).status == 0)
    }
}
