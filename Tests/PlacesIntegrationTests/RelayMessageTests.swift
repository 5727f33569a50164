import Foundation
import PlacesAPI
import PlacesModel
import Testing

@testable import PlacesTestSupport

/// Issue 32 over issue 30's relay: a message and its delivered mark travel through a blind
/// relay between friends who are never online together (`Protocol/relay.md` §8), and the
/// relay holds none of it readable.
@Suite("Relay: a message and its delivered mark through a blind relay", .serialized)
struct RelayMessageTests {
    @Test("Ana writes while Bruno is away; he reads it from the relay; her message shows delivered")
    func neverOnlineTogether() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let (ana, bruno, _) = try await RelayFeedTests.friendsOnRelay(tag, relay)

        bruno.stop()
        let opsBefore = try RelayFeedTests.opCount(relay)
        let text = "message-\(tag)-dinner at 8?"
        let sent = try MessageSyncTests.json(
            try ana.d.send("POST", "/v1/messages", json: #"{"to":"\#(bruno.id)","text":"\#(text)"}"#))
        let id = try #require(sent["id"]?.stringValue)
        try await eventually("the relay keeps the message", timeout: .seconds(20)) {
            try RelayFeedTests.opCount(relay) >= opsBefore + 1
        }
        ana.stop()
        let opsWithMessage = try RelayFeedTests.opCount(relay)

        try bruno.start()
        try await eventually("Bruno reads Ana's message through the relay", timeout: .seconds(30)) {
            try MessageSyncTests.message(bruno, with: ana, id)?["text"] == .string(text)
        }
        // Bruno's daemon wrote its delivered mark on storing the message.
        try await eventually("the relay keeps Bruno's delivered mark", timeout: .seconds(20)) {
            try RelayFeedTests.opCount(relay) >= opsWithMessage + 1
        }
        try await Task.sleep(for: .seconds(1))
        bruno.stop()

        try ana.start()
        try await eventually("Ana sees her message delivered through the relay", timeout: .seconds(30)) {
            try MessageSyncTests.message(ana, with: bruno, id)?["deliveredAt"]?.stringValue != nil
        }
        #expect(RelayFeedTests.files(holding: Data(text.utf8), in: relay.dir.path).isEmpty, "the relay holds no text")
    }
}
