import Foundation
import PlacesTestSupport
import Testing

/// Moved from the integration tests' DaemonLifecycleTests: the router's logged-out refusals
/// need no socket, and run in-process.
@Suite("Logged out", .serialized)
struct LoggedOutTests {
    @Test("logged out, only status, init, login and logout answer; every other route is refused")
    func everythingElseRefused() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = InProcessClient(dataDir: dir.path)
        defer { d.stop() }
        try await d.start()
        try await d.initialize()
        _ = try await d.send("POST", "/v1/logout")
        for (method, path) in [
            ("GET", "/v1/places"), ("GET", "/v1/favorites"), ("GET", "/v1/itineraries"), ("GET", "/v1/profile"),
            ("GET", "/v1/events"), ("POST", "/v1/routes/solve"), ("POST", "/v1/maintenance/rebuild"),
            ("GET", "/v1/itineraries/abcd/activity"),
        ] {
            let r = try await d.send(method, path, json: method == "POST" ? #"{"matrix":[[0]]}"# : nil)
            #expect(r.status == 401, "\(method) \(path)")
            #expect(r.text.contains("places login"), "\(method) \(path)")
        }
        #expect(try await d.send("GET", "/v1/status").status == 200)
    }
}
