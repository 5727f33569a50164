import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesTestSupport

/// One logged-in daemon per test, in this process (`InProcessClient`): the behaviour tests
/// of the control API run through the daemon's router without starting a `placesd`. To run
/// them against real processes, make `Client` a `DaemonProcess`: the calls are the same.
final class LoggedInDaemon: Sendable {
    typealias Client = InProcessClient

    let dir = TempDir()
    let d: Client

    private init() { d = Client(dataDir: dir.path) }

    /// A started, initialized (and so logged-in) daemon on a fresh data dir.
    static func start() async throws -> LoggedInDaemon {
        let t = LoggedInDaemon()
        try await t.d.start()
        try await t.d.initialize()
        return t
    }

    deinit {
        d.stop()
        dir.remove()
    }

    func addPlace(_ name: String, _ lat: Double, _ lon: Double) async throws -> Place {
        try await d.call(
            Place.self, "POST", "/v1/places", json: #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon)}"#)
    }
}

extension Sequence {
    /// `map` with an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out = [T]()
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
