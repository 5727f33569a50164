import Foundation
import PlacesControlClient

/// The feed's figures (issue 16), through the sockets of two real daemons that are friends
/// over loopback: the first page of a 10,000-post feed, a 5 MB photo reaching the friend, and
/// the receiver's RSS while 100 photos sync.
enum FeedBench {
    static func run() throws {
        let ana = try BenchDaemon(name: "Ana")
        let bruno = try BenchDaemon(name: "Bruno")
        try befriend(ana, bruno)

        // 10,000 posts to friends (each one op into Ana's journal and one into her outbox to Bruno).
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<10_000 {
            let r = try ana.client.send(
                "POST", "/v1/posts",
                body: Array(#"{"text":"Post number \#(i) from the bench","audience":"friends"}"#.utf8))
            guard r.status == 201 else { throw BenchError("post \(i) refused (\(r.status))") }
        }
        let posting = PlacesBench.seconds(clock.now - start)
        print(String(format: "POST /v1/posts (10,000 to one friend): %.1f s, %.2f ms each", posting, posting / 10))
        try wait("Bruno holds the 10,000 posts", timeout: 300) {
            let page = try ExpenseBench.object(bruno.client.send("GET", "/v1/feed?limit=1"))
            return ((page["posts"] as? [[String: Any]])?.first?["text"] as? String) == "Post number 9999 from the bench"
        }
        for (who, daemon) in [("author", ana), ("friend", bruno)] {
            let page = try TripBench.latencies(
                2_000, measuring: { _ in _ = try daemon.client.send("GET", "/v1/feed?limit=20") })
            print(
                String(
                    format:
                        "GET /v1/feed?limit=20 (10,000 posts, the %@'s): p50 %.2f ms, p99 %.2f ms (target p99 <= 5 ms)",
                    who, page.p50, page.p99))
        }

        // A 5 MB photo: from Ana's POST /v1/posts to Bruno holding its bytes.
        let photo = try addPhoto(ana, bytes: 5_000_000, seed: 1)
        let sent = clock.now
        _ = try ana.client.send(
            "POST", "/v1/posts",
            body: Array(#"{"text":"a big photo","audience":"friends","photos":["\#(photo)"]}"#.utf8))
        try wait("Bruno holds the 5 MB photo", timeout: 60) {
            try bruno.client.send("GET", "/v1/photos/\(photo)").status == 200
        }
        print(
            String(
                format: "a 5 MB photo, posted to arriving at the friend over loopback: %.3f s (target <= 0.5 s)",
                PlacesBench.seconds(clock.now - sent)))

        // 100 photos of 1 MB syncing: the friend's RSS, sampled while they arrive.
        var ids = [String]()
        for i in 0..<100 { ids.append(try addPhoto(ana, bytes: 1_000_000, seed: UInt64(100 + i))) }
        let before = bruno.rssMB
        for chunk in stride(from: 0, to: 100, by: 10) {
            let list = ids[chunk..<chunk + 10].map { "\"\($0)\"" }.joined(separator: ",")
            _ = try ana.client.send(
                "POST", "/v1/posts",
                body: Array(#"{"text":"ten photos","audience":"friends","photos":[\#(list)]}"#.utf8))
        }
        var peak = before
        try wait("Bruno holds the 100 photos", timeout: 300) {
            peak = max(peak, bruno.rssMB)
            return try ids.allSatisfy { try bruno.client.send("GET", "/v1/photos/\($0)").status == 200 }
        }
        print(
            String(
                format: "100 photos of 1 MB syncing to a friend: the friend's RSS %.1f MB before, %.1f MB at its peak",
                before, peak))
    }

    /// Ana asks Bruno; Bruno accepts.
    static func befriend(_ ana: BenchDaemon, _ bruno: BenchDaemon) throws {
        _ = try ana.json("POST", "/v1/peers", #"{"address":"\#(bruno.listen)"}"#)
        _ = try ana.json("POST", "/v1/friends", #"{"id":"\#(bruno.id)"}"#)
        var invitation = ""
        try wait("Bruno has Ana's friend request", timeout: 30) {
            let list = try bruno.json("GET", "/v1/invitations", nil)["invitations"] as? [[String: Any]] ?? []
            invitation = list.first { $0["kind"] as? String == "friend" }?["id"] as? String ?? ""
            return !invitation.isEmpty
        }
        _ = try bruno.json("POST", "/v1/invitations/\(invitation)/accept", nil)
        try wait("Ana and Bruno are friends", timeout: 30) {
            let list = try ana.json("GET", "/v1/friends", nil)["friends"] as? [[String: Any]] ?? []
            return list.first?["state"] as? String == "friend"
        }
    }

    /// A JPEG of about `bytes` bytes (a valid header, then entropy-coded data with no marker),
    /// added to `daemon`; returns its id.
    static func addPhoto(_ daemon: BenchDaemon, bytes: Int, seed: UInt64) throws -> String {
        var jpeg: [UInt8] = [0xFF, 0xD8]
        // SOF0: 8-bit, 3000 × 2000, 3 components.
        jpeg += [
            0xFF, 0xC0, 0x00, 0x11, 0x08, 0x07, 0xD0, 0x0B, 0xB8, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11,
            0x01,
        ]
        // SOS header.
        jpeg += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00]
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        jpeg.reserveCapacity(bytes + 4)
        while jpeg.count < bytes {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            jpeg.append(UInt8(truncatingIfNeeded: state) & 0xFE)
        }
        jpeg += [0xFF, 0xD9]
        let r = try daemon.client.send("POST", "/v1/photos", body: jpeg, headers: ["Content-Type": "image/jpeg"])
        guard r.status == 201, let id = try ExpenseBench.object(r)["id"] as? String else {
            throw BenchError("the photo was refused (\(r.status)): \(String(decoding: r.body, as: UTF8.self))")
        }
        return id
    }

    static func wait(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? condition()) == true { return }
            usleep(20_000)
        }
        throw BenchError("timed out waiting until \(what)")
    }
}
