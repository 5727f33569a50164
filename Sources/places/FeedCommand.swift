import ArgumentParser
import PlacesAPI

/// `places feed`: your posts and your friends' posts to you, newest first.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Your posts and those of friends you are in the audience of, newest first.",
        discussion: """
            Each post shows its id (for `places post like|comment|show`), author, time, audience, \
            text, place, photos, likes (♥, and whether you liked it) and comments. A page ends \
            with the command for the next one. New posts also appear in `places events`.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Posts per page, 1 to 100 (default 20).", valueName: "n")) var limit: Int?

    @Option(help: ArgumentHelp("Start after this cursor (from the previous page).", valueName: "cursor"))
    var before: String?

    func validate() throws {
        if let limit, !(1...100).contains(limit) { throw ValidationError("--limit must be 1 to 100, not \(limit)") }
    }

    func run() throws {
        let reply = try global.api.get(
            Target.v1("feed", query: [("limit", limit.map(String.init)), ("before", before)]))
        if global.json { return printRaw(reply) }
        let feed = try reply.decode(Feed.self)
        guard !feed.posts.isEmpty else {
            return print(
                before == nil
                    ? "no posts yet: `places post \"…\"` writes one; your friends' posts to you show here"
                    : "no older posts")
        }
        PostFormat.print(feed.posts, groupNames: try Self.groupNames(feed.posts, global))
        if let next = feed.next {
            print("")
            print("older posts: places feed --before \(next)\(limit.map { " --limit \($0)" } ?? "")")
        }
    }

    /// The names of this person's groups, when some of `posts` went to one (else no request).
    static func groupNames(_ posts: [Post], _ global: GlobalOptions) throws -> [String: String] {
        guard posts.contains(where: { $0.mine && !["friends", "only-me", "group"].contains($0.audience) }) else {
            return [:]
        }
        let groups = try global.api.get(Target.v1("groups")).decode(FriendGroupList.self).groups
        return Dictionary(groups.map { ($0.id, $0.name) }) { a, _ in a }
    }
}
