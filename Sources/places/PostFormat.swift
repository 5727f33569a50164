import Foundation
import PlacesAPI

/// Human renderings of posts, comments and notifications.
enum PostFormat {
    /// A post as the feed shows it:
    ///
    ///     3f2a9c01  Ana · 2025-06-01 14:03 · to your friends
    ///         Best pastel de nata in town
    ///         at Manteigaria · 1 photo · ♥ 2, you too · 1 comment
    ///
    /// `groupNames` names the groups of this person's own group posts (id → name).
    static func render(_ post: Post, groupNames: [String: String] = [:]) -> String {
        let author = post.mine ? "you" : post.authorName ?? String(post.author.prefix(7))
        var lines = [
            "\(Format.shortID(post.id))  \(author) · \(Format.time(post.createdAt)) · \(audience(post, groupNames))"
        ]
        lines += post.text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        var details: [String] = []
        if let place = post.place { details.append("at " + self.place(place)) }
        if !post.photos.isEmpty { details.append(count(post.photos.count, "photo")) }
        details.append("♥ \(post.likes)" + (post.liked ? (post.likes == 1 ? ", you" : ", you too") : ""))
        details.append(count(post.comments, "comment"))
        lines.append("    " + details.joined(separator: " · "))
        return lines.joined(separator: "\n")
    }

    /// Prints posts one block each, a blank line apart.
    static func print(_ posts: [Post], groupNames: [String: String] = [:]) {
        Swift.print(posts.map { render($0, groupNames: groupNames) }.joined(separator: "\n\n"))
    }

    /// "to your friends", "only you", "to close friends" (own group posts), "to a group".
    static func audience(_ post: Post, _ groupNames: [String: String]) -> String {
        switch post.audience {
        case "friends": return "to your friends"
        case "only-me": return "only you"
        case "group": return "to a group"
        default:
            return "to " + (groupNames[post.audience].map { "“\($0)”" } ?? "group \(Format.shortID(post.audience))")
        }
    }

    /// "Manteigaria (38.71060, -9.14360)", or the coordinates alone.
    static func place(_ place: PostPlace) -> String {
        let coordinates = place.latitude.flatMap { lat in place.longitude.map { Format.coordinates(lat, $0) } }
        switch (place.name, coordinates) {
        case (let name?, let at?): return "\(name) (\(at))"
        case (let name?, nil): return name
        case (nil, let at?): return at
        case (nil, nil): return "—"
        }
    }

    /// "1 photo", "3 photos".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The first line of a text, at most 60 characters.
    static func excerpt(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.count > 60 ? String(line.prefix(59)) + "…" : line
    }

    /// Comments oldest first: "a1b2c3d4  Bruno · 2025-06-01 14:05\n    Agreed!".
    static func print(_ comments: [PostComment]) {
        guard !comments.isEmpty else { return Swift.print("no comments yet") }
        Swift.print(
            comments.map { comment in
                let who = comment.authorName ?? String(comment.author.prefix(7))
                let body = comment.text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
                return (["\(Format.shortID(comment.id))  \(who) · \(Format.time(comment.createdAt))"] + body)
                    .joined(separator: "\n")
            }.joined(separator: "\n"))
    }

    /// What a notification says happened ("liked your post 3f2a9c01").
    static func describe(_ notification: PlacesAPI.Notification) -> String {
        let subject = Format.shortID(notification.subject)
        switch notification.type {
        case "like": return "liked your post \(subject)"
        case "comment": return "commented on your post \(subject)"
        case "friend-request": return "wants to be your friend (`places friends accept`)"
        case "friend-accepted": return "accepted your friend request"
        case "invitation": return "invited you to an itinerary (`places invitations`)"
        case "viewed": return "viewed your itinerary \(subject)"
        case "joined": return "joined your itinerary \(subject)"
        default: return "\(notification.type) \(subject)"
        }
    }
}
