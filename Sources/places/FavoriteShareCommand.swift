import ArgumentParser
import Foundation

/// `GET|PUT /v1/favorites/sharing`.
struct FavoriteSharing: Codable, Sendable {
    /// all, selected or off.
    var sharing: String
    /// The shared library places when `sharing` is selected.
    var placeIds: [String]?
}

extension FavoriteGroup {
    /// `places favorite share [on|off] [--only FAVORITE…]`.
    struct Share: ParsableCommand {
        /// What to turn sharing to.
        enum State: String, ExpressibleByArgument, CaseIterable { case on, off }

        static let configuration = CommandConfiguration(
            abstract: "Share your favorites with your contacts (on, off), or show what you share.",
            discussion: """
                `on` shares all your favorites, kept current as you change them; `on --only FAV…` \
                only those (a favorite's place name, or an id). `off` stops sharing from now on \
                (what contacts already received stays with them). Contacts are the people you \
                accepted and those you share an itinerary with; they see your shared favorites \
                in `places contacts show` and count them in discover's popularity. Without on|off, \
                shows the current setting.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "on or off (omit to show the current setting).")
        var state: State?

        @Option(
            name: .customLong("only"), parsing: .upToNextOption,
            help: ArgumentHelp("Share only these favorites (name or id; repeatable).", valueName: "favorite"))
        var only: [String] = []

        func validate() throws {
            if !only.isEmpty && state != .on { throw ValidationError("--only goes with `on`: share only these") }
        }

        func run() throws {
            let api = global.api
            guard let state else {
                let reply = try api.get(Target.v1("favorites", "sharing"))
                if global.json { return printRaw(reply) }
                return try printStatus(try reply.decode(FavoriteSharing.self))
            }
            var request = FavoriteSharing(sharing: state == .off ? "off" : "all", placeIds: [])
            if !only.isEmpty {
                let names = global.names
                request = FavoriteSharing(
                    sharing: "selected", placeIds: try only.map { try names.resolve($0, .favoritePlace) })
            }
            let reply = try api.send("PUT", Target.v1("favorites", "sharing"), body: request)
            if global.json { return printRaw(reply) }
            try printStatus(try reply.decode(FavoriteSharing.self))
        }

        /// "sharing all your favorites with your contacts" and the like.
        private func printStatus(_ sharing: FavoriteSharing) throws {
            switch sharing.sharing {
            case "all":
                print("sharing all your favorites with your contacts (stop with `places favorite share off`)")
            case "selected":
                let ids = sharing.placeIds ?? []
                let favorites = try global.api.get(Target.v1("favorites")).decode(SharedNames.self).favorites
                let names = ids.map { id in favorites.first { $0.placeId == id }?.name ?? Format.shortID(id) }
                print(
                    "sharing \(ids.count) favorite\(ids.count == 1 ? "" : "s") with your contacts: "
                        + names.joined(separator: ", "))
            default:
                print("not sharing your favorites (share them with `places favorite share on`)")
            }
        }

        /// The favorites' place ids and names, to name the shared ones.
        private struct SharedNames: Decodable {
            struct Row: Decodable {
                var placeId: String
                var name: String
            }
            var favorites: [Row]
        }
    }
}
