// Friends, groups, posts, the feed and notifications (issue 16): the control API's bodies.
// `Protocol/control-api.yaml` is the contract.

import PlacesModel

/// A friend (or a request this person sent that waits for an answer).
public struct Friend: Codable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var username: String?
    public var bio: String?
    /// A photo id, from the friend's card.
    public var picture: String?
    /// `friend`, or `requested` for a request that waits for their answer.
    public var state: String
    public var since: String
    /// When this daemon last had a session with theirs; nil if never.
    public var lastSeen: String?

    public init(
        id: String, name: String?, username: String?, bio: String?, picture: String?, state: String, since: String,
        lastSeen: String?
    ) {
        self.id = id
        self.name = name
        self.username = username
        self.bio = bio
        self.picture = picture
        self.state = state
        self.since = since
        self.lastSeen = lastSeen
    }
}

public struct FriendList: Codable, Sendable, Equatable {
    public var friends: [Friend]
    public init(friends: [Friend]) { self.friends = friends }
}

/// `GET /v1/friends/{id}`: a friend's profile, the posts of theirs this person can see and
/// the places they share.
public struct FriendProfile: Codable, Sendable, Equatable {
    public var friend: Friend
    public var posts: [Post]
    public var places: [SharedFavorite]
    /// The trips they published that this person may see (`GET /v1/explore` summaries).
    public var trips: [JSONValue]?

    public init(friend: Friend, posts: [Post], places: [SharedFavorite]) {
        self.friend = friend
        self.posts = posts
        self.places = places
    }
}

/// A group of friends: its name and members are this person's alone.
public struct FriendGroup: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var members: [String]
    public init(id: String, name: String, members: [String]) {
        self.id = id
        self.name = name
        self.members = members
    }
}

public struct FriendGroupList: Codable, Sendable, Equatable {
    public var groups: [FriendGroup]
    public init(groups: [FriendGroup]) { self.groups = groups }
}

/// A photo as a post or a profile names it.
public struct Photo: Codable, Sendable, Equatable {
    /// BLAKE2b-256 of the stored bytes, 64 hex characters: the same on every device.
    public var id: String
    public var contentType: String
    public var bytes: Int64
    public var width: Int
    public var height: Int

    public init(id: String, contentType: String, bytes: Int64, width: Int, height: Int) {
        self.id = id
        self.contentType = contentType
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}

/// Where a post was written.
public struct PostPlace: Codable, Sendable, Equatable {
    public var name: String?
    public var latitude: Double?
    public var longitude: Double?
    public var address: String?
    public var gazetteerId: String?

    public init(name: String?, latitude: Double?, longitude: Double?, address: String?, gazetteerId: String?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.gazetteerId = gazetteerId
    }
}

public struct Post: Codable, Sendable, Equatable {
    public var id: String
    public var author: String
    public var authorName: String?
    public var text: String
    /// `only-me`, `friends` or `group` (for a group post the author's own view names the
    /// group id; readers see `group`).
    public var audience: String
    public var place: PostPlace?
    public var photos: [Photo]
    public var likes: Int
    public var liked: Bool
    public var comments: Int
    public var createdAt: String
    /// Whether this person wrote it.
    public var mine: Bool

    public init(
        id: String, author: String, authorName: String?, text: String, audience: String, place: PostPlace?,
        photos: [Photo], likes: Int, liked: Bool, comments: Int, createdAt: String, mine: Bool
    ) {
        self.id = id
        self.author = author
        self.authorName = authorName
        self.text = text
        self.audience = audience
        self.place = place
        self.photos = photos
        self.likes = likes
        self.liked = liked
        self.comments = comments
        self.createdAt = createdAt
        self.mine = mine
    }
}

public struct Feed: Codable, Sendable, Equatable {
    public var posts: [Post]
    /// The cursor of the next page (`before`); absent on the last page.
    public var next: String?
    public init(posts: [Post], next: String?) {
        self.posts = posts
        self.next = next
    }
}

public struct PostComment: Codable, Sendable, Equatable {
    public var id: String
    public var author: String
    public var authorName: String?
    public var text: String
    public var createdAt: String
    public init(id: String, author: String, authorName: String?, text: String, createdAt: String) {
        self.id = id
        self.author = author
        self.authorName = authorName
        self.text = text
        self.createdAt = createdAt
    }
}

public struct CommentList: Codable, Sendable, Equatable {
    public var comments: [PostComment]
    public init(comments: [PostComment]) { self.comments = comments }
}

public struct Notification: Codable, Sendable, Equatable {
    public var id: String
    /// `like`, `comment`, `friend-request`, `friend-accepted`, `invitation`, `viewed`, `joined`.
    public var type: String
    public var actor: String
    public var actorName: String?
    /// What it is about: a post id, an itinerary id, or the actor's id for friend events.
    public var subject: String
    public var read: Bool
    public var at: String
    public init(
        id: String, type: String, actor: String, actorName: String?, subject: String, read: Bool, at: String
    ) {
        self.id = id
        self.type = type
        self.actor = actor
        self.actorName = actorName
        self.subject = subject
        self.read = read
        self.at = at
    }
}

public struct NotificationList: Codable, Sendable, Equatable {
    public var unread: Int
    public var notifications: [Notification]
    public init(unread: Int, notifications: [Notification]) {
        self.unread = unread
        self.notifications = notifications
    }
}

/// `GET /v1/friends/{id}/map`: the places a friend shares with this person.
public struct FriendMap: Codable, Sendable, Equatable {
    public var places: [SharedFavorite]
    public init(places: [SharedFavorite]) { self.places = places }
}

/// A pin category and its emoji.
public struct PinCategory: Codable, Sendable, Equatable {
    public var name: String
    public var emoji: String
    public init(name: String, emoji: String) {
        self.name = name
        self.emoji = emoji
    }
}

public struct CategoryList: Codable, Sendable, Equatable {
    public var categories: [PinCategory]
    public init(categories: [PinCategory]) { self.categories = categories }
}

/// `POST /v1/friends/link`: a link whose redeemer (`POST /v1/friends {"link"}`) becomes a
/// friend without a prompt.
public struct FriendLinkResponse: Codable, Sendable, Equatable {
    public var link: String
    public var expiresAt: String
    public init(link: String, expiresAt: String) {
        self.link = link
        self.expiresAt = expiresAt
    }
}
