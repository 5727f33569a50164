import Foundation
import Logging
import PlacesAPI
import PlacesControl
import PlacesStore
import PlacesSync
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Why the daemon could not start: printed as one line before exiting non-zero.
public struct DaemonError: Error, CustomStringConvertible {
    public var description: String
}

/// `placesd`: prepares the data dir, takes the single-instance lock, opens the store and
/// runs the services (the control API for now) in one `ServiceGroup` that shuts down
/// gracefully on SIGTERM and SIGINT.
public struct Daemon {
    /// The daemon's version, reported by `GET /v1/status`.
    public static let version = "0.1.0"
    /// What `--version` prints: the version and the credit the gazetteer's licence asks for.
    public static let versionText = "\(version)\nPlace names: GeoNames (https://www.geonames.org), CC BY 4.0"

    /// Sync settings from the command line.
    public struct SyncOptions: Sendable {
        /// Where to accept peers, `HOST:PORT`; port 0 picks a free port.
        public var listen: String
        /// Whether to send and hear LAN discovery beacons.
        public var discovery: Bool
        /// Static peers, `HOST:PORT`, in addition to those stored with `places peers add`.
        public var peers: [String]

        /// The documented default port for peers and discovery beacons.
        public static let defaultPort = 7478

        public init(listen: String = "0.0.0.0:\(defaultPort)", discovery: Bool = true, peers: [String] = []) {
            self.listen = listen
            self.discovery = discovery
            self.peers = peers
        }
    }

    let paths: DataPaths
    let logger: Logger
    let syncOptions: SyncOptions
    /// `--relay`: compose a blind relay (`Protocol/relay.md`) instead of a person's daemon.
    let relay: Bool
    /// `--relay-quota-bytes`: each new user's quota at a relay (nil: the default, 1 GiB).
    let relayQuotaBytes: Int64?
    /// `--relay-document-quota-bytes`: the most bytes of ops one document holds at a relay
    /// (nil: the default, 256 MiB).
    let relayDocumentQuotaBytes: Int64?

    public init(
        dataDir: String?, sync: SyncOptions = SyncOptions(), relay: Bool = false, relayQuotaBytes: Int64? = nil,
        relayDocumentQuotaBytes: Int64? = nil, logger: Logger
    ) {
        self.paths = DataPaths(dataDir: dataDir)
        self.logger = logger
        self.syncOptions = sync
        self.relay = relay
        self.relayQuotaBytes = relayQuotaBytes
        self.relayDocumentQuotaBytes = relayDocumentQuotaBytes
    }

    /// Runs until a termination signal; throws `DaemonError` for start-up problems.
    public func run() async throws {
        if relay { return try await runRelay() }
        try prepareDataDir()
        let lock = try acquireLock()
        defer { close(lock) }
        let (store, engine, router) = try await InProcessDaemon.makeCore(paths: paths, logger: logger)
        guard let (host, port) = Engine.parseHostPort(syncOptions.listen, allowZero: true) else {
            throw DaemonError(description: "--listen '\(syncOptions.listen)' is not HOST:PORT")
        }
        var staticPeers = [(host: String, port: Int)]()
        for address in syncOptions.peers + ((try? store.staticPeers()) ?? []) {
            guard let peer = Engine.parseHostPort(address) else {
                throw DaemonError(description: "peer '\(address)' is not HOST:PORT")
            }
            staticPeers.append(peer)
        }
        let sync = SyncService(host: host, port: port, replicator: await engine.startReplication(), logger: logger)
        let discovery: LANDiscovery? =
            syncOptions.discovery
            ? LANDiscovery(
                logger: logger, identity: { await engine.beaconIdentity() },
                onPeer: { peer in await sync.addDiscoveredPeer(peer) }) : nil
        await engine.attach(sync: sync, listenAddress: syncOptions.listen, discovery: syncOptions.discovery)
        let bridge = SyncBridge(
            replicator: engine.replicator, sync: sync, discovery: discovery, staticPeers: staticPeers, logger: logger)
        let control = ControlService(
            server: ControlServer(
                socketPath: paths.socket, handler: router,
                log: { [logger] line in logger.debug("\(line)") }),
            logger: logger, onStop: { engine.events.finishAll() })
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: control), .init(service: bridge)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        let trimming = Task { await engine.trimWhenIdle() }
        defer { trimming.cancel() }
        try await group.run()
        do { try store.close() } catch {
            logger.error("closing the database failed", metadata: ["error": "\(error)"])
        }
        logger.info("placesd stopped", metadata: ["data.dir": "\(paths.dataDir)"])
    }

    func prepareDataDir() throws {
        guard paths.socket.utf8.count <= DataPaths.maxSocketPathBytes else {
            throw DaemonError(
                description:
                    "the data dir \(paths.dataDir) is too deep: its socket path would be \(paths.socket.utf8.count) bytes, and Unix sockets allow \(DataPaths.maxSocketPathBytes). Use a shorter --data-dir."
            )
        }
        do {
            try FileManager.default.createDirectory(
                atPath: paths.dataDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonError(description: "cannot create the data dir \(paths.dataDir): \(error.localizedDescription)")
        }
        chmod(paths.dataDir, 0o700)
    }

    /// One daemon per data dir: an exclusive `flock` held for the process's life. The lock
    /// dies with the process, so a crash never leaves a stale lock; a stale socket file is
    /// then replaced at bind.
    func acquireLock() throws -> Int32 {
        let fd = open(paths.lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DaemonError(description: "cannot open \(paths.lockFile): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var pid = [UInt8](repeating: 0, count: 32)
            let n = read(fd, &pid, 31)
            let holder =
                n > 0 ? String(decoding: pid[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            close(fd)
            throw DaemonError(
                description:
                    "another placesd (pid \(holder)) is already running on \(paths.dataDir); stop it first, or use another --data-dir"
            )
        }
        ftruncate(fd, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pwrite(fd, pid, pid.count, 0)
        return fd
    }
}

/// The control API as a `Service`: serves until graceful shutdown, then removes its socket.
struct ControlService: Service {
    let server: ControlServer
    let logger: Logger
    /// Ends what the server streams (the engine's event subscriptions).
    let onStop: @Sendable () -> Void

    func run() async throws {
        defer { onStop() }
        do {
            try await cancelWhenGracefulShutdown {
                try await server.run(onReady: {
                    logger.info("placesd ready", metadata: ["socket": "\(server.socketPath)"])
                })
            }
        } catch is CancellationError {
            // Graceful shutdown: the listener closed and the socket file is gone.
        }
    }
}
