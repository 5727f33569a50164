import ArgumentParser
import Foundation
import PlacesAPI
import PlacesQR

/// `places share`: a share link for an itinerary (or, with `--with`, a member by id).
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Make a share link for an itinerary (viewer or editor).",
        discussion: """
            Prints a link `places://join/<itinerary>#<token>` to send to a friend, who runs \
            `places join LINK`. Anyone holding the link can read the itinerary, so send it \
            only to the people it is for (or use --for). The owner makes editor and viewer \
            links; editors make viewer links. `places members` lists links; `places unshare \
            --link ID` revokes one. With --with ID, adds that person directly instead.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The itinerary: its id, its name or a unique start of either.")
    var itinerary: String

    @Option(help: "viewer or editor.")
    var role: String = "viewer"

    @Option(help: "When the link stops working: 30m, 12h, 7d, 2w, a date (YYYY-MM-DD) or an RFC 3339 time.")
    var expires: String?

    @Option(help: "How many people may join with it.")
    var uses: Int?

    @Option(name: .customLong("for"), help: "Only this person's id may join with it.")
    var audience: String?

    @Option(
        name: .customLong("with"), help: "Add this person (their id from `places whoami`) instead of making a link.")
    var member: String?

    @Flag(help: "Also draw the link as a QR code in the terminal.")
    var qr = false

    func validate() throws {
        guard ["editor", "viewer"].contains(role) else { throw ValidationError("--role must be editor or viewer") }
        if member != nil && (expires != nil || uses != nil || audience != nil || qr) {
            throw ValidationError("--with adds a member directly: --expires, --uses, --for and --qr are for links")
        }
    }

    func run() throws {
        if let member {
            let reply = try global.api.post(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "share"),
                ShareRequest(member: member, role: role))
            if global.json { return printRaw(reply) }
            return printMembers(try reply.decode(MemberList.self))
        }
        let reply = try global.api.post(
            Target.v1("itineraries", try global.names.itinerary(itinerary), "links"),
            LinkRequest(role: role, expires: expires, uses: uses, audience: audience))
        if global.json { return printRaw(reply) }
        let link = try reply.decode(ShareLinkInfo.self)
        guard let url = link.url else { throw CLIExit.fail("the daemon returned no link", CLIExit.refused) }
        print(url)
        var limits = ["\(link.role) link \(link.id)"]
        limits.append(link.expiresAt.map { "expires \(Format.time($0))" } ?? "never expires")
        limits.append(link.uses.map { "\($0) use\($0 == 1 ? "" : "s")" } ?? "unlimited uses")
        if let audience = link.audience { limits.append("only for \(Format.shortID(audience))") }
        printError(limits.joined(separator: ", "))
        if qr {
            do {
                print(try QRCode(encoding: url, correction: .low).terminalString())
            } catch {
                throw CLIExit.fail("the link is too long for a QR code: \(error)", CLIExit.refused)
            }
        }
    }
}

/// `places join`: redeem a share link.
struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join an itinerary from a share link.",
        discussion: """
            The daemon looks for a device holding the itinerary (the addresses in the link, \
            peers on this network, static peers), presents the link, and fetches the \
            itinerary. A device of a member must be on and reachable.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The link, places://join/…#… (quote it in the shell).")
    var link: String

    @Option(help: "Seconds to look for a member's device (1-120).")
    var wait: Int = 15

    func run() throws {
        let reply = try global.api.post(Target.v1("join"), JoinRequest(link: link, waitSeconds: wait))
        if global.json { return printRaw(reply) }
        let itinerary = try reply.decode(Itinerary.self)
        print("joined “\(itinerary.name)” as \(itinerary.role)")
        printItinerary(itinerary)
    }
}

/// `places members`.
struct MembersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List an itinerary's members, how each joined, and its share links.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The itinerary: its id, its name or a unique start of either.")
    var itinerary: String

    func run() throws {
        let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(itinerary), "members"))
        if global.json { return printRaw(reply) }
        printMembers(try reply.decode(MemberList.self))
    }
}

/// `places unshare`.
struct UnshareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unshare",
        abstract: "Remove a member or revoke a share link (owner only).",
        discussion: """
            Revoking a link also removes everyone who joined through it. Either way the \
            itinerary's key is rotated: the removed device stops receiving updates and cannot \
            read anything written afterwards.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The itinerary: its id, its name or a unique start of either.")
    var itinerary: String

    @Option(help: "The member's id.")
    var member: String?

    @Option(help: "The link id (see `places members`).")
    var link: String?

    func validate() throws {
        guard (member == nil) != (link == nil) else { throw ValidationError("give exactly one of --member and --link") }
    }

    func run() throws {
        let target =
            if let member {
                Target.v1("itineraries", try global.names.itinerary(itinerary), "members", member)
            } else {
                Target.v1("itineraries", try global.names.itinerary(itinerary), "links", link!)
            }
        let reply = try global.api.delete(target)
        if global.json { return printRaw(reply) }
        printMembers(try reply.decode(MemberList.self))
    }
}
