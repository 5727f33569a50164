import Foundation
import Logging
import PlacesAPI
import PlacesBlobs
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync
import Synchronization

/// The daemon's state and the composition of its services (README, "Where things are in
/// PlacesDaemon"): services check a request and compute its edit from the store; the engine
/// commits it, then grants keys and tells peers. An actor: a request's checks and its commit
/// run in one synchronous step, so no other request interleaves; where a request awaits
/// (the sync transport), what it read before is read again after.
public actor Engine {
    let store: Store
    let paths: DataPaths
    let events = EventHub()
    let logger: Logger
    let version: String

    /// The key file, the unlocked identity, its keyring and its own documents.
    var account: AccountService
    /// Encoded responses of hot read routes, by route, each valid while the store's commit
    /// generation has not moved (`Store.generations`: no write path empties it by hand).
    var responseCache: [String: CachedResponse] = [:]
    /// `GET /v1/favorites`'s answer, for the control server to write without a hop to the
    /// engine (`Router.keptAnswer`): valid at its generation, dropped when the identity changes.
    let keptFavorites = KeptAnswer()
    /// Sync: version vectors and participants of documents, names of connected peers
    /// (`SyncComponent`).
    var syncComponent = SyncComponent()
    /// Replication (PlacesSync): offers, rounds and everything sent to peers; this engine is
    /// its host (`Engine+Sync`).
    nonisolated let replicator: Replicator
    /// The sync transport, once running (for `GET /v1/peers` and adding peers).
    var sync: SyncService?
    var listenAddress: String?
    var discoveryOn = false
    /// When a bulk of received ops (a round of a sync) was last stored (`trimWhenIdle`).
    var idleTrim = IdleTrim()
    /// Joining: share links being redeemed here, peers a link let in (`JoinComponent`).
    var joins = JoinComponent()
    /// Activity: the views of itineraries recorded (`ActivityComponent`).
    var activityComponent = ActivityComponent()
    /// Trips: the trip folders and expense ledgers last read (`TripComponent`).
    var trips = TripComponent()
    /// Discover: the gazetteer once loaded, popularity's inputs (`DiscoverComponent`).
    var discoverComponent = DiscoverComponent()
    /// Social: friendships, outbox readers, reactions verified (`SocialComponent`).
    var social = SocialComponent()
    /// Photos: the blob store, photo wants allowed recently (`PhotoComponent`).
    var photos = PhotoComponent()
    /// Explore: the index of published trips, its rankings, the like budget
    /// (`ExploreComponent`).
    var exploreComponent = ExploreComponent()
    /// Publishing: this person's publications, per-peer addresses and refusals
    /// (`PublishingComponent`).
    var publishing = PublishingComponent()
    /// Devices: pairings issued here, this daemon's join as a new device, what connected
    /// peers said of their devices (`DeviceComponent`).
    var devices = DeviceComponent()
    /// Relays: the blind relays this person uses and links being redeemed (`RelaysComponent`).
    var relays = RelaysComponent()
    /// Nearby: the index of saved places around which `GET /v1/nearby` reads (`NearbyComponent`).
    var nearbyComponent = NearbyComponent()
    /// Destinations: time zones, the dashboard's inputs, the weather kept
    /// (`DestinationsComponent`).
    var destinationsComponent = DestinationsComponent()

    init(store: Store, paths: DataPaths, version: String, logger: Logger) {
        self.store = store
        self.paths = paths
        self.account = AccountService(paths: paths)
        self.version = version
        self.logger = logger
        self.replicator = Replicator(logger: logger)
    }

    func attach(sync: SyncService, listenAddress: String, discovery: Bool) {
        self.sync = sync
        self.listenAddress = listenAddress
        self.discoveryOn = discovery
        // The weather loop (docs/destinations.md): a trip starting within 7 days is fetched
        // for without anyone opening the dashboard.
        nudgeWeather()
        // Relays named in documents: read once the transport runs, then looked at again as
        // peers come and go, and every 15 seconds (relay.md §5.1).
        Task {
            try? await Task.sleep(for: .seconds(1))
            self.learnAllRelays()
            while !Task.isCancelled {
                await self.steerLearnedRelays()
                try? await Task.sleep(for: .seconds(15))
            }
        }
    }

    /// The unlocked identity; nil while logged out.
    var identity: SigningKeyPair? { account.identity }
    var me: PublicKey? { account.me }
    func keyringCopy() -> Keyring { account.keyring }
    func setKeyring(_ ring: Keyring) { account.keyring = ring }
    /// Adds a document key in place (a copy of the ring and a set would copy every key held:
    /// 10,000 shared trips received made their grants quadratic).
    func addKey(_ key: [UInt8], doc: DocumentID, epoch: UInt32) { account.keyring.insert(key, doc: doc, epoch: epoch) }

    // MARK: Writing

    func requireLogin() throws { try account.requireLogin() }

    /// Commits a service's edit.
    @discardableResult
    func commit(_ edit: Edit) throws -> [SignedOp] { try commit(edit.doc, edit.changes, summary: edit.summary) }

    /// Appends one op of `changes` to `doc` and tells subscribers.
    @discardableResult
    func commit(_ doc: DocumentID, _ changes: [Change], summary: String? = nil) throws -> [SignedOp] {
        guard let identity else { throw ServiceError.loggedOut }
        let started = ContinuousClock.now
        let ops: [SignedOp]
        do {
            ops = try store.append(
                [Store.Edit(doc: doc, changes: changes, timeMs: RFC3339.nowMs())], identity: identity,
                keyring: account.keyring, device: account.certificate)
        } catch {
            logger.error("append failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            throw ServiceError.store("Could not save", error.message, cause: error)
        }
        didStore(.ops(ops, membership: changes.contains { $0.kind == .member || $0.kind == .link } ? [doc] : []))
        let stored = ContinuousClock.now
        pushLocal(ops, doc: doc)
        logger.debug(
            "committed",
            metadata: [
                "doc.id": "\(doc)", "append.ms": "\(Engine.milliseconds(stored - started))",
                "push.ms": "\(Engine.milliseconds(ContinuousClock.now - stored))",
            ])
        let kind = (try? store.document(doc))?.kind.rawValue
        cardFollows(doc)
        if changes.contains(where: { $0.kind == .member }) { offerMyCard() }
        events.publish(
            Event(
                type: "changed", time: RFC3339.string(ms: RFC3339.nowMs()), doc: doc.hex, docKind: kind,
                author: (me ?? identity.publicKey).humanID,
                summary: summary ?? "\(kind ?? "document") \(doc.hex.prefix(8)) changed"))
        return ops
    }

    func library() throws -> DocumentID { try account.library() }

    /// The batch entry point for benchmarks: many edits, one transaction.
    func appendBatch(_ edits: [Store.Edit]) throws {
        guard let identity else { throw ServiceError.loggedOut }
        didStore(.documents)
        try store.append(edits, identity: identity, keyring: account.keyring, device: account.certificate)
    }

    /// Result of `POST /v1/maintenance/rebuild`.
    struct RebuildResult: Encodable {
        var ops: Int
        var durationMs: Int
    }

    /// Drops the materialized tables and replays the op log (repair, and the proof that
    /// the tables are a function of the log).
    func rebuild() throws -> RebuildResult {
        try requireLogin()
        let start = ContinuousClock.now
        didStore(.documents)
        try storeCall { () throws(StoreError) in try store.rebuildMaterialized(keyring: account.keyring) }
        let elapsed = ContinuousClock.now - start
        logger.info("materialized tables rebuilt")
        return RebuildResult(
            ops: (try? store.opCount()) ?? 0,
            durationMs: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
    }

    // MARK: Notifying the components

    /// After every store write (a local commit, a peer's ops, a grant, a friendship, documents
    /// changed outside ops): each component keeps what it holds current, its own way.
    func didStore(_ change: StoreChange) {
        syncComponent.didStore(change)
        trips.didStore(change)
        social.didStore(change)
        exploreComponent.didStore(change)
        publishing.didStore(change)
        discoverComponent.didStore(change)
        activityComponent.didStore(change)
        joins.didStore(change)
        photos.didStore(change)
        devices.didStore(change)
        nearbyComponent.didStore(change)
        destinationsComponent.didStore(change)
    }

    /// After an identity was created, unlocked or locked: what components kept for the
    /// previous one goes.
    func didChangeIdentity() {
        keptFavorites.forget()
        syncComponent.didChangeIdentity()
        trips.didChangeIdentity()
        social.didChangeIdentity()
        exploreComponent.didChangeIdentity()
        publishing.didChangeIdentity()
        discoverComponent.didChangeIdentity()
        activityComponent.didChangeIdentity()
        joins.didChangeIdentity()
        photos.didChangeIdentity()
        devices.didChangeIdentity()
        nearbyComponent.didChangeIdentity()
        destinationsComponent.didChangeIdentity()
    }

    // MARK: Store access for the feature extensions

    func storeCall<T>(_ body: () throws(StoreError) -> T) throws -> T { try ServiceError.storing(body) }
}

/// An encoded response and what it was read from: the document and the store's commit
/// generation before the read.
struct CachedResponse {
    var doc: DocumentID
    var generation: UInt64
    var bytes: [UInt8]
}

/// An encoded answer readable from any thread, with the store's commit generation it was
/// read at (before the read): it is the current answer while the generation has not moved.
final class KeptAnswer: Sendable {
    private let kept = Mutex<(generation: UInt64, bytes: [UInt8])?>(nil)

    func keep(_ bytes: [UInt8], generation: UInt64) { kept.withLock { $0 = (generation, bytes) } }

    func forget() { kept.withLock { $0 = nil } }

    /// The kept bytes when they were read at `generation`.
    func bytes(at generation: UInt64) -> [UInt8]? {
        kept.withLock { kept in kept.flatMap { $0.generation == generation ? $0.bytes : nil } }
    }
}
