import Foundation
import Logging
import PlacesCrypto
import PlacesSync
import ServiceLifecycle

/// Peer-to-peer sync as a `Service`: the TCP listener and dialer (`SyncService`), LAN
/// discovery beacons, and the replicator's outbound path (local commits, relayed ops,
/// offers) drained into the transport.
struct SyncBridge: Service {
    let replicator: Replicator
    let sync: SyncService
    let discovery: LANDiscovery?
    let staticPeers: [(host: String, port: Int)]
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        do {
                            try await sync.run(onBound: { port in
                                logger.info("listening for peers", metadata: ["port": "\(port)"])
                            })
                        } catch is CancellationError {
                            return
                        } catch {
                            throw DaemonError(description: (error as? SyncError)?.message ?? "sync stopped: \(error)")
                        }
                    }
                    if let discovery {
                        group.addTask { try await discovery.run() }
                    }
                    // Everything sent to peers leaves through the replicator's one outbound path.
                    group.addTask { await replicator.run(over: sync) }
                    for peer in staticPeers { await sync.addPeer(host: peer.host, port: peer.port) }
                }
            }
        } catch is CancellationError {
            // Graceful shutdown.
        }
    }
}

extension Engine {
    /// What a discovery beacon announces, or nil while logged out (no beacons then).
    func beaconIdentity() async -> (SigningKeyPair, tcpPort: Int, name: String)? {
        guard let identity, let sync, let port = await sync.boundPort else { return nil }
        // A beacon reaches everyone on the network: it names nobody (discovery.md §5).
        return (identity, port, "")
    }
}
