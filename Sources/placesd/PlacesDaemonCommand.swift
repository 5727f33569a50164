import ArgumentParser
import Foundation
import Logging
import PlacesDaemon

/// `placesd`: the Places daemon.
@main
struct PlacesDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "placesd",
        abstract: "The Places daemon: keeps your places and itineraries and serves the control API.",
        discussion: """
            Runs in the foreground until SIGTERM or SIGINT. The data dir holds the database, the \
            identity key and the control socket (placesd.sock); it is --data-dir, else $PLACES_HOME, \
            else $XDG_DATA_HOME/places, else ~/.local/share/places.
            """,
        version: Daemon.versionText)

    @Option(help: "The data directory.")
    var dataDir: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Where to accept peers, HOST:PORT (port 0 picks a free one; see `places status`).")
    var listen: String = "0.0.0.0:\(Daemon.SyncOptions.defaultPort)"

    @Flag(help: "Do not send or listen for LAN discovery beacons.")
    var noDiscovery = false

    @Option(name: .customLong("peer"), help: "A static peer, HOST:PORT (repeatable).")
    var peers: [String] = []

    @Flag(
        help: """
            Run as a blind relay (Protocol/relay.md): keeps and forwards its users' documents \
            without being able to read them; no identity and no content API \
            (`places relay invite|status`).
            """)
    var relay = false

    @Option(help: "With --relay: the quota of each new user, in bytes of ops kept (default 1 GiB; 1 to 2^53 - 1).")
    var relayQuotaBytes: Int64?

    @Option(
        help: """
            With --relay: the most bytes of ops and photo copies one document may hold there, whoever brought it \
            (default 512 MiB; 1 to 2^53 - 1).
            """)
    var relayDocumentQuotaBytes: Int64?

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "placesd")
        for (flag, quota) in [("quota", relayQuotaBytes), ("document-quota", relayDocumentQuotaBytes)] {
            guard let quota, !(1...(1 << 53 - 1)).contains(quota) else { continue }
            FileHandle.standardError.write(Data("placesd: --relay-\(flag)-bytes is 1 to 2^53 - 1\n".utf8))
            throw ExitCode(1)
        }
        do {
            try await Daemon(
                dataDir: dataDir, sync: .init(listen: listen, discovery: !noDiscovery, peers: peers), relay: relay,
                relayQuotaBytes: relayQuotaBytes, relayDocumentQuotaBytes: relayDocumentQuotaBytes, logger: logger
            ).run()
        } catch let error as DaemonError {
            FileHandle.standardError.write(Data("placesd: \(error.description)\n".utf8))
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("placesd: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
