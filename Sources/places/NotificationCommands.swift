import ArgumentParser
import PlacesAPI

/// `places notifications`: what happened to you — likes and comments on your posts, friend
/// requests and acceptances, invitations, views of and joins to your shared itineraries.
struct NotificationsGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Likes and comments on your posts, friend requests, invitations; mark them read.",
        discussion: """
            Without a subcommand, lists the unread ones (newest first) and how many there are; \
            --all lists read ones too. Notifications stay on this device; they also appear in \
            `places events` as they happen.
            """,
        subcommands: [List.self, Read.self],
        defaultSubcommand: List.self,
        aliases: ["notification"])

    /// `places notifications [list] [--all] [--read]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List notifications, with the unread count.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "List read notifications too (the newest 100).") var all = false
        @Flag(help: "Mark the listed notifications read.") var read = false

        func run() throws {
            let reply = try global.api.get(Target.v1("notifications"))
            let list = try reply.decode(NotificationList.self)
            let shown = all ? list.notifications : list.notifications.filter { !$0.read }
            if global.json {
                printRaw(reply)
            } else {
                print(list.unread == 0 ? "no unread notifications" : "\(list.unread) unread")
                if !shown.isEmpty {
                    var table = Table("", "ID", "WHEN", "FROM", "WHAT", alignments: [.left, .right])
                    for notification in shown {
                        table.append(
                            notification.read ? "" : "•", notification.id, Format.time(notification.at),
                            notification.actorName ?? String(notification.actor.prefix(7)),
                            PostFormat.describe(notification))
                    }
                    table.print()
                } else if !all && !list.notifications.isEmpty {
                    print("(`places notifications --all` lists the read ones)")
                }
            }
            let unread = shown.filter { !$0.read }.map(\.id)
            if read && !unread.isEmpty {
                _ = try global.api.post(Target.v1("notifications", "read"), ["ids": unread])
                if !global.json { print("marked \(unread.count) read") }
            }
        }
    }

    /// `places notifications read [ID…]`.
    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark notifications read (all of them without IDs).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The notifications' ids, as the list prints them.") var ids: [String] = []

        func validate() throws {
            if let bad = ids.first(where: { Int64($0) == nil }) {
                throw ValidationError("“\(bad)” is not a notification id (a number from `places notifications`)")
            }
        }

        func run() throws {
            let target = Target.v1("notifications", "read")
            let reply = ids.isEmpty ? try global.api.post(target) : try global.api.post(target, ["ids": ids])
            if global.json { return printRaw(reply) }
            let list = try reply.decode(NotificationList.self)
            print(list.unread == 0 ? "no unread notifications" : "\(list.unread) unread")
        }
    }
}
