import ArgumentParser
import Dispatch
import Foundation
import PlacesControlClient
import PlacesWeb

#if canImport(Glibc)
    import Glibc
#endif

/// `places gui`: serves the browser app on a loopback address until stopped, and opens it.
struct GuiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gui",
        abstract: "Open Places in your browser: serve the app on this machine until stopped.",
        discussion: """
            Prints the app's address, with a secret token, on the first line of standard \
            output, opens it in the default browser (when a display is set; --no-browser \
            only prints it), and serves until interrupted (Ctrl-C). The address works again \
            for as long as this runs; each run makes a new token. Only a browser that opened \
            it gets in: keep it to yourself.

            The app talks to the daemon through this server: start `placesd` first. It \
            listens on loopback only (127.0.0.0/8 or [::1]); --listen 127.0.0.1:0 takes a \
            free port. A street map needs a tile server: --tiles or $PLACES_TILES, e.g. \
            https://tile.example.org/{z}/{x}/{y}.png. $PLACES_WEB_ROOT serves the app's files \
            from a folder instead of the built-in copy (for developing the app). See \
            docs/web-app.md.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .customLong("no-browser"), help: "Only print the address; do not open a browser.")
    var noBrowser = false

    @Option(
        help: ArgumentHelp(
            "The loopback address and port to serve on (default 127.0.0.1:\(ListenAddress.defaultPort); port 0: a free one).",
            valueName: "host:port"))
    var listen: String?

    @Option(
        help: ArgumentHelp(
            "A tile server's URL template for the street map, with {z}, {x} and {y} (default: $PLACES_TILES).",
            valueName: "url-template"))
    var tiles: String?

    func validate() throws {
        do {
            _ = try listenAddress()
            _ = try tileTemplate()
        } catch {
            throw ValidationError(error.message)
        }
    }

    func listenAddress() throws(WebError) -> ListenAddress {
        guard let listen else { return .default }
        return try ListenAddress(parsing: listen)
    }

    func tileTemplate() throws(WebError) -> TileTemplate? {
        let text = tiles ?? ProcessInfo.processInfo.environment[TileTemplate.environmentVariable]
        guard let text, !text.isEmpty else { return nil }
        return try TileTemplate(parsing: text)
    }

    func run() throws {
        let root: WebRoot
        let configuration: WebServer.Configuration
        do {
            root = try WebRoot.locate()
            configuration = WebServer.Configuration(
                listen: try listenAddress(), socketPath: global.socketPath, root: root, tiles: try tileTemplate(),
                version: String(PlacesCommand.configuration.version.prefix { $0 != "\n" }))
        } catch {
            throw CLIExit.fail(error.message, CLIExit.usage)
        }
        let server = WebServer(configuration: configuration)
        if (try? ControlClient(socketPath: global.socketPath, readTimeoutSeconds: 5).send("GET", "/v1/status")) == nil {
            printError(
                "warning: placesd is not running on \(global.socketPath): the app will say so until you start it (`placesd`)"
            )
        }
        let opener = noBrowser ? nil : BrowserOpener(dataDir: global.resolvedDataDir)
        let failure = Failure()
        let done = DispatchSemaphore(value: 0)
        // The one unstructured task: it bridges this synchronous command to the async server,
        // and is cancelled by SIGINT or SIGTERM.
        let task = Task {
            do {
                try await server.run { url in
                    writeStandardOutput(url + "\n")
                    printError(
                        "Serving Places until interrupted (Ctrl-C). The address above lets a browser in: keep it to yourself."
                    )
                    opener?.open(url)
                }
            } catch is CancellationError {
            } catch {
                failure.set("\(error)")
            }
            done.signal()
        }
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        sources.forEach { $0.cancel() }
        opener?.cleanUp()
        if let message = failure.message { throw CLIExit.fail(message, CLIExit.refused) }
    }
}

/// The server's failure, handed from its task to the command.
private final class Failure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var message: String? { lock.withLock { stored } }
    func set(_ message: String) { lock.withLock { stored = message } }
}

/// Opens the app in the default browser without putting the token on a command line
/// (where another local user could read it in /proc): the browser opens a page in the data
/// directory (mode 0700) that redirects to the address, as Jupyter does.
private struct BrowserOpener: Sendable {
    let dataDir: String
    var redirectPath: String { dataDir + "/gui-open-\(getpid()).html" }

    func open(_ url: String) {
        let environment = ProcessInfo.processInfo.environment
        #if os(macOS)
            let opener = "/usr/bin/open"
        #else
            guard [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains(where: { !($0 ?? "").isEmpty }),
                let opener = Self.find("xdg-open", in: environment["PATH"] ?? "")
            else { return }
        #endif
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dataDir, isDirectory: &isDirectory), isDirectory.boolValue else {
            return printError("open the address above in your browser (there is no data dir to open it from)")
        }
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(url)"><title>Places</title></head>
            <body><p><a href="\(url)">Open Places</a></p></body></html>

            """
        guard
            FileManager.default.createFile(
                atPath: redirectPath, contents: Data(html.utf8), attributes: [.posixPermissions: 0o600])
        else { return printError("open the address above in your browser (cannot write \(redirectPath))") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [URL(fileURLWithPath: redirectPath).absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            printError("open the address above in your browser (\(opener) failed: \(error))")
        }
    }

    /// Removes the redirect page (the token in it is dead once the server stops).
    func cleanUp() { unlink(redirectPath) }

    static func find(_ name: String, in path: String) -> String? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

extension Error {
    /// The message to print: a WebError's own, else the description.
    fileprivate var message: String { (self as? WebError)?.message ?? "\(self)" }
}
