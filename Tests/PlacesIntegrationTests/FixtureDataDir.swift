import Foundation
import PlacesTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The committed data dir made by the pre-refactor daemon (Tests/Fixtures/datadir-v1) and
/// what its read routes answered then (`expected.json`). `FixtureDataDirTests` checks that
/// today's daemon opens it and answers the same; `FixtureDataDirBuilder` made it.
enum FixtureDataDir {
    /// Tests/Fixtures/datadir-v1, found from this file's path.
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/datadir-v1")
    }
    static var data: URL { root.appendingPathComponent("data") }
    static var expected: URL { root.appendingPathComponent("expected.json") }

    /// The files of a data dir that make it (no socket, lock, WAL or shared-memory file).
    static let files = ["places.sqlite", "identity.key"]

    /// Fields that legitimately differ between two runs on the same data, and why. Nothing
    /// else is ignored.
    /// Fields a later issue added to an itinerary of a v1 data dir, checked on their own
    /// (`FixtureDataDirTests`): issue 13's per-section costs and item count, which count
    /// the itinerary's own lodging and transportation as its first items.
    static let addedItineraryFields: Set<String> = ["costs", "itemCount"]
    /// What a contact gained since (issue 15: from their contact card, none in the fixture).
    static let addedContactFields: Set<String> = ["sharedFavorites", "username", "bio"]

    /// Library ops the first start after the upgrade writes: one, mirroring the fixture's
    /// contacts and settings into the library (`Protocol/devices.md` §4.4).
    static let personStateOps = 1

    static let ignoredStatusFields: Set<String> = [
        "pid",  // the process id
        "dataDir",  // the temporary copy's path
        "socket",  // inside the data dir
        "listen",  // the free port the test's daemon got
    ]

    /// Copies the data dir files from `source` into the (existing) directory `target`,
    /// with the key file private as `placesd init` leaves it.
    static func copy(from source: URL, to target: String) throws {
        for file in files {
            try FileManager.default.copyItem(
                atPath: source.appendingPathComponent(file).path, toPath: target + "/" + file)
        }
        chmod(target + "/identity.key", 0o600)
    }

    /// One read route and what it answered.
    struct Capture {
        var path: String
        var status: Int
        var body: Any

        var json: [String: Any] { ["method": "GET", "path": path, "status": status, "body": body] }

        init(path: String, status: Int, body: Any) {
            self.path = path
            self.status = status
            self.body = body
        }

        init?(json: [String: Any]) {
            guard let path = json["path"] as? String, let status = json["status"] as? Int, let body = json["body"]
            else { return nil }
            self.init(path: path, status: status, body: body)
        }
    }

    /// GETs `path`, keeping the body as JSON when it is JSON and as text otherwise (GPX).
    static func capture(_ daemon: DaemonProcess, _ path: String) throws -> Capture {
        let r = try daemon.send("GET", path)
        let body: Any = JSONCanon.parse(r.body) ?? r.text
        return Capture(path: path, status: r.status, body: body)
    }

    /// Every read route of the data dir, in the order the test replays them: status first
    /// (its op count is read before anything records an op), and for each itinerary its
    /// activity, members and routes before the itinerary itself (opening a shared itinerary
    /// records a signed view op).
    static func routes(of daemon: DaemonProcess) throws -> [String] {
        func list(_ path: String, _ key: String) throws -> [String] {
            let r = try daemon.send("GET", path)
            let items = (JSONCanon.parse(r.body) as? [String: Any])?[key] as? [[String: Any]] ?? []
            return items.compactMap { $0["id"] as? String }
        }
        var paths = ["/v1/status", "/v1/profile", "/v1/places"]
        paths += try list("/v1/places", "places").map { "/v1/places/\($0)" }
        paths += ["/v1/favorites", "/v1/itineraries", "/v1/itineraries?scope=mine", "/v1/itineraries?scope=shared"]
        for id in try list("/v1/itineraries", "itineraries") {
            let base = "/v1/itineraries/\(id)"
            paths += [
                base + "/activity", base + "/members", base + "/route", base + "/route?format=geojson",
                base + "/route?format=gpx&mode=walking&by=distance", base,
            ]
        }
        paths += ["/v1/invitations", "/v1/contacts"]
        return paths
    }
}
