import Foundation
import Logging
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// `placesd --relay` (`Protocol/relay.md`): the daemon composed of storage, replication and
/// the relay role alone. No person key, no document key, no content component: it keeps ops
/// unopened (`Store.ingestUnopened`) and signed records opaque, and answers the replicator
/// as a host that holds no document it could read.
public actor RelayEngine: ReplicationHost {
    let store: Store
    let paths: DataPaths
    let logger: Logger
    var relay: RelayComponent
    nonisolated let replicator: Replicator
    var sync: SyncService?
    var listenAddress: String?
    /// The newest access list of documents kept here, decoded (`RelayEngine+Documents`): at
    /// most `maxCachedLists`, emptied when full.
    var accessCache: [DocumentID: (access: RelayAccess, kind: ReplicaDocument.Kind)] = [:]
    static let maxCachedLists = 4_096

    init(
        store: Store, paths: DataPaths, key: SigningKeyPair, quotaBytes: Int64, documentQuotaBytes: Int64,
        logger: Logger
    ) {
        self.store = store
        self.paths = paths
        self.logger = logger
        self.relay = RelayComponent(key: key)
        self.relay.quotaBytes = quotaBytes
        self.relay.documentQuotaBytes = documentQuotaBytes
        self.replicator = Replicator(logger: logger)
    }

    /// The relay's key file in its data dir (a relay has no person's `identity.key`).
    static func keyPath(_ paths: DataPaths) -> String { paths.dataDir + "/relay.key" }

    func startReplication() async -> Replicator {
        await replicator.attach(self)
        return replicator
    }

    func attach(sync: SyncService, listenAddress: String) {
        self.sync = sync
        self.listenAddress = listenAddress
    }

    // MARK: Memory

    /// When ops were last stored here, for `trimWhenIdle`.
    var idleTrim = IdleTrim()

    /// Every 10 seconds: once no op has been stored for 10 seconds after a burst, gives back
    /// SQLite's spare cache and malloc's free pages, so that an idle relay's resident set does
    /// not stay at what the burst grew (docs/benchmarks.md, "Relay").
    func trimWhenIdle() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(10))
            idleTrim.trimIfDue(store)
        }
    }

    // MARK: Control API

    /// `GET /v1/status` on a relay: `role: relay`, its key as `id`, no person logged in.
    func status() async -> Status {
        var listen = listenAddress
        if let sync, let port = await sync.boundPort, let address = listenAddress,
            let (host, _) = Engine.parseHostPort(address, allowZero: true)
        {
            listen = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
        return Status(
            id: relay.key.publicKey.humanID, version: Daemon.version, initialized: true, loggedIn: false,
            passphraseProtected: false, name: nil, username: nil, dataDir: paths.dataDir, socket: paths.socket,
            pid: getpid(), opCount: try? store.opCount(), listen: listen, discovery: false, device: nil, role: "relay")
    }

    /// `POST /v1/relay/invitations`: a single-use link naming where this relay listens.
    func invite() async throws -> RelayInvitation {
        let status = await status()
        guard let listen = status.listen, !listen.hasSuffix(":0") else {
            throw ServiceError.conflict("not-listening", "the relay is not listening for peers yet: try again")
        }
        let link = try relay.invite(addresses: [Self.dialable(listen)], nowMs: RFC3339.nowMs(), store: store)
        logger.info("relay link made", metadata: ["link.id": "\(HexCoding.encode(link.id).prefix(8))"])
        return RelayInvitation(link: link.text, expiresAt: RFC3339.string(ms: link.expiresMs))
    }

    /// The address a link names: a wildcard listen address becomes loopback (a relay meant
    /// for other networks is started with `--listen` its public address).
    static func dialable(_ listen: String) -> String {
        for wildcard in ["0.0.0.0:", "[::]:"] where listen.hasPrefix(wildcard) {
            return "127.0.0.1:" + listen.dropFirst(wildcard.count)
        }
        return listen
    }

    /// `GET /v1/relay`.
    func summary() throws -> RelaySummary {
        let (users, quota, documents, bytes) = try ServiceError.storing { () throws(StoreError) in
            let (users, quota) = try store.relayUserTotals()
            let (documents, bytes) = try store.relayTotals()
            return (users, quota, documents, bytes)
        }
        return RelaySummary(users: users, documents: documents, bytes: bytes, quotaBytes: quota)
    }

    // MARK: ReplicationHost

    public func replicaIdentity() async -> SigningKeyPair? { relay.key }
    public func profileName() async -> String? { nil }
    /// Users stay connected; a stranger's session closes after the transport's grace, in which
    /// it may redeem a link.
    /// A user, or a key an access list held here names (a member of a relayed document).
    public func knows(_ peer: PublicKey) async -> Bool {
        (try? store.relayUserRole(peer)) != nil || (try? store.isOnRelayAccess(peer)) == true
    }
    public func peerConnected(_ peer: PublicKey, name: String, address: String) async {
        logger.info("peer connected", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        sendUsage(to: peer)
    }
    public func peerDisconnected(_ peer: PublicKey, lastSession: Bool) async {}

    public func relay(_ message: RelayMessage, from peer: PublicKey) async -> [RelayMessage] {
        if case .blobs(let doc, let names) = message {
            keepBlobsOffered(names, in: doc, from: peer)
            return []
        }
        guard case .redeem(let token) = message else {
            // A usage report, a redemption's answer or a refusal: what a relay sends, never takes.
            logger.warning(
                "ignored a relay message only a relay sends", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return []
        }
        let answer = relay.redeem(token, by: peer, nowMs: RFC3339.nowMs(), store: store)
        switch answer {
        case .redeemed(let role, _):
            logger.info("relay link redeemed", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "role": "\(role)"])
        case .refused(let code, _):
            logger.warning(
                "refused a relay link", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "code": "\(code)"])
        case .redeem, .full, .usage, .blobs: break
        }
        return [answer]
    }
}
