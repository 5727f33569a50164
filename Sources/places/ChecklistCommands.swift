import ArgumentParser
import PlacesAPI
import PlacesModel

/// `places checklist …`: an itinerary's shared packing and to-do list.
struct ChecklistGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checklist",
        abstract: "The shared packing and to-do list of an itinerary.",
        discussion: """
            Every member sees the same checklist; anyone who can edit the itinerary can add, \
            check and assign entries. `places checklist ITIN` lists it. --list groups entries \
            ("Packing", "To do").
            """,
        subcommands: [
            List.self, Add.self, Check.self, Uncheck.self, Assign.self, Move.self, Remove.self,
        ],
        defaultSubcommand: List.self)
}

extension ChecklistGroup {
    /// `places checklist list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the checklist.", aliases: ["ls"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        func run() throws {
            let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(itinerary), "checklist"))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(ChecklistList.self)
            guard !list.items.isEmpty else {
                return print("the checklist is empty: `places checklist add \(itinerary) TEXT`")
            }
            print(TripFormat.checklist(list))
        }
    }

    /// `places checklist add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an entry to the checklist.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "What to pack or do.")
        var text: String

        @Option(help: ArgumentHelp("The list it belongs to, e.g. \"Packing\".", valueName: "name"))
        var list: String?

        @Option(help: ArgumentHelp("The member who takes care of it (their public id).", valueName: "member"))
        var assign: String?

        func run() throws {
            let request = ChecklistCreate(text: text, list: list, assignee: assign)
            let reply = try global.api.post(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "checklist"), request)
            if global.json { return printRaw(reply) }
            let item = try reply.decode(ChecklistItem.self)
            print("added \(Format.shortID(item.id)) “\(item.text)”")
        }
    }

    /// The arguments naming one checklist entry.
    struct EntryReference: ParsableArguments {
        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The checklist entry id (or a unique prefix of 4+ hex digits).")
        var item: String

        /// The entry's target; the itinerary may be given by name.
        func target(_ global: GlobalOptions) throws -> String {
            Target.v1("itineraries", try global.names.itinerary(itinerary), "checklist", item)
        }
    }

    /// Sends a PATCH and prints the entry as it now is.
    static func patch(_ global: GlobalOptions, _ entry: EntryReference, _ body: JSONBody, verb: String) throws {
        let reply = try global.api.patch(try entry.target(global), body)
        if global.json { return printRaw(reply) }
        let item = try reply.decode(ChecklistItem.self)
        print("\(verb) \(Format.shortID(item.id)) “\(item.text)”")
    }

    /// `places checklist check`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Tick an entry off.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var entry: EntryReference

        func run() throws {
            var body = JSONBody()
            body["checked"] = .bool(true)
            try ChecklistGroup.patch(global, entry, body, verb: "checked")
        }
    }

    /// `places checklist uncheck`.
    struct Uncheck: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Untick an entry.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var entry: EntryReference

        func run() throws {
            var body = JSONBody()
            body["checked"] = .bool(false)
            try ChecklistGroup.patch(global, entry, body, verb: "unchecked")
        }
    }

    /// `places checklist assign`.
    struct Assign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Assign an entry to a member, or to nobody with --none.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var entry: EntryReference

        @Argument(help: "The member's public id (see `places members ITIN`).")
        var member: String?

        @Flag(help: "Assign it to nobody.")
        var none = false

        func validate() throws {
            if none == (member != nil) { throw ValidationError("give a MEMBER or --none") }
        }

        func run() throws {
            var body = JSONBody()
            body["assignee"] = member.map(JSONValue.string) ?? .null
            try ChecklistGroup.patch(global, entry, body, verb: member == nil ? "unassigned" : "assigned")
        }
    }

    /// `places checklist move`.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move an entry to another position.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var entry: EntryReference

        @Option(help: "The new 1-based position.")
        var to: Int

        func validate() throws {
            if to < 1 { throw ValidationError("--to starts at 1") }
        }

        func run() throws {
            let reply = try global.api.post(try entry.target(global) + "/move", MoveRequest(position: to))
            if global.json { return printRaw(reply) }
            print(TripFormat.checklist(try reply.decode(ChecklistList.self)))
        }
    }

    /// `places checklist remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an entry.", aliases: ["rm"])

        @OptionGroup var global: GlobalOptions
        @OptionGroup var entry: EntryReference

        func run() throws {
            let reply = try global.api.delete(try entry.target(global))
            if global.json { return printRaw(reply) }
            print("removed \(entry.item)")
        }
    }
}
