import ArgumentParser
import PlacesAPI

/// `places groups …`: named groups of friends to post to ("close friends").
struct GroupsGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "Groups of your friends to post to: list, create, rename, add, remove, delete.",
        discussion: """
            A group's name and members are yours alone: they never leave this device, and its \
            members learn neither (a post to a group reads "to a group" for them). Post to one \
            with `places post TEXT --to GROUP`. GROUP is a group's id, the start of it, or its \
            exact name; members are friends (their id, its start, their name or @username).
            """,
        subcommands: [List.self, Create.self, Rename.self, Add.self, Remove.self, Delete.self],
        defaultSubcommand: List.self,
        aliases: ["group"])

    /// `places groups [list]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your groups and who is in each.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("groups"))
            if global.json { return printRaw(reply) }
            let groups = try reply.decode(FriendGroupList.self).groups
            guard !groups.isEmpty else {
                return print("no groups yet: `places groups create NAME --member FRIEND` makes one")
            }
            let names = try friendNames(global)
            var table = Table("NAME", "MEMBERS", "WHO", "ID", alignments: [.left, .right])
            for group in groups {
                table.append(
                    group.name, String(group.members.count), who(group, names), Format.shortID(group.id))
            }
            table.print()
        }
    }

    /// `places groups create NAME [--member ID]…`.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group of friends.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group's name (1 to 100 characters).") var name: String
        @Option(name: .customLong("member"), help: "A friend to put in it (repeat for several).")
        var members: [String] = []

        func run() throws {
            let ids = try members.map { try global.social.friend($0) }
            let reply = try global.api.post(Target.v1("groups"), GroupRequest(name: name, members: ids))
            try show(reply, "created", global)
        }
    }

    /// `places groups rename GROUP NEW`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a group.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group: its id, the start of it, or its exact name.") var group: String
        @Argument(help: "Its new name.") var name: String

        func run() throws {
            let reply = try global.api.patch(Target.v1("groups", group), GroupRequest(name: name))
            try show(reply, "renamed", global)
        }
    }

    /// `places groups add GROUP ID…`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add friends to a group.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group: its id, the start of it, or its exact name.") var group: String
        @Argument(help: "The friends to add.") var friends: [String]

        func run() throws {
            let ids = try friends.map { try global.social.friend($0) }
            let reply = try global.api.patch(Target.v1("groups", group), GroupRequest(add: ids))
            try show(reply, "updated", global)
        }
    }

    /// `places groups remove GROUP ID…`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove people from a group (posts already made to it keep their audience).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group: its id, the start of it, or its exact name.") var group: String
        @Argument(help: "The people to remove.") var friends: [String]

        func run() throws {
            let ids = try friends.map { try global.social.friend($0) }
            let reply = try global.api.patch(Target.v1("groups", group), GroupRequest(remove: ids))
            try show(reply, "updated", global)
        }
    }

    /// `places groups delete GROUP`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a group (posts already made to it keep their audience).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group: its id, the start of it, or its exact name.") var group: String

        func run() throws {
            let reply = try global.api.delete(Target.v1("groups", group))
            if global.json { return printRaw(reply) }
            print("deleted group “\(group)”")
        }
    }

    /// The body of `POST /v1/groups` and `PATCH /v1/groups/{id}` (absent fields are left out).
    struct GroupRequest: Encodable {
        var name: String?
        var members: [String]?
        var add: [String]?
        var remove: [String]?
    }

    /// Prints "created group “close friends” (3f2a9c01): Bruno, Carla".
    static func show(_ reply: APIClient.Reply, _ verb: String, _ global: GlobalOptions) throws {
        if global.json { return printRaw(reply) }
        let group = try reply.decode(FriendGroup.self)
        let members = group.members.isEmpty ? "no members yet" : who(group, try friendNames(global))
        print("\(verb) group “\(group.name)” (\(Format.shortID(group.id))): \(members)")
    }

    /// Friends' names by public id, for showing members.
    static func friendNames(_ global: GlobalOptions) throws -> [String: String] {
        let friends = try global.api.get(Target.v1("friends")).decode(FriendList.self).friends
        return Dictionary(friends.map { ($0.id, $0.name ?? $0.username ?? String($0.id.prefix(7))) }) { a, _ in a }
    }

    /// "Bruno, Carla" (a member who is no longer a friend by the start of their id).
    static func who(_ group: FriendGroup, _ names: [String: String]) -> String {
        group.members.map { names[$0] ?? String($0.prefix(7)) }.joined(separator: ", ")
    }
}
