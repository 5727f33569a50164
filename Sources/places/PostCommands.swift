import ArgumentParser
import PlacesAPI
import PlacesModel

/// `places post …`: write a post, and show, delete, like and comment on posts.
struct PostGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Post an update (text, a place, photos) to your friends, a group or only you; like and comment.",
        discussion: """
            `places post "Best pastel de nata in town" --place PLACE --photo FILE --to friends` \
            writes a post (the `new` subcommand is implied). Its audience is fixed when posting: \
            only the people in it receive the post, its photos, likes and comments.

            A post is named by its id, or the start of it that `places feed` prints.
            """,
        subcommands: [
            New.self, Show.self, Delete.self, Like.self, Unlike.self, Comments.self, CommentGroup.self,
        ],
        defaultSubcommand: New.self,
        aliases: ["posts"])

    /// `places post [new] TEXT …`.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a post.",
            discussion: """
                Text up to 2,000 characters, up to 10 photos, and optionally where: a place of your \
                library (id or name), a discover result (city:2267057), or --lat and --lon. Each \
                --photo is added first (its location removed unless --keep-location).

                --to is friends (the default), only-me, or one of your groups (`places groups`).
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "What to say (may be left out when there are photos).") var text: String?

        @Option(help: ArgumentHelp("A library place (id or name) or a discover result id.", valueName: "place"))
        var place: String?

        @Option(parsing: .unconditional, help: "Latitude of where you are, in decimal degrees (with --lon).")
        var lat: Double?
        @Option(parsing: .unconditional, help: "Longitude of where you are, in decimal degrees (with --lat).")
        var lon: Double?

        @Option(
            name: .customLong("photo"), help: ArgumentHelp("A photo to add (repeat for up to 10).", valueName: "file"))
        var photos: [String] = []

        @Option(help: ArgumentHelp("Who sees it: friends, only-me or a group's name or id.", valueName: "audience"))
        var to: String = "friends"

        @Flag(help: "Keep the photos' location (GPS EXIF) instead of removing it.") var keepLocation = false

        func validate() throws {
            if (lat == nil) != (lon == nil) { throw ValidationError("--lat and --lon go together") }
            if place != nil && lat != nil { throw ValidationError("give --place or --lat/--lon, not both") }
            try validateCoordinates(latitude: lat, longitude: lon)
            if text == nil && photos.isEmpty { throw ValidationError("say something, or add a --photo") }
        }

        func run() throws {
            var body = JSONBody()
            if let text { body["text"] = .string(text) }
            body["audience"] = .string(to)
            if let place {
                body["placeId"] = .string(
                    DiscoverResult.isGazetteerID(place) ? place : try global.names.place(place))
            }
            if let lat, let lon {
                body["latitude"] = .double(lat)
                body["longitude"] = .double(lon)
            }
            if !photos.isEmpty {
                let ids = try PhotoUpload.ids(photos, keepLocation: keepLocation, api: global.api)
                body["photos"] = .array(ids.map(JSONValue.string))
            }
            let reply = try global.api.post(Target.v1("posts"), body)
            if global.json { return printRaw(reply) }
            let post = try reply.decode(Post.self)
            PostFormat.print([post], groupNames: [post.audience: to])
        }
    }

    /// `places post show ID`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a post, its photos and its comments.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The post's id or the start of it.") var id: String

        func run() throws {
            let postID = try global.social.post(id)
            let reply = try global.api.get(Target.v1("posts", postID))
            if global.json { return printRaw(reply) }
            let post = try reply.decode(Post.self)
            PostFormat.print([post], groupNames: try FeedCommand.groupNames([post], global))
            for photo in post.photos {
                print("    photo \(photo.id)  \(photo.contentType) \(photo.width) × \(photo.height)")
            }
            guard post.comments > 0 else { return }
            print("")
            PostFormat.print(
                try global.api.get(Target.v1("posts", postID, "comments")).decode(CommentList.self).comments)
        }
    }

    /// `places post delete ID`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete your post, for everyone it went to.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The post's id or the start of it.") var id: String

        func run() throws {
            let postID = try global.social.post(id)
            let reply = try global.api.delete(Target.v1("posts", postID))
            if global.json { return printRaw(reply) }
            print("deleted post \(Format.shortID(postID))")
        }
    }

    /// `places post like ID`.
    struct Like: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Like a post.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The post's id or the start of it.") var id: String

        func run() throws { try PostGroup.like(id, "PUT", global) }
    }

    /// `places post unlike ID`.
    struct Unlike: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take back your like.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The post's id or the start of it.") var id: String

        func run() throws { try PostGroup.like(id, "DELETE", global) }
    }

    /// `PUT|DELETE /v1/posts/{id}/like`, then the post as it stands.
    static func like(_ id: String, _ method: String, _ global: GlobalOptions) throws {
        let reply = try global.api.send(method, Target.v1("posts", try global.social.post(id), "like"), body: nil)
        if global.json { return printRaw(reply) }
        PostFormat.print([try reply.decode(Post.self)])
    }

    /// `places post comments ID`.
    struct Comments: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a post's comments, oldest first.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The post's id or the start of it.") var id: String

        func run() throws {
            let reply = try global.api.get(Target.v1("posts", try global.social.post(id), "comments"))
            if global.json { return printRaw(reply) }
            PostFormat.print(try reply.decode(CommentList.self).comments)
        }
    }

    /// `places post comment …`.
    struct CommentGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "comment",
            abstract: "Comment on a post (`places post comment POST TEXT`), or delete a comment.",
            subcommands: [Add.self, Delete.self],
            defaultSubcommand: Add.self)

        /// `places post comment [add] POST TEXT`.
        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Comment on a post (up to 2,000 characters); everyone in its audience sees it.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The post's id or the start of it.") var post: String
            @Argument(help: "The comment.") var text: String

            func run() throws {
                let reply = try global.api.post(
                    Target.v1("posts", try global.social.post(post), "comments"), ["text": text])
                if global.json { return printRaw(reply) }
                PostFormat.print([try reply.decode(PostComment.self)])
            }
        }

        /// `places post comment delete POST COMMENT`.
        struct Delete: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Delete a comment: your own, or any on your post.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The post's id or the start of it.") var post: String
            @Argument(help: "The comment's id or the start of it (`places post comments POST`).") var comment: String

            func run() throws {
                let postID = try global.social.post(post)
                let commentID = try global.social.comment(comment, on: postID)
                let reply = try global.api.delete(Target.v1("posts", postID, "comments", commentID))
                if global.json { return printRaw(reply) }
                print("deleted comment \(Format.shortID(commentID))")
            }
        }
    }
}
