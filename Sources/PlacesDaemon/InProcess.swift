import Foundation
import Logging
import PlacesAPI
import PlacesControl
import PlacesStore

/// A daemon without a process: the store, the engine and the router of `placesd`, answering
/// control requests handed to it directly. No control socket, no sync listener, no
/// discovery, no single-instance lock: for tests of the API's behaviour, which then run in
/// milliseconds instead of starting a process per test. What crosses a socket or a TCP
/// connection (HTTP framing, peer credentials, sync) is tested against a real `placesd`.
public struct InProcessDaemon: Sendable {
    /// The data dir the store and the key file live in.
    public let dataDir: String
    let store: Store
    let engine: Engine
    let router: Router

    /// Opens (or creates) the data dir and logs in with an unsealed key file, as `placesd`
    /// does at start.
    public static func start(dataDir: String, logger: Logger? = nil) async throws -> InProcessDaemon {
        let quiet = Logger(label: "placesd.in-process", factory: { _ in SwiftLogNoOpLogHandler() })
        let paths = DataPaths(dataDir: dataDir)
        do {
            try FileManager.default.createDirectory(
                atPath: paths.dataDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonError(description: "cannot create the data dir \(paths.dataDir): \(error.localizedDescription)")
        }
        let (store, engine, router) = try await makeCore(paths: paths, logger: logger ?? quiet)
        return InProcessDaemon(dataDir: paths.dataDir, store: store, engine: engine, router: router)
    }

    /// Answers one request as the control server would hand it to the router (the server's
    /// own checks, Origin/Referer and sizes, are not applied here).
    public func handle(_ request: ControlRequest) async -> ControlResponse {
        await router.handle(request)
    }

    /// Ends the event streams and closes the store; the value is unusable afterwards.
    public func shutdown() {
        engine.events.finishAll()
        try? store.close()
    }

    /// What `Daemon.run` builds before it adds the socket and the sync services: the store,
    /// the engine logged in from an unsealed key file, and the router. Keep the two in step.
    static func makeCore(paths: DataPaths, logger: Logger) async throws -> (Store, Engine, Router) {
        let store: Store
        do { store = try Store(path: paths.database) } catch { throw DaemonError(description: error.description) }
        let engine = Engine(store: store, paths: paths, version: Daemon.version, logger: logger)
        await engine.autoLogin()
        return (store, engine, Router(engine: engine))
    }
}
