import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// `places`: the command-line client of the `placesd` control API.
@main
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Plan trips, keep favorite places and share itineraries, through your local placesd.",
        discussion: """
            places talks only to a running placesd, over the control socket in its data dir \
            (<data-dir>/placesd.sock). Start the daemon first (`placesd`), then create your \
            identity with `places init`.

            Ids are printed short (the first 8 hex digits); anywhere an id is taken, any \
            unique prefix of 4 or more hex digits works. A place, favorite or itinerary can \
            also be given by name, ignoring case and accents ("belem tower", "lisbon w"); \
            when several match they are listed and places exits 2. --json prints the API's JSON.

            Exit codes:
              0  success
              1  the daemon refused the request (its reason is printed)
              2  usage error (bad option or argument)
              3  no daemon is running on the socket (start `placesd`)
              4  the daemon is logged out or not initialised (`places login` / `places init`)
            """,
        version: "0.1.0\nPlace names: GeoNames (geonames.org), CC BY 4.0",
        subcommands: [
            Init.self, Login.self, Logout.self, Whoami.self, Status.self,
            DiscoverCommand.self, PlaceGroup.self, FavoriteGroup.self, ItineraryGroup.self, ItemGroup.self,
            ChecklistGroup.self,
            ExpenseGroup.self, TravellerGroup.self,
            Activity.self, Events.self, Route.self, PeersGroup.self, InvitationsGroup.self, ContactsGroup.self,
            ShareCommand.self, JoinCommand.self, MembersCommand.self, UnshareCommand.self,
            FriendsGroup.self, GroupsGroup.self, PostGroup.self, FeedCommand.self, NotificationsGroup.self,
            ProfileGroup.self, PhotoGroup.self, ExploreGroup.self, SavedCommand.self, DeviceGroup.self, RelayGroup.self,
            Plan.self, Nearby.self, Out.self, MessageGroup.self,
            DestinationGroup.self, HereCommand.self, DashboardCommand.self, VisitedCommand.self, ConfigGroup.self,
            GuiCommand.self,
        ]
    )

    /// Runs the command; ArgumentParser's usage errors (its exit code 64) exit with 2.
    static func main() {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
        } catch {
            exit(usageMappedError: error, from: self)
        }
        do {
            try command.run()
        } catch {
            // Errors from run() (a refused request, a ValidationError such as a missing
            // passphrase) are reported against the subcommand that ran.
            exit(usageMappedError: error, from: type(of: command))
        }
    }

    /// Lets the global options stand anywhere (`places --json status` as well as
    /// `places status --json`): ArgumentParser only accepts a subcommand's options after its
    /// name, so options written before the subcommand are moved to the end.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        let valued: Set<String> = ["--data-dir", "--socket"]
        let flags: Set<String> = ["--json"]
        var hoisted = [String]()
        var rest = [String]()
        var i = 0
        var seenSubcommand = false
        while i < arguments.count {
            let arg = arguments[i]
            if arg == "--" {
                rest += arguments[i...]
                break
            }
            if !seenSubcommand {
                let name = String(arg.split(separator: "=", maxSplits: 1)[0])
                if valued.contains(name) {
                    if arg.contains("=") {
                        hoisted.append(arg)
                    } else if i + 1 < arguments.count {
                        hoisted += [arg, arguments[i + 1]]
                        i += 1
                    } else {
                        rest.append(arg)
                    }
                    i += 1
                    continue
                }
                if flags.contains(arg) {
                    hoisted.append(arg)
                    i += 1
                    continue
                }
                if !arg.hasPrefix("-") { seenSubcommand = true }
            }
            rest.append(arg)
            i += 1
        }
        guard !hoisted.isEmpty else { return arguments }
        if let dashes = rest.firstIndex(of: "--") {
            rest.insert(contentsOf: hoisted, at: dashes)
            return rest
        }
        return rest + hoisted
    }

    private static func exit(usageMappedError error: any Error, from command: any ParsableCommand.Type) -> Never {
        if let code = error as? ExitCode {
            // Our own failures: the message is already on stderr.
            Glibc.exit(code.rawValue)
        }
        if command.exitCode(for: error) == .validationFailure {
            if command == Self.self {
                printError(command.fullMessage(for: error))
            } else {
                // A subcommand's own usage line would lack the `places …` prefix.
                let path = commandPath(to: command).joined(separator: " ")
                printError("Error: \(command.message(for: error))\n  See '\(path) --help' for more information.")
            }
            Glibc.exit(CLIExit.usage.rawValue)
        }
        command.exit(withError: error)
    }

    /// Command names from the root to `target` ("places", "place", "add").
    private static func commandPath(
        to target: any ParsableCommand.Type, from node: any ParsableCommand.Type = PlacesCommand.self
    ) -> [String] {
        let name = node.configuration.commandName ?? String(describing: node).lowercased()
        if node == target { return [name] }
        for child in node.configuration.subcommands {
            let rest = commandPath(to: target, from: child)
            if !rest.isEmpty { return [name] + rest }
        }
        return []
    }
}
