import Foundation
import PlacesAPI
import PlacesControl
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// `GET /v1/favorites` kept for the control server (`Router.keptAnswer`): the answer the
/// engine gave, while nothing was written since and the identity is the same.
@Suite("Kept favorites answer")
struct KeptFavoritesTests {
    @Test("the kept answer is the engine's, and goes with every write and at logout")
    func keptUntilChange() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        let daemon = try await InProcessDaemon.start(dataDir: dir.path)
        defer { daemon.shutdown() }
        let router = daemon.router
        let get = ControlRequest(method: "GET", path: "/v1/favorites")
        func send(_ method: String, _ path: String, _ body: String = "") async -> PlacesControl.ControlResponse {
            await daemon.handle(ControlRequest(method: method, path: path, body: Array(body.utf8)))
        }
        func bytes(_ response: PlacesControl.ControlResponse?) -> [UInt8]? {
            if case .json(200, let body) = response { return body }
            return nil
        }
        _ = await send("POST", "/v1/init", #"{"name":"Ana","username":"ana","noPassphrase":true}"#)
        #expect(router.keptAnswer(get) == nil)
        var places = [String]()
        for i in 0..<3 {
            guard
                case .json(201, let body) = await send(
                    "POST", "/v1/places", #"{"name":"P\#(i)","latitude":1,"longitude":\#(i)}"#)
            else { throw HarnessError("place not added") }
            places.append(try JSONDecoder().decode(Place.self, from: Data(body)).id)
        }
        var previous = bytes(await send("GET", "/v1/favorites"))
        for (i, place) in places.enumerated() {
            _ = await send("POST", "/v1/favorites", #"{"placeId":"\#(place)"}"#)
            // Written since the last read: nothing kept is current.
            #expect(router.keptAnswer(get) == nil)
            let read = bytes(await send("GET", "/v1/favorites"))
            #expect(read != previous)
            #expect(bytes(router.keptAnswer(get)) == read)
            #expect(try JSONDecoder().decode(FavoriteList.self, from: Data(read ?? [])).count == i + 1)
            previous = read
        }
        // Any other write moves the store's generation too (a peer's ops are stored the same way).
        _ = await send("PATCH", "/v1/places/\(places[0])", #"{"name":"Renamed"}"#)
        #expect(router.keptAnswer(get) == nil)
        let renamed = bytes(await send("GET", "/v1/favorites"))
        #expect(String(decoding: renamed ?? [], as: UTF8.self).contains("Renamed"))
        #expect(bytes(router.keptAnswer(get)) == renamed)
        // Only this route is kept.
        #expect(router.keptAnswer(ControlRequest(method: "GET", path: "/v1/places")) == nil)
        #expect(router.keptAnswer(ControlRequest(method: "POST", path: "/v1/favorites")) == nil)
        _ = await send("POST", "/v1/logout")
        #expect(router.keptAnswer(get) == nil)
    }
}
