import ArgumentParser
import Foundation
import PlacesAPI

/// Turns what a user types for a friend, a friend request, a post or a comment into the id
/// the social routes take.
///
/// The daemon takes whole ids only (a public id, a 32-hex post or comment id), so the CLI
/// resolves names and prefixes the way ``NameResolver`` does for places: a whole id goes
/// as it is; otherwise the matching list is fetched and compared (name and username ignoring
/// case and accents, or the start of the id); several matches are listed and `places` exits 2.
struct SocialNames {
    let global: GlobalOptions

    /// Most feed pages read while looking for a post by the start of its id.
    static let maxFeedPages = 10

    // MARK: People

    /// Whether `text` is a whole public id (`ABCDEFG-…`, 8 groups) or 64 hex digits.
    static func isPublicID(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.utf8.count == 64, trimmed.utf8.allSatisfy(\.isHex) { return true }
        return trimmed.split(separator: "-").count == 8 && trimmed.utf8.count == 63
    }

    /// The public id of the friend (or a request you sent) `text` names: their id, the start of
    /// it, their name or their username (`@bruno`).
    func friend(_ text: String) throws -> String {
        if Self.isPublicID(text) { return text }
        let friends = try global.api.get(Target.v1("friends")).decode(FriendList.self).friends
        let people = friends.map { Person(id: $0.id, name: $0.name, username: $0.username) }
        guard let id = try person(text, among: people, singular: "friend", plural: "friends") else {
            throw CLIExit.fail(
                "no friend called “\(text)” (give their id, its start, their name or username): see `places friends`",
                CLIExit.usage)
        }
        return id
    }

    /// The public id of the person `text` names for a friend request: a whole id, or a contact
    /// (someone you share an itinerary with, or added) by name, username or the start of their id.
    /// Anything else goes to the daemon as it is, which says what is wrong with it.
    func contact(_ text: String) throws -> String {
        if Self.isPublicID(text) { return text }
        let contacts = try global.api.get(Target.v1("contacts")).decode(ContactRows.self).contacts
        let people = contacts.map { Person(id: $0.id, name: $0.name, username: $0.username) }
        return try person(text, among: people, singular: "contact", plural: "contacts") ?? text
    }

    /// The pending friend request from the person `text` names (their id, its start, their name).
    func friendRequest(_ text: String) throws -> Invitation {
        let requests = try global.api.get(Target.v1("invitations")).decode(InvitationList.self).invitations
            .filter { $0.kind == "friend" }
        let people = requests.map { Person(id: $0.from, name: $0.fromName, username: nil) }
        let id = Self.isPublicID(text) ? text : try person(text, among: people, singular: "request", plural: "requests")
        guard let id, let request = requests.first(where: { $0.from == id || $0.id == id }) else {
            throw CLIExit.fail(
                "no friend request from “\(text)”: `places friends` lists the requests waiting for you",
                CLIExit.refused)
        }
        return request
    }

    /// Someone a text can name.
    struct Person {
        var id: String
        var name: String?
        var username: String?
    }

    /// Matches `text` against `people`: name and username first (``NameResolver/match``), then
    /// the start of the id (4 characters or more, dashes and case ignored).
    private func person(_ text: String, among people: [Person], singular: String, plural: String) throws -> String? {
        let typed = text.hasPrefix("@") ? String(text.dropFirst()) : text
        let entries =
            people.map { NameResolver.Entry(ids: [$0.id], name: $0.name ?? $0.username ?? $0.id) }
            + people.compactMap { person in person.username.map { NameResolver.Entry(ids: [person.id], name: $0) } }
        var match = NameResolver.match(typed, in: entries)
        if case .ambiguous(let tier) = match, Set(tier.map { $0.ids[0] }).count == 1 {
            // The same person by name and by username is one person.
            match = .found(tier[0])
        }
        if case .none = match {
            let key = Self.idKey(typed)
            let byID = key.count >= 4 ? people.filter { Self.idKey($0.id).hasPrefix(key) } : []
            if byID.count == 1 { match = .found(NameResolver.Entry(ids: [byID[0].id], name: byID[0].name ?? "")) }
            if byID.count > 1 {
                match = .ambiguous(byID.map { NameResolver.Entry(ids: [$0.id], name: $0.name ?? $0.username ?? "") })
            }
        }
        let kind = NameResolver.Kind(
            singular: singular, plural: plural, listTarget: "", entries: { _ in [] }, listCommand: "places friends")
        return try global.names.decide(match, typed: text, kind)
    }

    /// An id without its dashes, upper case: what a prefix is compared with.
    private static func idKey(_ id: String) -> String { id.uppercased().filter { $0 != "-" } }

    // MARK: Posts and comments

    /// Whether `text` is a whole comment id (32 hex digits).
    static func isWholeID(_ text: String) -> Bool { text.utf8.count == 32 && text.utf8.allSatisfy(\.isHex) }

    /// Whether `text` is a whole post id: 96 hex digits, the post's own id then its author's key
    /// (two friends' posts may share the first 32).
    static func isWholePostID(_ text: String) -> Bool { text.utf8.count == 96 && text.utf8.allSatisfy(\.isHex) }

    /// The id of the post `text` names: a whole id, or the start of one (4+ hex digits) among
    /// the posts of your feed.
    func post(_ text: String) throws -> String {
        if Self.isWholePostID(text) { return text.lowercased() }
        let prefix = text.lowercased()
        guard prefix.utf8.count >= 4, prefix.utf8.allSatisfy(\.isHex) else {
            throw CLIExit.fail(
                "“\(text)” is not a post id: give the id `places feed` prints (8 hex digits will do)", CLIExit.usage)
        }
        var found: [Post] = []
        var before: String?
        for _ in 0..<Self.maxFeedPages {
            let feed = try global.api.get(Target.v1("feed", query: [("limit", "100"), ("before", before)]))
                .decode(Feed.self)
            found += feed.posts.filter { $0.id.hasPrefix(prefix) }
            guard let next = feed.next else { break }
            before = next
        }
        switch found.count {
        case 1: return found[0].id
        case 0:
            throw CLIExit.fail("no post starting with \(prefix) in your feed: see `places feed`", CLIExit.usage)
        default:
            printError("error: “\(text)” could be \(found.count) posts; give more of the id:")
            for post in found {
                printError("\(post.id)  \(post.authorName ?? post.author)  \(PostFormat.excerpt(post.text))")
            }
            throw CLIExit.usage
        }
    }

    /// The id of the comment `text` names on the post `postID`: a whole id or the start of one.
    func comment(_ text: String, on postID: String) throws -> String {
        if Self.isWholeID(text) { return text.lowercased() }
        let prefix = text.lowercased()
        let comments = try global.api.get(Target.v1("posts", postID, "comments")).decode(CommentList.self).comments
        let found = prefix.isEmpty ? [] : comments.filter { $0.id.hasPrefix(prefix) }
        switch found.count {
        case 1: return found[0].id
        case 0:
            throw CLIExit.fail(
                "no comment starting with “\(text)” on this post: see `places post comments \(Format.shortID(postID))`",
                CLIExit.usage)
        default:
            printError("error: “\(text)” could be \(found.count) comments; give more of the id:")
            for comment in found { printError("\(comment.id)  \(PostFormat.excerpt(comment.text))") }
            throw CLIExit.usage
        }
    }
}

extension GlobalOptions {
    /// Resolves friends, posts and comments for the daemon these options point at.
    var social: SocialNames { SocialNames(global: self) }
}

extension UInt8 {
    /// 0-9, a-f, A-F.
    fileprivate var isHex: Bool {
        (48...57).contains(self) || (97...102).contains(self) || (65...70).contains(self)
    }
}
