import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// "I'm out" between four real daemons (issue 32): Ana, her friends Bruno and Carla (Carla in
/// her group "close friends", Bruno not) and Dana, a stranger on the same network. A note
/// reaches exactly its audience, arrives at a daemon that was stopped when it was sent, ends
/// everywhere when Ana stops it, and expires by itself at its `until` at a friend whose daemon
/// never hears from Ana again.
@Suite("I'm out between real daemons", .serialized)
struct OutSyncTests {
    static func out(_ node: SyncNode, near: String? = nil) throws -> [[String: JSONValue]] {
        let path = near.map { "/v1/out?near=\($0)" } ?? "/v1/out"
        return try node.d.call(JSONValue.self, "GET", path).objectValue?["friends"]?.arrayValue?
            .compactMap(\.objectValue) ?? []
    }

    static func iso(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date().addingTimeInterval(seconds))
    }

    /// Whether any of the node's database files holds `text`.
    static func databaseHolds(_ node: SyncNode, _ text: String) throws -> Bool {
        let files = try FileManager.default.contentsOfDirectory(atPath: node.dir.path).filter {
            $0.hasPrefix("places.sqlite")
        }
        return try files.contains { file in
            try Data(contentsOf: URL(fileURLWithPath: node.dir.path + "/" + file)).range(of: Data(text.utf8)) != nil
        }
    }

    @Test("a group's note reaches Carla only; a stopped daemon gets the next; stop ends it; until ends it alone")
    func audienceOfflineStopAndExpiry() async throws {
        let (ana, bruno, carla) = try await SocialSyncTests.threeFriends()
        let dana = try SyncNode("Dana")
        try dana.addPeer(ana)
        try ana.addPeer(dana)
        _ = try ana.d.call(
            FriendGroup.self, "POST", "/v1/groups", json: #"{"name":"close friends","members":["\#(carla.id)"]}"#)
        _ = try ana.d.call(
            Place.self, "POST", "/v1/places",
            json: #"{"name":"Time Out Market","latitude":38.70697,"longitude":-9.14583}"#)

        // To the group, by the CLI: Carla learns where Ana is, roughly; nobody else learns anything.
        let secret = "come by, close friends only"
        let said = try ana.d.cli([
            "out", "--at", "38.71234,-9.14321", "--until", Self.iso(3_600), "--to", "close friends", "--note", secret,
        ])
        #expect(said.status == 0 && said.stdout.contains("told 1 friend"), "\(said.stdout) \(said.stderr)")
        try await eventually("Carla sees Ana out") { try Self.out(carla).first?["note"] == .string(secret) }
        let atCarla = try #require(try Self.out(carla).first)
        #expect(atCarla["person"] == .string(ana.id) && atCarla["name"] == .string("Ana"))
        let lat = atCarla["latitude"]?.doubleValue ?? 0, lon = atCarla["longitude"]?.doubleValue ?? 0
        #expect(
            lat != 38.71234 && abs(lat - 38.71234) < 0.0011 && abs(lon - -9.14321) < 0.0014, "rounded: \(lat), \(lon)")
        #expect(atCarla["place"] == .null && atCarla["exact"] == .bool(false))
        let listed = try carla.d.cli(["out"])
        #expect(listed.stdout.contains("Ana is out near") && listed.stdout.contains(secret), "\(listed.stdout)")
        // Bruno and Dana: nothing in the API, nothing in their files.
        try await Task.sleep(for: .seconds(1))
        #expect(try Self.out(bruno).isEmpty && Self.out(dana).isEmpty)
        for node in [bruno, dana] { #expect(try !Self.databaseHolds(node, secret), "\(node.name)") }

        // To every friend, by place, while Bruno's daemon is stopped: he gets it when it starts.
        bruno.stop()
        let market = try ana.d.call(
            JSONValue.self, "PUT", "/v1/out",
            json:
                #"{"place":"Time Out Market","audience":"friends","note":"at the market","until":"\#(Self.iso(3_600))"}"#
        )
        #expect(market.objectValue?["readers"] == .int(2))
        try bruno.start()
        try await eventually("Bruno, back, sees Ana at the market", timeout: .seconds(30)) {
            try Self.out(bruno).first?["place"] == .string("Time Out Market")
        }
        let near = try #require(try Self.out(bruno, near: "38.7139,-9.1335").first)
        let distance = try #require(near["distanceMeters"]?.doubleValue)
        #expect(abs(distance - 1_318) < 5, "the market is 1.3 km from the castle: \(distance)")
        try await eventually("Carla's note is replaced, not added to") {
            try Self.out(carla).map { $0["note"] } == [.string("at the market")]
        }

        // Stopped early: gone everywhere.
        let stopped = try ana.d.cli(["out", "--stop"])
        #expect(stopped.stdout.contains("your note has ended"), "\(stopped.stdout)")
        try await eventually("nobody sees Ana out") { try Self.out(bruno).isEmpty && Self.out(carla).isEmpty }

        // A short note, then Ana's daemon goes away: Carla's and Bruno's daemons end it themselves.
        _ = try ana.d.call(
            JSONValue.self, "PUT", "/v1/out", json: #"{"place":"Time Out Market","until":"\#(Self.iso(6))"}"#)
        try await eventually("both see the short note") { try !Self.out(bruno).isEmpty && !Self.out(carla).isEmpty }
        ana.stop()
        try await Task.sleep(for: .seconds(6.5))
        #expect(try Self.out(bruno).isEmpty && Self.out(carla).isEmpty, "expired by each reader's own clock")
        #expect(try carla.d.cli(["out"]).stdout.contains("no friend is out now"))
    }
}
