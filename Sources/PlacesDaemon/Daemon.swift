import Foundation
import Logging
import PlacesControl
import PlacesStore
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

    let paths: DataPaths
    let logger: Logger

    public init(dataDir: String?, logger: Logger) {
        self.paths = DataPaths(dataDir: dataDir)
        self.logger = logger
    }

    /// Runs until a termination signal; throws `DaemonError` for start-up problems.
    public func run() async throws {
        try prepareDataDir()
        let lock = try acquireLock()
        defer { close(lock) }
        let store: Store
        do { store = try Store(path: paths.database) } catch { throw DaemonError(description: error.description) }
        let engine = Engine(store: store, paths: paths, version: Daemon.version, logger: logger)
        await engine.autoLogin()
        let control = ControlService(
            server: ControlServer(
                socketPath: paths.socket, handler: Router(engine: engine),
                log: { [logger] line in logger.debug("\(line)") }),
            logger: logger, engine: engine)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: control)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        try? store.close()
        logger.info("placesd stopped", metadata: ["data.dir": "\(paths.dataDir)"])
    }

    private func prepareDataDir() throws {
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
    private func acquireLock() throws -> Int32 {
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
    let engine: Engine

    func run() async throws {
        defer { engine.events.finishAll() }
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
