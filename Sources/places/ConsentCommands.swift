import ArgumentParser
import PlacesAPI

/// `places invitations`: itineraries shared by people who are not contacts yet.
struct InvitationsGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitations",
        abstract: "Itineraries people you have not accepted before want to share with you.",
        discussion: """
            Someone who is not a contact yet cannot add an itinerary to your daemon: their share waits \
            here until you accept it (they become a contact, and their later shares arrive directly) or \
            decline it (it is not asked again).
            """,
        subcommands: [List.self, Accept.self, Decline.self],
        defaultSubcommand: List.self,
        aliases: ["invitation"])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List pending invitations.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("invitations"))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(InvitationList.self)
            guard !list.invitations.isEmpty else { return print("no invitations") }
            var table = Table("ID", "FROM", "ITINERARY", "ROLE", "RECEIVED")
            for invitation in list.invitations {
                table.append(
                    Format.shortID(invitation.id), invitation.fromName ?? Format.shortID(invitation.from),
                    invitation.kind == "friend" ? "(friend request)" : invitation.name ?? "—",
                    invitation.role ?? "—", Format.time(invitation.receivedAt))
            }
            table.print()
        }
    }

    struct Accept: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept an invitation: the itinerary syncs, and its owner becomes a contact.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The invitation's id (a unique prefix will do).") var id: String

        func run() throws { try answer(id, "accept", global: global) }
    }

    struct Decline: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline an invitation; it is not asked again.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The invitation's id (a unique prefix will do).") var id: String

        func run() throws { try answer(id, "decline", global: global) }
    }

    /// `POST /v1/invitations/{id}/accept|decline`, and a line saying what was done.
    static func answer(_ id: String, _ verb: String, global: GlobalOptions) throws {
        let reply = try global.api.post(Target.v1("invitations", id, verb))
        if global.json { return printRaw(reply) }
        let invitation = try reply.decode(Invitation.self)
        let what = invitation.kind == "friend" ? "friend request" : "“\(invitation.name ?? "itinerary")”"
        print("\(invitation.status) \(what) from \(invitation.fromName ?? invitation.from)")
    }
}

/// `places contacts`: people whose shares arrive directly.
struct ContactsGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "People whose shares arrive directly, without an invitation.",
        discussion: "Accepting an invitation adds its sender; `add` trusts someone ahead (e.g. on a headless box).",
        subcommands: [List.self, Show.self, Add.self, Remove.self],
        defaultSubcommand: List.self,
        aliases: ["contact"])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List contacts.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("contacts"))
            if global.json { return printRaw(reply) }
            printContacts(try reply.decode(ContactRows.self))
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept shares from this person from now on.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id (`places whoami` on their device).") var id: String
        @Option(help: "A name to show for them.") var name: String?

        func run() throws {
            let reply = try global.api.post(Target.v1("contacts"), AddContactRequest(id: id, name: name))
            if global.json { return printRaw(reply) }
            printContacts(try reply.decode(ContactRows.self))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop accepting shares directly from this person (they arrive as invitations again).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id.") var id: String

        func run() throws {
            let reply = try global.api.delete(Target.v1("contacts", id))
            if global.json { return printRaw(reply) }
            printContacts(try reply.decode(ContactRows.self))
        }
    }
}
