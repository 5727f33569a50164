import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Synchronization
import Testing

/// One logged-in daemon per test, driven with raw HTTP over its socket.
final class LoggedInDaemon {
    let dir = TempDir()
    let d: DaemonProcess

    init() throws {
        d = DaemonProcess(dataDir: dir.path)
        try d.start()
        try d.initialize()
    }

    deinit {
        d.stop()
        dir.remove()
    }

    func addPlace(_ name: String, _ lat: Double, _ lon: Double) throws -> Place {
        try d.call(
            Place.self, "POST", "/v1/places", json: #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon)}"#)
    }
}

/// The behaviour tests of the control API run in-process (Tests/PlacesDaemonTests/API);
/// what needs the socket stays here: the event stream, chunked over a connection.
@Suite("Control API", .serialized)
struct ControlAPITests {
    @Test("the event stream delivers changes as they happen")
    func events() async throws {
        let t = try LoggedInDaemon()
        let client = t.d.client
        let lines = Mutex<[String]>([])
        let reader = Thread {
            _ = try? client.streamLines("/v1/events") { line in
                let text = String(decoding: line, as: UTF8.self)
                return lines.withLock {
                    $0.append(text); return $0.count < 3
                }
            }
        }
        reader.start()
        try await waitFor { lines.withLock { $0.count } >= 1 }
        _ = try t.addPlace("Evented", 1, 1)
        _ = try t.d.send("POST", "/v1/logout")
        try await waitFor { lines.withLock { $0.count } >= 3 }
        let seen = lines.withLock { $0 }
        for line in seen {
            ResponseChecker.record(
                method: "GET", target: "/v1/events", status: 200, contentType: "application/x-ndjson",
                body: Array(line.utf8) + [10])
        }
        let events = seen.compactMap { try? JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        #expect(events.map(\.type) == ["hello", "changed", "logout"])
        #expect(events[1].summary.contains("Evented") && events[1].docKind == "library")
    }
}

func waitFor(timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw HarnessError("condition not met within \(timeout)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
