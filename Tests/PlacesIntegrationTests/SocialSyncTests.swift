import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// Friends, groups, posts, likes, comments and notifications between three real daemons
/// (issue 16): Ana is friends with Bruno and with Carla; Bruno and Carla are not friends.
@Suite("Friends and the feed between real daemons", .serialized)
struct SocialSyncTests {
    /// Three daemons connected in a triangle, Ana friends with Bruno (he accepts her request)
    /// and with Carla (Ana's own request to Carla, who had asked first, accepts it).
    static func threeFriends() async throws -> (SyncNode, SyncNode, SyncNode) {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno"), carla = try SyncNode("Carla")
        for (x, y) in [(ana, bruno), (ana, carla), (bruno, carla)] { try x.addPeer(y) }
        let sent = try ana.d.send("POST", "/v1/friends", json: #"{"id":"\#(bruno.id)"}"#)
        #expect(sent.status == 201, "\(sent.text)")
        let requested = try ana.d.call(FriendList.self, "GET", "/v1/friends").friends
        #expect(requested.map(\.state) == ["requested"])
        try await eventually("Bruno has Ana's friend request") {
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.contains {
                $0.kind == "friend" && $0.from == ana.id
            }
        }
        let invitation = try #require(
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.first { $0.kind == "friend" })
        #expect(invitation.fromName == "Ana")
        _ = try bruno.d.call(Invitation.self, "POST", "/v1/invitations/\(invitation.id)/accept")

        _ = try carla.d.call(Friend.self, "POST", "/v1/friends", json: #"{"id":"\#(ana.id)"}"#)
        try await eventually("Ana has Carla's friend request") {
            try ana.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.contains {
                $0.kind == "friend" && $0.from == carla.id
            }
        }
        let accepted = try ana.d.send("POST", "/v1/friends", json: #"{"id":"\#(carla.id)"}"#)
        #expect(accepted.status == 200, "\(accepted.text)")
        try await eventually("the friendships hold on both sides") {
            let anas = try ana.d.call(FriendList.self, "GET", "/v1/friends").friends
            let brunos = try bruno.d.call(FriendList.self, "GET", "/v1/friends").friends
            let carlas = try carla.d.call(FriendList.self, "GET", "/v1/friends").friends
            return Set(anas.filter { $0.state == "friend" }.map(\.id)) == [bruno.id, carla.id]
                && brunos.map(\.id) == [ana.id] && brunos.first?.state == "friend"
                && carlas.map(\.id) == [ana.id] && carlas.first?.state == "friend"
        }
        return (ana, bruno, carla)
    }

    static func feed(_ node: SyncNode) throws -> [Post] {
        try node.d.call(Feed.self, "GET", "/v1/feed").posts
    }

    @Test("a close-friends post reaches Bruno only; a friends post reaches both; likes and comments agree everywhere")
    func audiencesAndReactions() async throws {
        let (ana, bruno, carla) = try await Self.threeFriends()
        let names = try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.map { $0.name ?? "" }.sorted()
        #expect(names == ["Bruno", "Carla"])

        // A group holding someone who is not a friend is refused, precisely.
        let bad = try carla.d.send(
            "POST", "/v1/groups", json: #"{"name":"trip crew","members":["\#(bruno.id)"]}"#)
        #expect(bad.status == 400 && bad.text.contains("not your friend"), "\(bad.text)")
        let close = try ana.d.call(
            FriendGroup.self, "POST", "/v1/groups", json: #"{"name":"close friends","members":["\#(bruno.id)"]}"#)
        #expect(close.members == [bruno.id])

        let secret = "Pastel de nata at Manteigaria, only for close friends"
        let closePost = try ana.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"\#(secret)","audience":"\#(close.id)","latitude":38.7106,"longitude":-9.1436}"#)
        #expect(closePost.audience == close.id && closePost.mine)
        let open = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"Best pastel de nata in town","audience":"friends"}"#)
        let mine = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"note to self","audience":"only-me"}"#)

        try await eventually("Bruno sees both of Ana's posts, newest first; Carla only the friends post") {
            try Self.feed(bruno).map(\.id) == [open.id, closePost.id] && Self.feed(carla).map(\.id) == [open.id]
        }
        #expect(try Self.feed(ana).map(\.id) == [mine.id, open.id, closePost.id])
        let atBruno = try #require(try Self.feed(bruno).last)
        #expect(atBruno.text == secret && atBruno.audience == "group" && atBruno.authorName == "Ana")
        #expect(atBruno.place?.latitude == 38.7106)
        // Carla holds nothing of the close-friends post: not via the API, not in her database.
        #expect(try carla.d.send("GET", "/v1/posts/\(closePost.id)").status == 404)
        #expect(try carla.d.send("GET", "/v1/posts/\(mine.id)").status == 404)
        let carlaFiles = try FileManager.default.contentsOfDirectory(atPath: carla.dir.path)
            .filter { $0.hasPrefix("places.sqlite") }
        for file in carlaFiles {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: carla.dir.path + "/" + file))
            #expect(
                bytes.range(of: Data(closePost.id.prefix(32).utf8)) == nil, "\(file) holds the close-friends post's id")
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds the close-friends post's text")
        }

        // Likes and comments: Bruno likes and comments, Carla likes.
        _ = try bruno.d.call(Post.self, "PUT", "/v1/posts/\(open.id)/like")
        _ = try carla.d.call(Post.self, "PUT", "/v1/posts/\(open.id)/like")
        let comment = try bruno.d.call(
            PostComment.self, "POST", "/v1/posts/\(open.id)/comments", json: #"{"text":"Manteigaria? Agreed!"}"#)
        try await eventually("all three count 2 likes and 1 comment", timeout: .seconds(20)) {
            try [ana, bruno, carla].allSatisfy { node in
                let post = try node.d.call(Post.self, "GET", "/v1/posts/\(open.id)")
                return post.likes == 2 && post.comments == 1
            }
        }
        #expect(try bruno.d.call(Post.self, "GET", "/v1/posts/\(open.id)").liked)
        #expect(try !ana.d.call(Post.self, "GET", "/v1/posts/\(open.id)").liked)
        let seenByCarla = try carla.d.call(CommentList.self, "GET", "/v1/posts/\(open.id)/comments").comments
        #expect(seenByCarla.map(\.text) == ["Manteigaria? Agreed!"] && seenByCarla.first?.author == bruno.id)
        // Carla cannot delete Bruno's comment; Ana (the post's author) can.
        #expect(try carla.d.send("DELETE", "/v1/posts/\(open.id)/comments/\(comment.id)").status == 403)
        // Unlike: the count drops everywhere.
        _ = try carla.d.call(Post.self, "DELETE", "/v1/posts/\(open.id)/like")
        try await eventually("Carla's unlike reaches everyone") {
            try [ana, bruno, carla].allSatisfy { try $0.d.call(Post.self, "GET", "/v1/posts/\(open.id)").likes == 1 }
        }
        #expect(try ana.d.send("DELETE", "/v1/posts/\(open.id)/comments/\(comment.id)").status == 204)
        try await eventually("the deleted comment is gone everywhere") {
            try [ana, bruno, carla].allSatisfy {
                try $0.d.call(Post.self, "GET", "/v1/posts/\(open.id)").comments == 0
            }
        }
        // Reactions on a post not seen: 404.
        #expect(try carla.d.send("PUT", "/v1/posts/\(closePost.id)/like").status == 404)

        // Notifications at Ana: her friend request from Carla, Bruno's acceptance, the likes and the comment.
        let notes = try ana.d.call(NotificationList.self, "GET", "/v1/notifications")
        let types = notes.notifications.map(\.type)
        #expect(types.filter { $0 == "like" }.count == 2, "\(types)")
        #expect(types.contains("comment") && types.contains("friend-request") && types.contains("friend-accepted"))
        #expect(notes.unread == notes.notifications.count)
        let read = try ana.d.call(NotificationList.self, "POST", "/v1/notifications/read")
        #expect(read.unread == 0)

        // Deleting a post deletes it for everyone; only its author may.
        #expect(try bruno.d.send("DELETE", "/v1/posts/\(open.id)").status == 403)
        #expect(try ana.d.send("DELETE", "/v1/posts/\(open.id)").status == 204)
        try await eventually("the deleted post is gone from every feed") {
            try Self.feed(bruno).map(\.id) == [closePost.id] && Self.feed(carla).isEmpty
        }
    }

    @Test("unfriending ends the friendship on both sides; later posts do not reach them")
    func unfriending() async throws {
        let (ana, bruno, carla) = try await Self.threeFriends()
        #expect(try bruno.d.send("DELETE", "/v1/friends/\(ana.id)").status == 204)
        try await eventually("Ana no longer lists Bruno") {
            try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.map(\.id) == [carla.id]
                && bruno.d.call(FriendList.self, "GET", "/v1/friends").friends.isEmpty
        }
        let after = try ana.d.call(Post.self, "POST", "/v1/posts", json: #"{"text":"after","audience":"friends"}"#)
        try await eventually("Carla sees the new post") { try Self.feed(carla).map(\.id) == [after.id] }
        #expect(try Self.feed(bruno).isEmpty)
        #expect(try bruno.d.send("GET", "/v1/posts/\(after.id)").status == 404)

        // Friends again: after an ended friendship, both add each other.
        _ = try ana.d.call(Friend.self, "POST", "/v1/friends", json: #"{"id":"\#(bruno.id)"}"#)
        _ = try bruno.d.call(Friend.self, "POST", "/v1/friends", json: #"{"id":"\#(ana.id)"}"#)
        try await eventually("Ana and Bruno are friends again") {
            try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.first { $0.id == bruno.id }?.state == "friend"
                && bruno.d.call(FriendList.self, "GET", "/v1/friends").friends.first?.state == "friend"
        }
        let again = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"welcome back","audience":"friends"}"#)
        try await eventually("Bruno sees the post made after") { try Self.feed(bruno).map(\.id) == [again.id] }
    }

    @Test("a friend's map by category and as GeoJSON; places copied from a friend and from a post remember where from")
    func friendsMapAndCopies() async throws {
        let (ana, bruno, _) = try await Self.threeFriends()
        let bar = try bruno.d.call(
            Place.self, "POST", "/v1/places",
            json: #"""
                {"name":"Park Bar","latitude":38.7089,"longitude":-9.1474,"categories":["to drink"],
                 "notes":"rooftop, go at sunset"}
                """#)
        // A pin with a photo: a 2 × 1 JPEG.
        let jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x02, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9,
        ]
        let uploaded = try bruno.d.client.send(
            "POST", "/v1/photos", body: jpeg, headers: ["Content-Type": "image/jpeg"])
        let photo = try JSONDecoder().decode(Photo.self, from: Data(uploaded.body))
        let pinned = try bruno.d.call(
            Place.self, "POST", "/v1/places/\(bar.id)/photos", json: #"{"photo":"\#(photo.id)"}"#)
        #expect(pinned.photos?.map(\.id) == [photo.id])
        let shop = try bruno.d.call(
            Place.self, "POST", "/v1/places",
            json: #"{"name":"A Vida Portuguesa","latitude":38.7107,"longitude":-9.1413,"categories":["to shop"]}"#)
        for place in [bar, shop] { _ = try bruno.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(place.id)"}"#) }
        _ = try bruno.d.call(FavoriteSharingSetting.self, "PUT", "/v1/favorites/sharing", json: #"{"sharing":"all"}"#)
        try await eventually("Ana sees Bruno's two places") {
            try ana.d.call(FriendMap.self, "GET", "/v1/friends/\(bruno.id)/map").places.count == 2
        }
        let drinks = try ana.d.call(FriendMap.self, "GET", "/v1/friends/\(bruno.id)/map?category=to%20drink").places
        #expect(drinks.map(\.name) == ["Park Bar"])
        #expect(drinks.first?.notes == "rooftop, go at sunset" && drinks.first?.photos?.map(\.id) == [photo.id])
        try await eventually("the pin's photo reaches Ana") {
            try ana.d.client.send("GET", "/v1/photos/\(photo.id)").body == jpeg
        }
        let geo = try ana.d.send("GET", "/v1/friends/\(bruno.id)/map?format=geojson&category=to%20drink")
        #expect(geo.status == 200 && geo.text.contains("\"FeatureCollection\"") && geo.text.contains("🍸"))
        let copied = try ana.d.call(
            Place.self, "POST", "/v1/places", json: #"{"fromFriend":"\#(bruno.id)","placeId":"Park Bar"}"#)
        #expect(copied.name == "Park Bar" && copied.origin == "friend:\(bruno.id)" && copied.categories == ["to drink"])

        let post = try bruno.d.call(
            Post.self, "POST", "/v1/posts",
            json: #"{"text":"I'm at this bar","audience":"friends","placeId":"\#(bar.id)"}"#)
        try await eventually("Ana sees Bruno's post") { try Self.feed(ana).contains { $0.id == post.id } }
        let fromPost = try ana.d.call(Place.self, "POST", "/v1/places", json: #"{"fromPost":"\#(post.id)"}"#)
        #expect(fromPost.name == "Park Bar" && fromPost.origin == "post:\(post.id)")

        // A category of one's own, with its emoji.
        let categories = try ana.d.call(
            CategoryList.self, "POST", "/v1/categories", json: #"{"name":"to dance","emoji":"💃"}"#)
        #expect(categories.categories.contains(PinCategory(name: "to dance", emoji: "💃")))
        #expect(categories.categories.contains(PinCategory(name: "to eat", emoji: "🍴")))
        let badEmoji = try ana.d.send("POST", "/v1/categories", json: #"{"name":"x","emoji":"not an emoji"}"#)
        #expect(badEmoji.status == 400 && badEmoji.text.contains("emoji"))
        #expect(abs(fromPost.latitude - 38.7089) < 1e-9)
    }

    @Test("a friend link, redeemed, makes two people friends without a prompt; a forged or expired one is refused")
    func friendLink() async throws {
        let ana = try SyncNode("Ana"), dana = try SyncNode("Dana")
        try dana.addPeer(ana)
        let link = try ana.d.call(FriendLinkResponse.self, "POST", "/v1/friends/link", json: #"{"validHours":1}"#)
        #expect(link.link.hasPrefix("places://friend/"))
        // One character changed in the token: its signature no longer holds.
        var forged = Array(link.link)
        let last = forged.count - 3
        forged[last] = forged[last] == "A" ? "B" : "A"
        let refused = try dana.d.send("POST", "/v1/friends", json: #"{"link":"\#(String(forged))"}"#)
        #expect(refused.status == 403 || refused.status == 400, "\(refused.text)")
        #expect(try dana.d.call(FriendList.self, "GET", "/v1/friends").friends.isEmpty)

        let sent = try dana.d.send("POST", "/v1/friends", json: #"{"link":"\#(link.link)"}"#)
        #expect(sent.status == 201, "\(sent.text)")
        try await eventually("Ana and Dana are friends, with no invitation waiting") {
            try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.first?.state == "friend"
                && dana.d.call(FriendList.self, "GET", "/v1/friends").friends.first?.state == "friend"
        }
        #expect(try ana.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.isEmpty)
    }

    @Test("a deleted post's photo is collected on both sides; a photo added but not posted yet is kept")
    func photoCollection() async throws {
        let (ana, bruno, _) = try await Self.threeFriends()
        // A minimal JPEG: SOI, a 2 × 1 baseline frame header, EOI.
        let jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x02, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9,
        ]
        func add(_ bytes: [UInt8]) throws -> Photo {
            let r = try ana.d.client.send("POST", "/v1/photos", body: bytes, headers: ["Content-Type": "image/jpeg"])
            guard r.status == 201 else { throw HarnessError("photo: \(r.text)") }
            return try JSONDecoder().decode(Photo.self, from: Data(r.body))
        }
        let posted = try add(jpeg)
        var wider = jpeg
        wider[10] = 0x03  // 3 × 1: another photo
        let kept = try add(wider)
        #expect(posted.id != kept.id && posted.width == 2 && posted.height == 1)
        let post = try ana.d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":"nata","audience":"friends","photos":["\#(posted.id)"]}"#)
        try await eventually("Bruno holds the photo") {
            try bruno.d.client.send("GET", "/v1/photos/\(posted.id)").status == 200
        }
        #expect(try ana.d.send("DELETE", "/v1/posts/\(post.id)").status == 204)
        try await eventually("the photo is gone on both sides") {
            try ana.d.client.send("GET", "/v1/photos/\(posted.id)").status == 404
                && bruno.d.client.send("GET", "/v1/photos/\(posted.id)").status == 404
        }
        #expect(try ana.d.client.send("GET", "/v1/photos/\(kept.id)").status == 200)
    }

    @Test(
        "counts agree on every device whatever order the reactions arrive in: random likes, unlikes, comments and deletions",
        arguments: [UInt64(1), 7, 42])
    func countsUnderAnyOrder(seed: UInt64) async throws {
        let (ana, bruno, carla) = try await Self.threeFriends()
        let post = try ana.d.call(Post.self, "POST", "/v1/posts", json: #"{"text":"counts","audience":"friends"}"#)
        try await eventually("both friends see the post") {
            try Self.feed(bruno).contains { $0.id == post.id } && Self.feed(carla).contains { $0.id == post.id }
        }
        var random = SeededRandom(seed: seed)
        let people = [ana, bruno, carla]
        var liked = Set<String>()
        var comments = [String: [String]]()  // person id → their live comment ids
        // No waiting between steps: the reactions of the three reach Ana's daemon interleaved.
        for _ in 0..<24 {
            let person = try #require(people.randomElement(using: &random))
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                _ = try person.d.call(Post.self, "PUT", "/v1/posts/\(post.id)/like")
                liked.insert(person.id)
            case 1:
                _ = try person.d.call(Post.self, "DELETE", "/v1/posts/\(post.id)/like")
                liked.remove(person.id)
            case 2:
                let comment = try person.d.call(
                    PostComment.self, "POST", "/v1/posts/\(post.id)/comments", json: #"{"text":"step"}"#)
                comments[person.id, default: []].append(comment.id)
            default:
                guard let id = comments[person.id]?.popLast() else { continue }
                #expect(try person.d.send("DELETE", "/v1/posts/\(post.id)/comments/\(id)").status == 204)
            }
        }
        let likes = liked.count
        let live = comments.values.reduce(0) { $0 + $1.count }
        try await eventually("every device shows \(likes) likes and \(live) comments", timeout: .seconds(30)) {
            try people.allSatisfy { node in
                let seen = try node.d.call(Post.self, "GET", "/v1/posts/\(post.id)")
                return seen.likes == likes && seen.comments == live && seen.liked == liked.contains(node.id)
            }
        }
    }

    @Test("bad posts are refused precisely and change nothing")
    func badPosts() async throws {
        let ana = try SyncNode("Ana")
        let long = String(repeating: "a", count: 2_001)
        for (body, field) in [
            (#"{"text":"\#(long)","audience":"friends"}"#, "text"),
            (#"{"text":"   ","audience":"friends"}"#, "text"),
            (#"{"text":"hi","audience":"nobody"}"#, "audience"),
            (#"{"text":"hi"}"#, "audience"),
            (#"{"text":"hi","audience":"friends","photos":["\#(String(repeating: "0", count: 64))"]}"#, "photos"),
            (#"{"text":"hi","audience":"friends","latitude":91,"longitude":0}"#, "latitude"),
            (#"{"text":"hi","audience":"friends","mood":"happy"}"#, "mood"),
        ] {
            let r = try ana.d.send("POST", "/v1/posts", json: body)
            #expect(r.status == 400 || r.status == 404, "\(body): \(r.text)")
            #expect(r.text.contains(field), "\(body): \(r.text)")
        }
        #expect(try Self.feed(ana).isEmpty)
        // Not an image: 415, nothing kept.
        let text = try ana.d.client.send(
            "POST", "/v1/photos", body: Array("hello".utf8), headers: ["Content-Type": "image/jpeg"])
        #expect(text.status == 415, "\(text.text)")
    }
}
