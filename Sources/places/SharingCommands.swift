import ArgumentParser
import PlacesAPI

extension ItineraryGroup {
    /// `places itinerary share`.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Share an itinerary with a friend by their id (owner only).",
            discussion: """
                The friend's daemon receives the itinerary the next time it meets any member's \
                daemon (same network, or a static peer). Their id is what `places whoami` prints \
                on their device; a mistyped id is refused. Editors can change the itinerary; \
                viewers can only read it.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Option(name: .customLong("with"), help: "The friend's public id.")
        var member: String

        @Option(help: "editor or viewer.")
        var role: String = "viewer"

        func validate() throws {
            guard ["editor", "viewer"].contains(role) else { throw ValidationError("--role must be editor or viewer") }
        }

        func run() throws {
            let reply = try global.api.post(
                Target.v1("itineraries", try global.names.itinerary(itinerary), "share"),
                ShareRequest(member: member, role: role))
            if global.json { return printRaw(reply) }
            printMembers(try reply.decode(MemberList.self))
        }
    }
}

func printMembers(_ list: MemberList) {
    var table = Table("ROLE", "NAME", "ID", "JOINED BY")
    for member in list.members {
        let via = member.role == "owner" ? "" : member.link.map { "link \($0.prefix(8))" } ?? "id"
        table.append(member.role, member.name ?? "", member.id, via)
    }
    table.print()
    guard !list.links.isEmpty else { return }
    print("")
    var links = Table("LINK", "ROLE", "STATE", "EXPIRES", "USES", "MEMBERS")
    for link in list.links {
        links.append(
            link.id, link.role, link.state, link.expiresAt.map(Format.time) ?? "never",
            link.uses.map(String.init) ?? "unlimited", String(link.members))
    }
    links.print()
}

/// `places peers …`: other daemons this one syncs with.
struct PeersGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "Daemons this one syncs with: who, where, and how far in sync.",
        discussion: "Without a subcommand, lists peers. Peers on the same LAN are found by themselves.",
        subcommands: [List.self, Add.self],
        defaultSubcommand: List.self)

    /// `places peers list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List known peers.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("peers"))
            if global.json { return printRaw(reply) }
            printPeers(try reply.decode(PeerList.self))
        }
    }

    /// `places peers add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a static peer address, for networks where discovery cannot work.",
            discussion: "The daemon dials it now and again whenever the connection drops; the address is kept.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "HOST:PORT of the other daemon (see `places status` there).")
        var address: String

        func run() throws {
            let reply = try global.api.post(Target.v1("peers"), AddPeerRequest(address: address))
            if global.json { return printRaw(reply) }
            printPeers(try reply.decode(PeerList.self))
        }
    }
}

func printPeers(_ list: PeerList) {
    guard !list.peers.isEmpty else {
        print("no peers yet")
        if !list.staticPeers.isEmpty { print("static peers: \(list.staticPeers.joined(separator: ", "))") }
        return
    }
    var table = Table("NAME", "ID", "ADDRESS", "STATE", "ITINERARIES")
    for peer in list.peers {
        var state = peer.connected ? "connected" : "last seen \(peer.lastSeen.map(Format.time) ?? "never")"
        if peer.relay == true {
            state += " (relay)"
        } else if peer.via == "relay" {
            state += ", reached through a relay"
        }
        let docs = peer.documents.map { doc in
            switch doc.state {
            case "in-sync": "\(doc.name): in sync"
            case "syncing": "\(doc.name): they lack \(doc.theyLack ?? 0), we lack \(doc.weLack ?? 0)"
            default: "\(doc.name): not compared yet"
            }
        }.joined(separator: "; ")
        table.append(peer.name, Format.shortID(peer.id), peer.addresses.first ?? "", state, docs)
    }
    table.print()
    if !list.staticPeers.isEmpty { print("static peers: \(list.staticPeers.joined(separator: ", "))") }
}
