import Foundation
import Logging
import PlacesControl
import PlacesCrypto
import PlacesStore
import PlacesSync
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

extension Daemon {
    /// `placesd --relay`: the store, the replicator and the sync transport with a
    /// `RelayEngine` as their host, and the relay's control API. No discovery beacons (a relay
    /// is reached by the addresses in its links), no identity, no content component.
    func runRelay() async throws {
        try prepareDataDir()
        let lock = try acquireLock()
        defer { close(lock) }
        // Two malloc arenas: a relay's work is many small sessions on a few threads, and each
        // arena keeps what a burst grew (docs/benchmarks.md, "Relay").
        Malloc.limitArenas(2)
        let store: Store
        do { store = try Store(path: paths.database, cacheKiB: 2_048) } catch {
            throw DaemonError(description: error.description)
        }
        let key: SigningKeyPair
        do { key = try RelayComponent.loadKey(at: RelayEngine.keyPath(paths)) } catch {
            throw DaemonError(description: "cannot read or make the relay key \(RelayEngine.keyPath(paths)): \(error)")
        }
        let relay = RelayEngine(
            store: store, paths: paths, key: key, quotaBytes: relayQuotaBytes ?? RelayComponent.defaultQuotaBytes,
            documentQuotaBytes: relayDocumentQuotaBytes ?? RelayComponent.defaultDocumentQuotaBytes, logger: logger)
        guard let (host, port) = Engine.parseHostPort(syncOptions.listen, allowZero: true) else {
            throw DaemonError(description: "--listen '\(syncOptions.listen)' is not HOST:PORT")
        }
        var staticPeers = [(host: String, port: Int)]()
        for address in syncOptions.peers {
            guard let peer = Engine.parseHostPort(address) else {
                throw DaemonError(description: "peer '\(address)' is not HOST:PORT")
            }
            staticPeers.append(peer)
        }
        let sync = SyncService(host: host, port: port, replicator: await relay.startReplication(), logger: logger)
        await relay.attach(sync: sync, listenAddress: syncOptions.listen)
        let bridge = SyncBridge(
            replicator: relay.replicator, sync: sync, discovery: nil, staticPeers: staticPeers, logger: logger)
        let control = ControlService(
            server: ControlServer(
                socketPath: paths.socket, handler: RelayRouter(relay: relay),
                log: { [logger] line in logger.debug("\(line)") }),
            logger: logger, onStop: {})
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: control), .init(service: bridge)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        logger.info("placesd relay starting", metadata: ["relay.id": "\(key.publicKey.humanID.prefix(7))"])
        let trimming = Task { await relay.trimWhenIdle() }
        defer { trimming.cancel() }
        try await group.run()
        do { try store.close() } catch {
            logger.error("closing the database failed", metadata: ["error": "\(error)"])
        }
        logger.info("placesd relay stopped", metadata: ["data.dir": "\(paths.dataDir)"])
    }
}
