import Foundation
import PlacesControlClient
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Nearby's figure (issue 32), through the socket of a real daemon: `GET /v1/nearby` over
/// 10,000 of Ana's places and 50,000 shared by five friends (10,000 each, the most a card
/// carries), all within about 10 km of Lisbon's centre. Target: p99 ≤ 5 ms.
enum NearbyBench {
    static func geoJSON(count: Int, seed: UInt64, prefix: String) -> [UInt8] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var features = [String]()
        features.reserveCapacity(count)
        for i in 0..<count {
            let lat = 38.7139 + (Double(next() % 10_000) - 5_000) / 100_000
            let lon = -9.1335 + (Double(next() % 12_000) - 6_000) / 100_000
            let hours = i % 3 == 0 ? #","opening_hours":"Mo-Su 09:00-20:00""# : ""
            features.append(
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"\#(prefix) \#(i)","categories":["\#(PlanBench.categories[i % PlanBench.categories.count])"]\#(hours)}}"#
            )
        }
        return Array(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8)
    }

    static func importPlaces(_ daemon: BenchDaemon, count: Int, seed: UInt64, prefix: String) throws -> [String] {
        let r = try daemon.client.send(
            "POST", "/v1/places/import", body: geoJSON(count: count, seed: seed, prefix: prefix),
            headers: ["Content-Type": "application/geo+json"])
        guard r.status == 200 else { throw BenchError("the import was refused: \(r.text)") }
        let places = try daemon.json("GET", "/v1/places", nil)["places"] as? [[String: Any]] ?? []
        return places.compactMap { $0["id"] as? String }
    }

    static func run() throws {
        let clock = ContinuousClock()
        let ana = try BenchDaemon(name: "Ana")
        defer { ana.stop() }
        let mine = try importPlaces(ana, count: 10_000, seed: 1, prefix: "Mine")
        var friends = [BenchDaemon]()
        var shared = 0
        defer { for friend in friends { friend.stop() } }
        for (n, name) in ["Bruno", "Carla", "Duarte", "Eva", "Filipe"].enumerated() {
            let friend = try BenchDaemon(name: name)
            friends.append(friend)
            let ids = try importPlaces(friend, count: 10_000, seed: UInt64(n + 2), prefix: name)
            // Hearting 10,000 places one request at a time costs minutes (each add reads the
            // whole list): they are written straight into the stopped daemon's library.
            friend.stop()
            try friend.appendFavorites(ids)
            try friend.start()
            shared += try friend.json("PUT", "/v1/favorites/sharing", #"{"sharing":"all"}"#)["shared"] as? Int ?? 0
            try FeedBench.befriend(ana, friend)
        }
        let everything = "/v1/nearby?near=38.7139,-9.1335&radius=50000&limit=1"
        // The import skips a place within 1 m of another: a few of the 50,000 are not there.
        try FeedBench.wait("Ana holds her friends' \(shared) places", timeout: 600) {
            (try ana.json("GET", everything + "&who=friends", nil)["count"] as? Int ?? 0) >= shared
        }
        let total = try ana.json("GET", everything, nil)["count"] as? Int ?? 0

        func measure(_ path: String, runs: Int) throws -> (p50: Double, p99: Double, shown: Int) {
            var times = [Double]()
            var shown = 0
            for _ in 0..<runs {
                let start = clock.now
                let r = try ana.client.send("GET", path)
                times.append(PlacesBench.seconds(clock.now - start) * 1_000)
                guard r.status == 200 else { throw BenchError("nearby was refused: \(r.text)") }
                if shown == 0 {
                    let answer = (try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
                    shown = answer["count"] as? Int ?? 0
                }
            }
            times.sort()
            return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)], shown)
        }
        for (label, path) in [
            ("800 m", "/v1/nearby?near=38.7139,-9.1335&radius=800"),
            ("800 m, friends, open now", "/v1/nearby?near=38.7139,-9.1335&radius=800&who=friends&openNow=true"),
            ("3 km, first 100", "/v1/nearby?near=38.7200,-9.1400&radius=3000"),
        ] {
            let m = try measure(path, runs: 1_000)
            print(
                String(
                    format: "nearby over %d places (%@, %d match): p50 %.2f ms, p99 %.2f ms (target p99 <= 5 ms)",
                    total, label, m.shown, m.p50, m.p99))
        }
        // Right after a change: the index is read again once.
        var after = [Double]()
        for i in 0..<20 {
            _ = try ana.json("PATCH", "/v1/places/\(mine[i])", #"{"notes":"changed \#(i)"}"#)
            let start = clock.now
            _ = try ana.client.send("GET", "/v1/nearby?near=38.7139,-9.1335&radius=800")
            after.append(PlacesBench.seconds(clock.now - start) * 1_000)
        }
        after.sort()
        print(
            String(
                format: "nearby right after a change to the library (index rebuilt): p50 %.0f ms, max %.0f ms",
                after[after.count / 2], after.last ?? 0))
    }
}

extension BenchDaemon {
    /// Hearts `placeIDs` in the stopped daemon's library, in that order, 500 per op.
    func appendFavorites(_ placeIDs: [String]) throws {
        let keyData = try Data(contentsOf: URL(fileURLWithPath: dataDir + "/identity.key"))
        let identity = try JSONDecoder().decode(KeyFile.self, from: keyData).open(passphrase: nil)
        let store = try Store(path: dataDir + "/places.sqlite")
        defer { try? store.close() }
        var keyring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            keyring.insert(try SealedBox.open(sealed, with: identity), doc: doc, epoch: epoch)
        }
        guard let library = try store.documents(kind: .library).first?.id else {
            throw BenchError("no library in \(dataDir)")
        }
        let positions = FractionalIndex.spread(placeIDs.count)
        var edits = [Store.Edit]()
        for start in stride(from: 0, to: placeIDs.count, by: 500) {
            var changes = [Change]()
            for i in start..<min(placeIDs.count, start + 500) {
                var favorite = EntityWrite<FavoriteFields>.create(HexCoding.encode(SecureRandom.bytes(16)))
                favorite.set(FavoriteFields.placeID, to: placeIDs[i])
                favorite.set(FavoriteFields.position, to: positions[i])
                changes += favorite.changes
            }
            edits.append(Store.Edit(doc: library, changes: changes, timeMs: Int64(Date().timeIntervalSince1970 * 1000)))
        }
        try store.append(edits, identity: identity, keyring: keyring)
    }
}
