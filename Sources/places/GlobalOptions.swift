import ArgumentParser
import Foundation

/// Options every `places` command takes: where the daemon's data dir and socket are, and
/// whether to print the API's JSON instead of human output.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The daemon's data directory (default: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).",
            valueName: "dir"))
    var dataDir: String?

    @Option(help: ArgumentHelp("The control socket (default: <data-dir>/placesd.sock).", valueName: "path"))
    var socket: String?

    @Flag(help: "Print the API's JSON body verbatim instead of human output.")
    var json = false

    /// The data directory, resolved the same way `placesd` resolves it.
    var resolvedDataDir: String {
        let env = ProcessInfo.processInfo.environment
        if let dataDir, !dataDir.isEmpty { return dataDir }
        if let home = env["PLACES_HOME"], !home.isEmpty { return home }
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/places" }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/places"
    }

    /// The control socket path.
    var socketPath: String {
        if let socket, !socket.isEmpty { return socket }
        return resolvedDataDir + "/placesd.sock"
    }

    /// A client for the daemon these options point at.
    var api: APIClient { APIClient(socketPath: socketPath) }
}
