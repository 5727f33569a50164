import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel

/// `places message …`: direct messages between friends (`docs/messages.md`).
struct MessageGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Write to a friend; list conversations and messages; mute, block, delete.",
        discussion: """
            `places message send Bruno "dinner at 8?"` writes to a friend: the message reaches \
            their daemon directly or through a relay, end-to-end encrypted. `places message list` \
            shows your conversations with their unread counts; `places message list Bruno` shows \
            the last messages with their marks (sent, delivered, read) and marks Bruno's read. \
            `--trip ITIN` (or `trip:ITIN` in place of the friend) is a trip's conversation, for \
            its members.
            """,
        subcommands: [Send.self, List.self, Read.self, Delete.self, Mute.self, Unmute.self, Block.self, Unblock.self],
        aliases: ["messages"])

    /// `places message send FRIEND TEXT [--photo FILE]`.
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a message to a friend (text up to 4,000 characters, and photos).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The friend: their name, username, id or the start of it.") var friend: String?
        @Argument(help: "What to say (may be left out with a photo).") var text: String?
        @Option(help: ArgumentHelp("A trip's conversation instead of a friend's.", valueName: "itinerary"))
        var trip: String?
        @Option(
            name: .customLong("photo"), help: ArgumentHelp("A photo to add (repeat for up to 10).", valueName: "file"))
        var photos: [String] = []
        @Flag(help: "Keep the photos' location (GPS EXIF) instead of removing it.") var keepLocation = false

        func validate() throws {
            if trip == nil, friend == nil { throw ValidationError("name the friend to write to (or --trip)") }
        }

        func run() throws {
            var body = JSONBody()
            var words = [friend, text].compactMap { $0 }
            if let trip {
                body["to"] = .string(Conversations.tripPrefix + trip)
            } else if let first = words.first, first.hasPrefix(Conversations.tripPrefix) {
                body["to"] = .string(words.removeFirst())
            } else {
                body["to"] = .string(try global.social.friend(words.removeFirst()))
            }
            guard words.count <= 1 else {
                throw CLIExit.fail("give the text as one argument (quote it)", CLIExit.usage)
            }
            if let said = words.first { body["text"] = .string(said) }
            if words.isEmpty, photos.isEmpty { throw CLIExit.fail("say something, or add a --photo", CLIExit.usage) }
            if !photos.isEmpty {
                let ids = try PhotoUpload.ids(photos, keepLocation: keepLocation, api: global.api)
                body["photos"] = .array(ids.map(JSONValue.string))
            }
            let reply = try global.api.post(Target.v1("messages"), body)
            if global.json { return printRaw(reply) }
            let sent = try reply.decode(JSONValue.self)
            print("sent \(String((sent["id"]?.stringValue ?? "").prefix(8))) at \(sent["sentAt"]?.stringValue ?? "")")
        }
    }

    /// `places message list [FRIEND]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List conversations with unread counts, or one conversation's last messages.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A friend: show your conversation with them (or trip:ITIN).") var friend: String?
        @Option(help: ArgumentHelp("A trip's conversation instead of a friend's.", valueName: "itinerary"))
        var trip: String?
        @Option(help: "How many of the last messages to show (1–200).") var limit = 50
        @Flag(help: "Show the messages without marking them read.") var peek = false

        func run() throws {
            if let id = Conversations.trip(trip, friend) {
                let reply = try global.api.get(
                    Target.v1(
                        "conversations", id, "messages",
                        query: [("limit", String(limit)), ("peek", peek ? "true" : nil)]))
                if global.json { return printRaw(reply) }
                let page = try reply.decode(JSONValue.self)
                let names = try Conversations.names(page["conversation"]?.stringValue ?? id, api: global.api)
                MessageFormat.printMessages(page, names: names)
                return
            }
            guard let friend else {
                let reply = try global.api.get(Target.v1("conversations"))
                if global.json { return printRaw(reply) }
                MessageFormat.printConversations(try reply.decode(JSONValue.self))
                return
            }
            let id = try global.social.friend(friend)
            let reply = try global.api.get(
                Target.v1(
                    "conversations", id, "messages", query: [("limit", String(limit)), ("peek", peek ? "true" : nil)]))
            if global.json { return printRaw(reply) }
            let name = try? global.api.get(Target.v1("friends", id)).decode(FriendProfile.self).friend.name
            MessageFormat.printMessages(try reply.decode(JSONValue.self), names: [id: name ?? friend])
        }
    }

    /// `places message read FRIEND`.
    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark every message of a friend (or a trip) read.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The friend (or trip:ITIN).") var friend: String?
        @Option(help: ArgumentHelp("A trip's conversation instead.", valueName: "itinerary")) var trip: String?

        func run() throws {
            let id = try Conversations.id(trip, friend, global)
            let reply = try global.api.post(Target.v1("conversations", id, "read"))
            if global.json { return printRaw(reply) }
            print("marked \(try reply.decode(JSONValue.self)["marked"]?.intValue ?? 0) read")
        }
    }

    /// `places message delete ID [--everyone]`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a message for you, or (yours) for everyone.",
            discussion: """
                ID is a message id as `places message list FRIEND --json` prints it, or the start \
                of it that `places message list FRIEND` shows, with --with FRIEND.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The message's id, or the start of it with --with.") var id: String
        @Option(help: "The friend whose conversation holds the message.") var with: String?
        @Flag(help: "Delete your message for everyone (they see “message deleted”).") var everyone = false

        func run() throws {
            var messageID = id
            if let with {
                let list = try global.api.get(
                    Target.v1(
                        "conversations", try global.social.friend(with), "messages",
                        query: [
                            ("limit", "200"), ("peek", "true"),
                        ])
                ).decode(JSONValue.self)
                let ids = (list["messages"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
                    .filter { $0.hasPrefix(id.lowercased()) }
                guard ids.count == 1, let one = ids.first else {
                    throw CLIExit.fail(
                        ids.isEmpty ? "no message starting “\(id)” in the last 200" : "“\(id)” names several messages",
                        CLIExit.usage)
                }
                messageID = one
            }
            let reply = try global.api.delete(
                Target.v1("messages", messageID, query: [("for", everyone ? "everyone" : nil)]))
            if global.json { return printRaw(reply) }
            print(everyone ? "deleted for everyone" : "deleted for you")
        }
    }

    /// `places message mute FRIEND`.
    struct Mute: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "No notifications for a conversation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The friend (or trip:ITIN).") var friend: String?
        @Option(help: ArgumentHelp("A trip's conversation instead.", valueName: "itinerary")) var trip: String?

        func run() throws {
            let id = try Conversations.id(trip, friend, global)
            let reply = try global.api.send("PUT", Target.v1("conversations", id, "mute"), body: nil)
            if global.json { return printRaw(reply) }
            print("muted")
        }
    }

    /// `places message unmute FRIEND`.
    struct Unmute: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Notifications again for a conversation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The friend (or trip:ITIN).") var friend: String?
        @Option(help: ArgumentHelp("A trip's conversation instead.", valueName: "itinerary")) var trip: String?

        func run() throws {
            let id = try Conversations.id(trip, friend, global)
            let reply = try global.api.delete(Target.v1("conversations", id, "mute"))
            if global.json { return printRaw(reply) }
            print("unmuted")
        }
    }

    /// `places message block PERSON` (and `--list`).
    struct Block: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Block a person: their messages and “out” notes stop reaching you (they are not told).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person: a friend's or contact's name, or a person id.") var person: String?
        @Flag(help: "List the people you blocked.") var list = false

        func run() throws {
            guard let person, !list else {
                let reply = try global.api.get(Target.v1("blocked"))
                if global.json { return printRaw(reply) }
                for entry in try reply.decode(JSONValue.self)["blocked"]?.arrayValue ?? [] {
                    let id = entry["id"]?.stringValue ?? ""
                    print(
                        "\(entry["name"]?.stringValue ?? Format.shortID(id))  \(id)  since \(entry["since"]?.stringValue ?? "")"
                    )
                }
                return
            }
            let reply = try global.api.send("PUT", Target.v1("blocked", try global.social.contact(person)), body: nil)
            if global.json { return printRaw(reply) }
            print("blocked")
        }
    }

    /// `places message unblock PERSON`.
    struct Unblock: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unblock a person.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The person: a name or a person id.") var person: String

        func run() throws {
            let reply = try global.api.delete(Target.v1("blocked", try global.social.contact(person)))
            if global.json { return printRaw(reply) }
            print("unblocked")
        }
    }
}

/// How `places message list` prints.
enum MessageFormat {
    static func printConversations(_ list: JSONValue) {
        let rows = list["conversations"]?.arrayValue ?? []
        if rows.isEmpty { return print("no conversations yet: `places message send FRIEND \"…\"`") }
        for row in rows {
            let with = row["with"]?.arrayValue?.first
            var name = with?["name"]?.stringValue ?? Format.shortID(with?["id"]?.stringValue ?? "")
            if let trip = row["trip"] {
                name = "trip “\(trip["name"]?.stringValue ?? "")” (\(row["id"]?.stringValue ?? ""))"
            }
            let unread = row["unread"]?.intValue ?? 0
            var line = name + (unread > 0 ? "  \(unread) unread" : "")
            if row["muted"]?.boolValue == true { line += "  (muted)" }
            if let last = row["lastMessage"], last != .null { line += "  — " + summary(last, name: name) }
            print(line)
        }
    }

    /// `names`: the name to show for each author's person id.
    static func printMessages(_ page: JSONValue, names: [String: String]) {
        let messages = page["messages"]?.arrayValue ?? []
        if messages.isEmpty { return print("no messages yet") }
        for message in messages {
            let id = String((message["id"]?.stringValue ?? "").prefix(8))
            let at = (message["sentAt"]?.stringValue ?? "").prefix(16).replacingOccurrences(of: "T", with: " ")
            let from = message["from"]?.stringValue ?? ""
            var line = "\(at)  \(summary(message, name: names[from] ?? Format.shortID(from)))"
            if message["mine"]?.boolValue == true {
                let mark =
                    message["readAt"]?.stringValue != nil
                    ? "read" : message["deliveredAt"]?.stringValue != nil ? "delivered" : "sent"
                // A trip's conversation has no per-member marks.
                let trip = (page["conversation"]?.stringValue ?? "").hasPrefix(Conversations.tripPrefix)
                if message["deleted"]?.boolValue != true, !trip { line += "  [\(mark)]" }
            }
            print("\(line)  \(id)")
        }
    }

    static func summary(_ message: JSONValue, name: String) -> String {
        let who = message["mine"]?.boolValue == true ? "you" : name
        if message["deleted"]?.boolValue == true { return "\(who): message deleted" }
        let photos = message["photos"]?.arrayValue?.count ?? 0
        let text = message["text"]?.stringValue ?? ""
        return "\(who): \(text)" + (photos > 0 ? " [\(photos) photo\(photos == 1 ? "" : "s")]" : "")
    }
}

extension JSONValue {
    /// A field of an object; nil for anything else.
    fileprivate subscript(key: String) -> JSONValue? { objectValue?[key] }

    fileprivate var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
}

/// Naming a conversation on the command line: a friend, or a trip (`--trip ITIN` or `trip:ITIN`).
enum Conversations {
    static let tripPrefix = "trip:"

    /// The trip conversation's id when `trip` is given or `argument` is `trip:…`.
    static func trip(_ trip: String?, _ argument: String?) -> String? {
        if let trip { return tripPrefix + trip }
        if let argument, argument.hasPrefix(tripPrefix) { return argument }
        return nil
    }

    /// The conversation's id: a trip's, or the friend's person id.
    static func id(_ trip: String?, _ argument: String?, _ global: GlobalOptions) throws -> String {
        if let id = self.trip(trip, argument) { return id }
        guard let argument else { throw CLIExit.fail("name the friend (or --trip ITIN)", CLIExit.usage) }
        return try global.social.friend(argument)
    }

    /// The names of a trip conversation's members by person id, from its conversation row.
    static func names(_ id: String, api: APIClient) throws -> [String: String] {
        let list = try api.get(Target.v1("conversations")).decode(JSONValue.self)
        var names = [String: String]()
        for row in list["conversations"]?.arrayValue ?? [] where row["id"]?.stringValue == id {
            for person in row["with"]?.arrayValue ?? [] {
                guard let key = person["id"]?.stringValue else { continue }
                names[key] = person["name"]?.stringValue ?? Format.shortID(key)
            }
        }
        return names
    }
}
