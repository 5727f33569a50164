import PlacesAPI
import PlacesControl
import PlacesModel

/// The control API's social routes (friends, groups, photos, posts, the feed, notifications,
/// the profile's edits), kept out of `Router`'s table. Every route is listed in
/// `Protocol/control-api.yaml`.
enum SocialRoutes {
    /// The first path segments this table answers.
    static let sections: Set<String> = [
        "friends", "groups", "photos", "posts", "feed", "notifications", "profile", "categories",
    ]

    /// `path` is the request's path after `/v1`.
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse? {
        switch (r.method, path.count, path[0]) {
        case ("PATCH", 1, "profile"): return .encoding(try await engine.updateProfile(try Router.object(r)))
        case ("GET", 1, "friends"): return .encoding(try await engine.friendList())
        case ("POST", 2, "friends") where path[1] == "link":
            return .encoding(
                try await engine.createFriendLink(r.body.isEmpty ? [:] : try Router.object(r)), status: 201)
        case ("POST", 1, "friends"):
            let (friend, created) = try await engine.addFriend(try Router.object(r))
            return .encoding(friend, status: created ? 201 : 200)
        case ("GET", 2, "friends"): return .encoding(try await engine.friendProfile(path[1]))
        case ("GET", 3, "friends") where path[2] == "map":
            let (places, geo) = try await engine.friendMap(path[1], query: r.query)
            if geo {
                return .raw(
                    status: 200, contentType: "application/geo+json",
                    body: Array(Engine.geoJSON(places, categories: await engine.pinCategories()).jsonText.utf8))
            }
            return .encoding(FriendMap(places: places))
        case ("GET", 1, "categories"):
            return .encoding(
                CategoryList(
                    categories: await engine.pinCategories().map { PinCategory(name: $0.name, emoji: $0.emoji) }))
        case ("POST", 1, "categories"): return .encoding(try await engine.addPinCategory(try Router.object(r)))
        case ("DELETE", 2, "friends"):
            try await engine.removeFriend(path[1])
            return .json(status: 204, body: [])
        case ("GET", 1, "groups"): return .encoding(try await engine.groups())
        case ("POST", 1, "groups"): return .encoding(try await engine.createGroup(try Router.object(r)), status: 201)
        case ("GET", 2, "groups"): return .encoding(await engine.groupView(try await engine.groupRecord(path[1])))
        case ("PATCH", 2, "groups"): return .encoding(try await engine.updateGroup(path[1], try Router.object(r)))
        case ("DELETE", 2, "groups"):
            try await engine.deleteGroup(path[1])
            return .json(status: 204, body: [])
        case ("POST", 1, "photos"):
            return .encoding(
                try await engine.addPhoto(r.body, mediaType: r.contentType, query: r.query), status: 201)
        case ("GET", 2, "photos"): return try await engine.photoBytes(path[1])
        case ("POST", 1, "posts"): return .encoding(try await engine.createPost(try Router.object(r)), status: 201)
        case ("GET", 2, "posts"): return .encoding(try await engine.post(path[1]))
        case ("DELETE", 2, "posts"):
            try await engine.deletePost(path[1])
            return .json(status: 204, body: [])
        case ("PUT", 3, "posts") where path[2] == "like":
            return .encoding(try await engine.setLike(path[1], liked: true))
        case ("DELETE", 3, "posts") where path[2] == "like":
            return .encoding(try await engine.setLike(path[1], liked: false))
        case ("GET", 3, "posts") where path[2] == "comments": return .encoding(try await engine.comments(path[1]))
        case ("POST", 3, "posts") where path[2] == "comments":
            return .encoding(try await engine.addComment(path[1], try Router.object(r)), status: 201)
        case ("DELETE", 4, "posts") where path[2] == "comments":
            try await engine.deleteComment(path[1], comment: path[3])
            return .json(status: 204, body: [])
        case ("GET", 1, "feed"): return .encoding(try await engine.feed(r.query))
        case ("GET", 1, "notifications"): return .encoding(try await engine.notifications(r.query))
        case ("POST", 2, "notifications") where path[1] == "read":
            return .encoding(try await engine.markNotificationsRead(r.body))
        default: return nil
        }
    }
}
