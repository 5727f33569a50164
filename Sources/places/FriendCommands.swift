import ArgumentParser
import Foundation
import PlacesAPI
import PlacesQR

/// `places friends …`: people whose posts you see and who see yours.
struct FriendsGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friends",
        abstract: "Your friends: add, accept, list, show and remove them.",
        discussion: """
            `places friends add ID` sends a friend request; it reaches them as an invitation of \
            kind friend, which they accept (`places friends accept NAME`) or decline. Once \
            accepted you are friends on both sides (and contacts): each sees the other's posts \
            to friends. `places friends remove` ends it on both sides from then on.

            Anywhere a friend is taken: their public id, its start, their name or @username.
            """,
        subcommands: [List.self, Show.self, Map.self, Add.self, Link.self, Accept.self, Decline.self, Remove.self],
        defaultSubcommand: List.self,
        aliases: ["friend"])

    /// `places friends [list]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List friends, the requests you sent, and the requests waiting for you.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("friends"))
            if global.json { return printRaw(reply) }
            let friends = try reply.decode(FriendList.self).friends
            let waiting = try global.api.get(Target.v1("invitations")).decode(InvitationList.self).invitations
                .filter { $0.kind == "friend" }
            guard !friends.isEmpty || !waiting.isEmpty else {
                return print("no friends yet: `places friends add ID` sends a request (`places whoami` shows an id)")
            }
            var table = Table("NAME", "USERNAME", "STATE", "LAST SEEN", "ID")
            for friend in friends {
                table.append(
                    friend.name ?? "—", friend.username.map { "@" + $0 } ?? "",
                    friend.state == "requested" ? "request sent" : friend.state,
                    friend.lastSeen.map(Format.time) ?? "never", friend.id)
            }
            for request in waiting {
                table.append(request.fromName ?? "—", "", "asks you", "", request.from)
            }
            table.print()
            if let first = waiting.first {
                print("")
                print("accept with `places friends accept \(first.fromName ?? first.from)` (or decline)")
            }
        }
    }

    /// `places friends show ID`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a friend's profile, their posts you can see, the places they share and their trips.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id, its start, their name or @username.") var id: String

        func run() throws {
            let reply = try global.api.get(Target.v1("friends", try global.social.friend(id)))
            if global.json { return printRaw(reply) }
            let profile = try reply.decode(FriendProfile.self)
            let friend = profile.friend
            var fields = Fields()
            fields["name"] = friend.name ?? "—"
            fields["username"] = friend.username.map { "@" + $0 }
            fields["bio"] = friend.bio
            fields["id"] = friend.id
            fields["state"] = friend.state == "requested" ? "request sent, not answered yet" : friend.state
            fields["since"] = Format.time(friend.since)
            fields["last seen"] = friend.lastSeen.map(Format.time) ?? "never"
            fields["picture"] = friend.picture
            fields.print()
            if !profile.posts.isEmpty {
                print("")
                PostFormat.print(profile.posts)
            }
            if !profile.places.isEmpty {
                print("")
                FriendsGroup.printPlaces(profile.places)
            }
            // Their published trips you can see (issue 17); an older daemon sends none.
            let trips = (try? JSONDecoder().decode(ExploreList.self, from: Data(reply.response.body)))?.trips ?? []
            guard !trips.isEmpty else { return }
            print("")
            print("Trips:")
            print(ExploreFormat.table(trips))
        }
    }

    /// `places friends map ID`.
    struct Map: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the places a friend shares with you (also as GeoJSON).",
            discussion: "Copy one into your library with `places place add DISCOVER-ID`.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id, its start, their name or @username.") var id: String
        @Option(help: "Only places of this category (to eat, to drink, …).") var category: String?
        @Flag(help: "Print GeoJSON (a FeatureCollection) instead of a table.") var geojson = false
        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file.", valueName: "file"))
        var output: String?

        /// `{"places": [...]}`.
        struct Places: Decodable { var places: [SharedFavorite] }

        func run() throws {
            let target = Target.v1(
                "friends", try global.social.friend(id), "map",
                query: [("category", category), ("format", geojson ? "geojson" : nil)])
            let reply = try global.api.get(target)
            if geojson || global.json || output != nil { return try emit(reply.response.body, output: output) }
            let places = try reply.decode(Places.self).places
            guard !places.isEmpty else {
                return print(
                    category == nil ? "they share no places with you" : "no shared places of category \(category ?? "")"
                )
            }
            FriendsGroup.printPlaces(places)
        }
    }

    /// The places a friend shares: name, location, categories, discover id.
    static func printPlaces(_ places: [SharedFavorite]) {
        var table = Table("PLACE", "LOCATION", "CATEGORIES", "DISCOVER ID")
        for place in places {
            table.append(
                place.name, Format.coordinates(place.latitude, place.longitude),
                place.categories.joined(separator: ","), place.id)
        }
        table.print()
    }

    /// `places friends add ID`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a friend request (or accept theirs, if they asked first).",
            discussion: """
                ID is their public id (`places whoami` on their device), or the name of a contact \
                (someone you share an itinerary with). Their daemon receives the request the next \
                time it meets yours.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id, a contact's name or @username, or a friend link (places://friend/…).")
        var id: String

        func run() throws {
            let body =
                id.lowercased().hasPrefix("places://friend/")
                ? ["link": id] : ["id": try global.social.contact(id)]
            let reply = try global.api.post(Target.v1("friends"), body)
            if global.json { return printRaw(reply) }
            let friend = try reply.decode(Friend.self)
            let who = friend.name ?? friend.id
            switch friend.state {
            case "friend": print("you and \(who) are friends")
            default: print("friend request sent to \(who); it waits for their answer")
            }
        }
    }

    /// `places friends link`: a friend link and its terminal QR code.
    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a friend link (and a QR code) for adding someone in person.",
            discussion: """
                Whoever redeems it with `places friends add LINK` becomes your friend without                 you having to accept. It works for --hours (24 by default), for anyone who has it.
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "How many hours the link works (1–720).") var hours: Int = 24
        @Flag(help: "Print the link only, no QR code.") var noQR = false

        func run() throws {
            let reply = try global.api.post(Target.v1("friends", "link"), ["validHours": hours])
            if global.json { return printRaw(reply) }
            let link = try reply.decode(FriendLinkResponse.self)
            print(link.link)
            printError("friend link, expires \(Format.time(link.expiresAt))")
            if !noQR {
                do { print(try QRCode(encoding: link.link, correction: .low).terminalString()) } catch {
                    throw CLIExit.fail("the link is too long for a QR code: \(error)", CLIExit.refused)
                }
            }
        }
    }

    /// `places friends accept ID`.
    struct Accept: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept a friend request: you become friends (and contacts).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Who asked: their public id, its start or their name.") var id: String

        func run() throws { try FriendsGroup.answer(id, "accept", global: global) }
    }

    /// `POST /v1/invitations/{id}/accept|decline` for the friend request from `person`.
    static func answer(_ person: String, _ verb: String, global: GlobalOptions) throws {
        let request = try global.social.friendRequest(person)
        let reply = try global.api.post(Target.v1("invitations", request.id, verb))
        if global.json { return printRaw(reply) }
        let who = request.fromName ?? request.from
        print(verb == "accept" ? "you and \(who) are friends" : "declined \(who)'s friend request")
    }

    /// `places friends decline ID`.
    struct Decline: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline a friend request; it is not asked again.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Who asked: their public id, its start or their name.") var id: String

        func run() throws { try FriendsGroup.answer(id, "decline", global: global) }
    }

    /// `places friends remove ID`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End a friendship (or withdraw a request), on both sides from now on.",
            discussion: "Posts they already received stay with them; no new ones go.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id, its start, their name or @username.") var id: String

        func run() throws {
            let friend = try global.social.friend(id)
            let reply = try global.api.delete(Target.v1("friends", friend))
            if global.json { return printRaw(reply) }
            print("\(id) is no longer your friend")
        }
    }
}
