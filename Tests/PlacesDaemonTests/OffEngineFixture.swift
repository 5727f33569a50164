import Foundation
import PlacesAPI
import PlacesControl
import PlacesTestSupport

@testable import PlacesDaemon

/// An in-process daemon, logged in, with library places: what the off-engine tests (routes,
/// plans) start from, to drive the engine's read, the caller's solve and the engine's write
/// one at a time.
struct OffEngineFixture {
    let dir = TempDir()
    let daemon: InProcessDaemon
    /// The places added, in order.
    var places = [String]()

    init(places spots: [(String, Double, Double)]) async throws {
        daemon = try await InProcessDaemon.start(dataDir: dir.path)
        _ = await send("POST", "/v1/init", #"{"name":"Ana","username":"ana","noPassphrase":true}"#)
        for (name, lat, lon) in spots {
            guard
                case .json(201, let body) = await send(
                    "POST", "/v1/places", #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon)}"#)
            else { throw HarnessError("place \(name) not added") }
            places.append(try JSONDecoder().decode(Place.self, from: Data(body)).id)
        }
    }

    func send(_ method: String, _ path: String, _ body: String) async -> PlacesControl.ControlResponse {
        await daemon.handle(ControlRequest(method: method, path: path, query: [:], body: Array(body.utf8)))
    }

    func close() {
        daemon.shutdown()
        dir.remove()
    }
}
