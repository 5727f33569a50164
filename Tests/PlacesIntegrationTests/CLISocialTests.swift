import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// Friends, posts, the feed, likes, comments and notifications through the real `places`
/// binary against two real daemons (issue 16), as two people would type it.
@Suite("places CLI: friends, posts and the feed", .serialized)
struct CLISocialTests {
    /// Ana and Bruno's daemons, connected both ways, made friends with the CLI: Ana sends the
    /// request by Bruno's id, Bruno accepts it by Ana's name.
    static func friends() async throws -> (ana: SyncNode, bruno: SyncNode) {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno")
        try ana.addPeer(bruno)
        try bruno.addPeer(ana)
        let sent = try ana.d.cli(["friends", "add", bruno.id])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("friend request sent"), "\(sent.stdout)")
        try await eventually("Bruno's `places friends` shows Ana asking") {
            let list = try bruno.d.cli(["friends"]).stdout
            return list.contains("Ana") && list.contains("asks you")
        }
        let accepted = try bruno.d.cli(["friends", "accept", "ana"])
        #expect(accepted.status == 0 && accepted.stdout.contains("you and Ana are friends"), "\(accepted.stderr)")
        try await eventually("both list each other as friends") {
            let anas = try ana.d.cli(["friends"]).stdout
            let brunos = try bruno.d.cli(["friends"]).stdout
            return anas.contains("Bruno") && anas.contains("@bruno") && anas.contains("  friend  ")
                && brunos.contains("Ana") && brunos.contains("  friend  ")
        }
        return (ana, bruno)
    }

    static func feed(_ node: SyncNode) throws -> [Post] {
        let r = try node.d.cli(["feed", "--json"])
        guard r.status == 0 else { throw HarnessError("places feed: \(r.stderr)") }
        return try JSONDecoder().decode(Feed.self, from: Data(r.stdout.utf8)).posts
    }

    @Test("`places friends link` prints a link and a QR code; `places friends add LINK` makes friends at once")
    func friendLink() async throws {
        let ana = try SyncNode("Ana"), dana = try SyncNode("Dana")
        try dana.addPeer(ana)
        let made = try ana.d.cli(["friends", "link"])
        #expect(made.status == 0, "\(made.stderr)")
        let lines = made.stdout.split(separator: "\n")
        let link = try #require(lines.first.map(String.init))
        #expect(link.hasPrefix("places://friend/") && lines.count > 10, "no QR code under the link: \(made.stdout)")
        let added = try dana.d.cli(["friends", "add", link])
        #expect(added.status == 0, "\(added.stderr)")
        try await eventually("Ana and Dana are friends without Ana accepting") {
            try ana.d.cli(["friends"]).stdout.contains("Dana") && dana.d.cli(["friends"]).stdout.contains("  friend  ")
        }
        let bad = try dana.d.cli(["friends", "add", "places://friend/AAAA"])
        #expect(bad.status != 0 && bad.stderr.contains("friend link"), "\(bad.stderr)")
    }

    @Test(
        "friends via the CLI; a post to friends is seen, liked and commented on; the like shows in the feed and notifications"
    )
    func postLikeNotify() async throws {
        let (ana, bruno) = try await Self.friends()

        let posted = try ana.d.cli(["post", "Best pastel de nata in town", "--to", "friends"])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("you · ") && posted.stdout.contains("to your friends"), "\(posted.stdout)")
        let post = try #require(try Self.feed(ana).first)
        #expect(post.text == "Best pastel de nata in town" && post.mine)

        try await eventually("Bruno's `places feed` shows Ana's post") {
            let shown = try bruno.d.cli(["feed"]).stdout
            return shown.contains("Best pastel de nata in town") && shown.contains("Ana · ")
        }
        let short = String(post.id.prefix(8))
        let liked = try bruno.d.cli(["post", "like", short])
        #expect(liked.status == 0, "\(liked.stderr)")
        #expect(liked.stdout.contains("♥ 1, you"), "\(liked.stdout)")
        let commented = try bruno.d.cli(["post", "comment", short, "Agreed, the crust!"])
        #expect(commented.status == 0 && commented.stdout.contains("Agreed, the crust!"), "\(commented.stderr)")

        try await eventually("Ana's `places feed` counts Bruno's like and comment") {
            let shown = try ana.d.cli(["feed"]).stdout
            return shown.contains("♥ 1 · 1 comment")
        }
        let comments = try ana.d.cli(["post", "comments", short])
        #expect(comments.stdout.contains("Bruno") && comments.stdout.contains("Agreed, the crust!"))
        try await eventually("Ana's `places notifications` has Bruno's like") {
            let shown = try ana.d.cli(["notifications"]).stdout
            return shown.contains("Bruno") && shown.contains("liked your post \(short)")
        }
        let notifications = try ana.d.cli(["notifications", "--json"])
        let list = try JSONDecoder().decode(NotificationList.self, from: Data(notifications.stdout.utf8))
        #expect(list.notifications.contains { $0.type == "like" && $0.subject == post.id && !$0.read })
        let read = try ana.d.cli(["notifications", "read"])
        #expect(read.status == 0 && read.stdout.contains("no unread notifications"), "\(read.stderr)")

        // Bruno takes his like back; Ana's feed follows.
        let unliked = try bruno.d.cli(["post", "unlike", short])
        #expect(unliked.status == 0 && unliked.stdout.contains("♥ 0"), "\(unliked.stderr)")
        try await eventually("Ana's feed shows no like") { try Self.feed(ana).first?.likes == 0 }
    }

    @Test("a group post to “close friends” by name; the group's name stays with its author")
    func groupPost() async throws {
        let (ana, bruno) = try await Self.friends()
        let created = try ana.d.cli(["groups", "create", "close friends", "--member", "bruno"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created group “close friends”") && created.stdout.contains("Bruno"))
        let groups = try ana.d.cli(["groups"])
        #expect(groups.stdout.contains("close friends") && groups.stdout.contains("Bruno"), "\(groups.stdout)")

        let posted = try ana.d.cli(["post", "Pastéis at Manteigaria, just for you", "--to", "close friends"])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(try ana.d.cli(["feed"]).stdout.contains("to “close friends”"))
        try await eventually("Bruno sees the group post, without the group's name") {
            let shown = try bruno.d.cli(["feed"]).stdout
            return shown.contains("Pastéis at Manteigaria") && shown.contains("to a group")
                && !shown.contains("close friends")
        }

        let unknown = try ana.d.cli(["post", "to nobody", "--to", "hiking club"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no group 'hiking club'"), "\(unknown.stderr)")
    }

    @Test("a post over 2,000 characters and a text file as --photo are refused with the daemon's reason")
    func badInput() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        defer { d.stop() }
        try d.initialize()

        let long = try d.cli(["post", String(repeating: "a", count: 2_001)])
        #expect(long.status == 1 && long.stderr.contains("at most 2000 characters"), "\(long.stderr)")

        let notes = dir.path + "/notes.txt"
        try "not a photo\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let text = try d.cli(["post", "look", "--photo", notes])
        #expect(text.status == 1 && text.stderr.contains("not a JPEG, PNG, WebP or HEIC image"), "\(text.stderr)")
        let added = try d.cli(["photo", "add", notes])
        #expect(added.status == 1 && added.stderr.contains("not a JPEG, PNG, WebP or HEIC image"), "\(added.stderr)")
        #expect(try Self.feedIsEmpty(d), "nothing was posted")

        let missing = try d.cli(["post", "look", "--photo", dir.path + "/nope.jpg"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read"), "\(missing.stderr)")
        let nothing = try d.cli(["post"])
        #expect(nothing.status == 2 && nothing.stderr.contains("say something"), "\(nothing.stderr)")
        let stranger = try d.cli(["friends", "show", "nobody"])
        #expect(stranger.status == 2 && stranger.stderr.contains("no friend called “nobody”"), "\(stranger.stderr)")
    }

    @Test("photos: add, get, a post with a photo and coordinates, a profile picture and bio")
    func photosAndProfile() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        defer { d.stop() }
        try d.initialize()
        let file = dir.path + "/tram.jpg"
        try Data(Self.jpeg()).write(to: URL(fileURLWithPath: file))

        let added = try d.cli(["photo", "add", file])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("image/jpeg") && added.stdout.contains("4032 × 3024"), "\(added.stdout)")
        let photo = try JSONDecoder().decode(
            Photo.self, from: Data(try d.cli(["photo", "add", file, "--json"]).stdout.utf8))
        #expect(added.stdout.contains(photo.id), "the same bytes give the same id")
        let copy = dir.path + "/copy.jpg"
        let got = try d.cli(["photo", "get", photo.id, "-o", copy])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(FileManager.default.contents(atPath: copy)?.count == Int(photo.bytes))

        let posted = try d.cli(["post", "Tram 28 at dusk", "--photo", file, "--lat", "38.7139", "--lon", "-9.1334"])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("at 38.71390, -9.13340 · 1 photo · ♥ 0 · 0 comments"), "\(posted.stdout)")
        let post = try #require(
            try JSONDecoder().decode(Feed.self, from: Data(try d.cli(["feed", "--json"]).stdout.utf8)).posts.first)
        #expect(post.photos.map(\.id) == [photo.id])
        let shown = try d.cli(["post", "show", String(post.id.prefix(6))])
        #expect(shown.stdout.contains("photo \(photo.id)"), "\(shown.stdout)")

        let set = try d.cli(["profile", "set", "--bio", "Pastry hunter", "--picture", file])
        #expect(set.status == 0, "\(set.stderr)")
        let profile = try d.cli(["profile"])
        #expect(profile.stdout.contains("Pastry hunter") && profile.stdout.contains(photo.id), "\(profile.stdout)")

        let deleted = try d.cli(["post", "delete", String(post.id.prefix(8))])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Self.feedIsEmpty(d))
    }

    /// A small baseline JPEG, 4032 × 3024 by its frame header: enough for the daemon to
    /// recognize it and read its size.
    static func jpeg() -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            let length = payload.count + 2
            return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        out += segment(0xDB, [0] + Array(repeating: 1, count: 64))
        out += segment(0xC0, [8, 0x0B, 0xD0, 0x0F, 0xC0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        out += segment(0xC4, [0] + Array(repeating: 0, count: 16))
        out += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        out += (0..<512).map { UInt8($0 % 251) }
        return out + [0xFF, 0xD9]
    }

    static func feedIsEmpty(_ d: DaemonProcess) throws -> Bool {
        let r = try d.cli(["feed", "--json"])
        return try JSONDecoder().decode(Feed.self, from: Data(r.stdout.utf8)).posts.isEmpty
    }
}
