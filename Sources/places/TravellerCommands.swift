import ArgumentParser

/// `places traveller …`: who shares a trip's expenses. Every member is one; named
/// travellers (a child, a friend without the app) are added by name.
struct TravellerGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "traveller",
        abstract: "List, add, rename and remove the travellers who share a trip's expenses.",
        discussion: """
            Every member of the itinerary is a traveller under their own name. Add travellers \
            without a device by name. A traveller who appears in expenses cannot be removed \
            (delete or edit those expenses first); renaming keeps their expenses. Without a \
            subcommand, lists them: `places traveller ITIN`.
            """,
        subcommands: [List.self, Add.self, Rename.self, Remove.self],
        defaultSubcommand: List.self,
        aliases: ["travellers", "traveler", "travelers"])
}

extension TravellerGroup {
    /// `places traveller list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the travellers.", aliases: ["ls"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let reply = try session.request("GET", session.target("travellers"))
            if global.json { return printRaw(reply) }
            let travellers = try reply.decode(ExpenseAPI.TravellerList.self).travellers
            guard !travellers.isEmpty else {
                return print("no travellers yet: `places traveller add \(itinerary) NAME`")
            }
            var table = Table("NAME", "KIND", "EXPENSES", "ID", alignments: [.left, .left, .right])
            for traveller in travellers {
                var kind = traveller.member == true ? "member" : "named"
                if traveller.left == true { kind += " (left)" }
                if traveller.removed == true { kind += " (removed)" }
                table.append(
                    traveller.name, kind, traveller.expenseCount.map(String.init) ?? "", Format.shortID(traveller.id))
            }
            table.print()
            print("\(travellers.count) traveller\(travellers.count == 1 ? "" : "s")")
        }
    }

    /// `places traveller add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a traveller without a device, by name.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "Their name, e.g. Leo.")
        var name: String

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            var body = JSONBody()
            body["name"] = .string(name)
            let reply = try session.request("POST", session.target("travellers"), body)
            if global.json { return printRaw(reply) }
            let traveller = try reply.decode(ExpenseAPI.Traveller.self)
            print("added traveller \(traveller.name) (\(Format.shortID(traveller.id)))")
        }
    }

    /// `places traveller rename`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a named traveller (a member's name is their own).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The traveller: their name (a unique start of it) or id.")
        var traveller: String

        @Argument(help: "The new name.")
        var name: String

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let found = try session.traveller(traveller)
            var body = JSONBody()
            body["name"] = .string(name)
            let reply = try session.request("PATCH", session.target("travellers", found.id), body)
            if global.json { return printRaw(reply) }
            let renamed = try reply.decode(ExpenseAPI.Traveller.self)
            print("renamed \(found.name) to \(renamed.name)")
        }
    }

    /// `places traveller remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a named traveller who appears in no expense.", aliases: ["rm"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The traveller: their name (a unique start of it) or id.")
        var traveller: String

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let found = try session.traveller(traveller)
            let reply = try session.request("DELETE", session.target("travellers", found.id))
            if global.json { return printRaw(reply) }
            print("removed traveller \(found.name)")
        }
    }
}
