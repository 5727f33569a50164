import Foundation
import PlacesTestSupport
import Testing

/// An old data dir opens and shows the same data: a copy of Tests/Fixtures/datadir-v1 (made
/// by the daemon before issue 12's refactor) is started with today's `placesd`, and every
/// read route must answer what it answered then, field for field, before and after a
/// rebuild of the materialized tables.
///
/// Ignored, and only these: `pid`, `dataDir`, `socket` and `listen` of `/v1/status`
/// (`FixtureDataDir.ignoredStatusFields`); and the signed view op that opening the shared
/// itinerary records on each start (Engine.viewItinerary, at most one per 10 minutes): in
/// the pass after the rebuild, `viewed` lines by this identity dated after the test began
/// are set aside, and the op count may be higher by exactly that many; and the one library op
/// the first start after the upgrade writes to mirror the person's own tables (contacts,
/// friends, settings: `Protocol/devices.md` §4.4), which the op count is higher by in both
/// passes.
@Suite("Fixture data dir from before the refactor", .serialized)
struct FixtureDataDirTests {
    @Test("today's daemon opens the committed v1 data dir and every read route answers as before")
    func opensAndShowsTheSameData() throws {
        let expected = try #require(
            JSONCanon.parse(try String(contentsOf: FixtureDataDir.expected, encoding: .utf8)) as? [String: Any])
        let identity = try #require(expected["identity"] as? String)
        let captures = (expected["routes"] as? [[String: Any]] ?? []).compactMap(FixtureDataDir.Capture.init(json:))
        #expect(captures.count > 20)

        let dir = TempDir()
        defer { dir.remove() }
        try FixtureDataDir.copy(from: FixtureDataDir.data, to: dir.path)
        let began = RFC3339Text.now()
        let daemon = DaemonProcess(dataDir: dir.path)
        try daemon.start()

        let first = try compare(captures, daemon, identity: identity, viewsSince: nil)
        #expect(first == 0)
        let rebuild = try daemon.send("POST", "/v1/maintenance/rebuild")
        #expect(rebuild.status == 200, "\(rebuild.text)")
        let views = try compare(captures, daemon, identity: identity, viewsSince: began)
        // One shared itinerary (Barcelona, from Bruno): opened once in the first pass.
        #expect(views == 1, "views recorded: \(views), shared itineraries opened: 1")

        #expect(daemon.stop() == 0)
        let check = try DatabaseProbe(path: dir.path + "/places.sqlite").integrityCheck()
        #expect(check == ["ok"])
    }

    /// Replays every capture against `daemon`, recording an issue per difference; returns how
    /// many view lines were set aside (only when `viewsSince` is given).
    private func compare(
        _ captures: [FixtureDataDir.Capture], _ daemon: DaemonProcess, identity: String, viewsSince: String?
    ) throws -> Int {
        var views = 0
        var pendingStatus: (want: Any, got: [String: Any])?
        for capture in captures {
            let actual = try FixtureDataDir.capture(daemon, capture.path)
            #expect(actual.status == capture.status, "GET \(capture.path)")
            var want = capture.body, got = actual.body
            if capture.path == "/v1/status" {
                want = JSONCanon.removingKeys(FixtureDataDir.ignoredStatusFields, from: want)
                got = JSONCanon.removingKeys(FixtureDataDir.ignoredStatusFields, from: got)
                if var object = got as? [String: Any], let count = object["opCount"] as? Int {
                    object["opCount"] = count - FixtureDataDir.personStateOps
                    got = object
                }
                // After a rebuild the op count includes the views recorded so far: compared last.
                if viewsSince != nil, let object = got as? [String: Any] {
                    pendingStatus = (want, object)
                    continue
                }
            }
            if capture.path.hasPrefix("/v1/itineraries/"), capture.path.split(separator: "/").count == 3,
                let object = got as? [String: Any]
            {
                // Issue 13's additions: the legacy lodging and transportation are the items,
                // and their prices the sections; totalCost is unchanged.
                let legacy =
                    (object["lodging"] != nil || object["lodgingPrice"] != nil ? 1 : 0)
                    + (object["transportation"] != nil || object["travelPrice"] != nil ? 1 : 0)
                #expect(object["itemCount"] as? Int == legacy, "GET \(capture.path): itemCount")
                let costs = object["costs"] as? [String: Any]
                #expect(
                    (costs?["transport"] != nil) == (object["travelPrice"] != nil)
                        && (costs?["lodging"] != nil) == (object["lodgingPrice"] != nil),
                    "GET \(capture.path): costs \(String(describing: costs))")
                got = JSONCanon.removingKeys(FixtureDataDir.addedItineraryFields, from: got)
            }
            if capture.path == "/v1/contacts", var list = got as? [String: Any],
                let contacts = list["contacts"] as? [[String: Any]]
            {
                #expect(contacts.allSatisfy { $0["sharedFavorites"] as? Int == 0 }, "GET /v1/contacts: no cards held")
                list["contacts"] = contacts.map { JSONCanon.removingKeys(FixtureDataDir.addedContactFields, from: $0) }
                got = list
            }
            if let since = viewsSince, capture.path.hasSuffix("/activity"), var list = got as? [String: Any],
                let lines = list["activity"] as? [[String: Any]]
            {
                let kept = lines.filter { line in
                    !(line["action"] as? String == "viewed" && line["author"] as? String == identity
                        && (line["time"] as? String ?? "") >= since)
                }
                views += lines.count - kept.count
                list["activity"] = kept
                if let count = list["count"] as? Int { list["count"] = count - (lines.count - kept.count) }
                got = list
            }
            #expect(
                JSONCanon.text(got) == JSONCanon.text(want),
                "GET \(capture.path) differs from the fixture's\n--- expected\n\(JSONCanon.pretty(want))\n--- actual\n\(JSONCanon.pretty(got))"
            )
        }
        if let pending = pendingStatus {
            var got = pending.got
            if let count = got["opCount"] as? Int { got["opCount"] = count - views }
            #expect(JSONCanon.text(got) == JSONCanon.text(pending.want), "GET /v1/status after the rebuild")
        }
        return views
    }
}

/// The current time as the API writes it (RFC 3339, milliseconds, UTC), for comparisons
/// with `time` fields.
enum RFC3339Text {
    static func now() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: Date())
    }
}
