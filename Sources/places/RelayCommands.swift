import ArgumentParser
import Foundation
import PlacesAPI
import PlacesQR

/// `places relay …`: blind relays (issue 30, `Protocol/relay.md`). `invite` and `status` run
/// against a relay (`placesd --relay`); `add`, `list` and `remove` against a person's daemon.
struct RelayGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Blind relays: keep and forward your trips where you are not, without reading them.",
        discussion: """
            On a relay (placesd --relay): `places relay invite` prints a single-use link for \
            one person (the first one ever becomes the relay's owner); `places relay status` \
            shows its users, documents, bytes and quota. On your daemon: `places relay add \
            LINK` starts using a relay, `places relay list` shows yours, `places relay remove \
            ID` stops using one.
            """,
        subcommands: [Invite.self, Status.self, Add.self, List.self, Remove.self],
        aliases: ["relays"])

    /// `places relay invite` (on a relay).
    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a single-use relay link for one person (on a relay; valid 7 days).")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print the link only, no QR code.") var noQR = false

        func run() throws {
            let reply = try global.api.post(Target.v1("relay", "invitations"))
            if global.json { return printRaw(reply) }
            let invitation = try reply.decode(RelayInvitation.self)
            print(invitation.link)
            printError("single use, until \(invitation.expiresAt): the person runs `places relay add LINK`")
            if !noQR {
                do { print(try QRCode(encoding: invitation.link, correction: .low).terminalString()) } catch {
                    throw CLIExit.fail("the link is too long for a QR code: \(error)", CLIExit.refused)
                }
            }
        }
    }

    /// `places relay status` (on a relay).
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What this relay keeps (on a relay).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("relay"))
            if global.json { return printRaw(reply) }
            let s = try reply.decode(RelaySummary.self)
            print("users:     \(s.users)")
            print("documents: \(s.documents)")
            print("bytes:     \(s.bytes)")
            print("quota:     \(s.quotaBytes) bytes")
        }
    }

    /// `places relay add LINK`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start using a relay: redeem the link its owner gave you.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The relay link (places://relay/…).") var link: String
        @Option(help: "Seconds to wait for the relay's answer (1–120).") var wait = 15

        func run() throws {
            let reply = try global.api.post(Target.v1("relays"), RelayAddRequest(link: link, waitSeconds: wait))
            if global.json { return printRaw(reply) }
            let relay = try reply.decode(RelayInfo.self)
            print("added relay \(relay.id.prefix(7)) at \(relay.address) (\(relay.role ?? "user"), \(relay.state))")
        }
    }

    /// `places relay list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The relays you use.", aliases: ["ls"])
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("relays"))
            if global.json { return printRaw(reply) }
            let relays = try reply.decode(RelayList.self).relays
            guard !relays.isEmpty else { return print("no relays: `places relay add LINK` adds one") }
            print("ID       ADDRESS                 STATE      ROLE   DOCS  BYTES       QUOTA       LAST SYNC")
            for r in relays {
                let columns = [
                    String(r.id.prefix(7)).padding(toLength: 8, withPad: " ", startingAt: 0),
                    r.address.padding(toLength: 23, withPad: " ", startingAt: 0),
                    r.state.padding(toLength: 10, withPad: " ", startingAt: 0),
                    (r.role ?? "").padding(toLength: 6, withPad: " ", startingAt: 0),
                    "\(r.documents)".padding(toLength: 5, withPad: " ", startingAt: 0),
                    "\(r.bytes)".padding(toLength: 11, withPad: " ", startingAt: 0),
                    "\(r.quotaBytes)".padding(toLength: 11, withPad: " ", startingAt: 0), r.lastSync ?? "never",
                ]
                print(columns.joined(separator: " "))
            }
        }
    }

    /// `places relay remove ID`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop using a relay.", aliases: ["rm"])
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The relay's id or a unique start of it (`places relay list`).") var id: String

        func run() throws {
            let reply = try global.api.delete(Target.v1("relays", id))
            if global.json { return printRaw(reply) }
            print("removed relay \(id)")
        }
    }
}
