import Foundation
import PlacesControl
import Testing

@Suite("Fast JSON for hot responses")
struct FastJSONTests {
    @Test("the hand-written favorites JSON is byte-identical to JSONEncoder's")
    func matchesEncoder() throws {
        let names = ["Belém \"Tower\"", "back\\slash", "tab\tnew\nline", "ctrl\u{01}", "emoji 🗺️", "/slash/"]
        let coords: [Double] = [38.6916, -9.216, 45, -0.0001, 89.999999, 1e-7]
        let list = FavoriteList(
            favorites: names.enumerated().map { i, n in
                Favorite(
                    id: String(repeating: "a", count: 32), placeId: "p\(i)", name: n, latitude: coords[i],
                    longitude: coords[(i + 1) % coords.count], position: i + 1, addedAt: "2026-11-22T13:48:44.745Z")
            }, count: names.count)
        let expected = Array(try ControlJSON.encoder.encode(list))
        #expect(String(decoding: list.jsonBytes(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}
