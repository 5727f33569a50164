import ArgumentParser
import PlacesAPI

/// `places favorite …`: hearted places, in the user's own order.
struct FavoriteGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite",
        abstract: "Heart places and keep them in your own order.",
        discussion: "Without a subcommand, lists favorites. `places favorites` is the same as `places favorite list`.",
        subcommands: [Add.self, List.self, Move.self, Remove.self, Share.self],
        defaultSubcommand: List.self,
        aliases: ["favorites", "fav"])
}

/// Prints the favorites table and count.
func printFavorites(_ list: FavoriteList) {
    guard !list.favorites.isEmpty else {
        return print("no favorites yet: heart a place with `places favorite add PLACE`")
    }
    var table = Table("#", "ID", "PLACE", "NAME", "LOCATION", "ADDED", alignments: [.right])
    for favorite in list.favorites {
        table.append(
            String(favorite.position), Format.shortID(favorite.id), Format.shortID(favorite.placeId), favorite.name,
            Format.coordinates(favorite.latitude, favorite.longitude), Format.time(favorite.addedAt))
    }
    table.print()
    print("\(list.count) favorite\(list.count == 1 ? "" : "s")")
}

extension FavoriteGroup {
    /// `places favorite add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Heart a place (at the end, or at --position).")

        @OptionGroup var global: GlobalOptions

        @Argument(
            help: "A library place (id, name or unique start) or a discover result (id or name), added to your library."
        )
        var place: String

        @Option(help: "1-based position in your favorites (default: last).")
        var position: Int?

        func validate() throws {
            if let position, position < 1 { throw ValidationError("--position starts at 1") }
        }

        func run() throws {
            let placeID = try ResultResolver(global: global).libraryPlace(place).id
            let reply = try global.api.post(
                Target.v1("favorites"), AddFavoriteRequest(placeId: placeID, position: position))
            if global.json { return printRaw(reply) }
            let favorite = try reply.decode(Favorite.self)
            print("♥ \(favorite.name) is favorite #\(favorite.position) (\(Format.shortID(favorite.id)))")
        }
    }

    /// `places favorite list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your favorites in order, with their count.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("favorites"))
            if global.json { return printRaw(reply) }
            printFavorites(try reply.decode(FavoriteList.self))
        }
    }

    /// `places favorite move`.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a favorite to another position.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The favorite: its place's name, the favorite's or the place's id, or a unique start of one.")
        var favorite: String

        @Option(help: "The new 1-based position.")
        var to: Int

        func validate() throws {
            if to < 1 { throw ValidationError("--to starts at 1") }
        }

        func run() throws {
            let reply = try global.api.post(
                Target.v1("favorites", try global.names.favorite(favorite), "move"), MoveRequest(position: to))
            if global.json { return printRaw(reply) }
            printFavorites(try reply.decode(FavoriteList.self))
        }
    }

    /// `places favorite remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Un-heart a place (the place stays in your library).", aliases: ["rm"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The favorite: its place's name, the favorite's or the place's id, or a unique start of one.")
        var favorite: String

        func run() throws {
            let reply = try global.api.delete(Target.v1("favorites", try global.names.favorite(favorite)))
            if global.json { return printRaw(reply) }
            print("removed favorite \(favorite)")
        }
    }
}
