import Foundation
import Logging
import PlacesCrypto
import PlacesSync
import ServiceLifecycle

/// Peer-to-peer sync as a `Service`: the TCP listener and dialer (`SyncService`), LAN
/// discovery beacons, and the pump that sends what the engine queues (local commits and
/// relayed ops) to the right peers.
struct SyncBridge: Service {
    let engine: Engine
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
                    group.addTask {
                        for await outgoing in await engine.outgoing {
                            for recipient in outgoing.recipients {
                                await sync.send(outgoing.messages, to: recipient)
                            }
                        }
                    }
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
