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
            unique prefix of 4 or more hex digits works. --json prints the API's JSON.

            Exit codes:
              0  success
              1  the daemon refused the request (its reason is printed)
              2  usage error (bad option or argument)
              3  no daemon is running on the socket (start `placesd`)
              4  the daemon is logged out or not initialised (`places login` / `places init`)
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, Login.self, Logout.self, Whoami.self, Status.self,
            PlaceGroup.self, FavoriteGroup.self, ItineraryGroup.self,
            Activity.self, Events.self, Route.self,
        ]
    )

    /// Runs the command; ArgumentParser's usage errors (its exit code 64) exit with 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            // Our own failures: the message is already on stderr.
            Glibc.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Glibc.exit(CLIExit.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}
