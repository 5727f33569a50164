import Logging
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// The document side of sync (`Protocol/sync.md` §7, §8.2): offers with version vectors and
/// key grants, rounds of ops in send windows, handing received ops to the store and
/// relaying them to the other participants, and the wire half of share-link joins and of
/// shares that need the user's consent.
///
/// The transport (`SyncService`) calls it for every session and message; the daemon talks
/// to it through `ReplicationHost` (documents, ops, decisions) and hands it local commits.
/// Everything it sends goes one way: `enqueue` into one ordered stream, drained by `run`.
public actor Replicator {
    /// Largest batch of ops per `OpsBatch` message (bytes of encoded ops).
    public static let maxBatchBytes = 1 << 20
    /// Most ops (in bytes) sent in answer to one offer. A peer still behind after ingesting
    /// them offers again, which pulls the next round: a large history flows in rounds
    /// instead of filling the session's send queue.
    public static let maxRoundBytes = 4 << 20
    /// Most ops (in bytes) sent to a peer and not yet acknowledged by one of its offers. A
    /// peer pulls the next round after every batch it stores, so with room for two rounds
    /// the next one is already on its way while the peer ingests the current one.
    public static let maxInFlightBytes = 2 * maxRoundBytes
    /// How many times a round is read again when the send window moved during the read
    /// (concurrent offers on a peer's two sessions) before the peer's next offer is left to
    /// pull it.
    static let maxRoundRereads = 4
    /// Most key grants sent in one offer, and verified from one received offer
    /// (`Protocol/sync.md` §7, "Bounds"). Grants beyond it are skipped, unverified.
    public static let maxGrantsPerOffer = 64
    /// Most entries of a version vector accepted in an offer; an offer with more is ignored.
    public static let maxVectorEntries = 1_024
    /// Largest `seq` an offered vector may name (op-format.md §1 bounds `seq`).
    public static let maxOfferedSeq = UInt64(UInt32.max)

    /// What the outbound stream carries, in order: messages to send, and what the daemon
    /// hands over (local commits, documents to offer, links to present) to be turned into
    /// messages in turn.
    enum Outbound: Sendable {
        case send(doc: DocumentID?, messages: [SyncMessage], recipients: [PublicKey])
        case local(LocalCommit)
        case direct(ops: [SignedOp], doc: DocumentID, recipients: [PublicKey])
        case offer(doc: DocumentID, peers: Set<PublicKey>)
        case present(JoinPresentation, peer: PublicKey)
        case forget(DocumentID)
        case like(PublishedLike, author: PublicKey)
    }

    let logger: Logger
    weak var host: (any ReplicationHost)?

    /// Open sessions per connected peer (at most 2 each, `Protocol/sync.md` §2).
    var sessions: [PublicKey: Int] = [:]
    /// The version vectors of each peer's last offers, kept current with the ops it sends.
    var peerVectors: [PublicKey: [DocumentID: VersionVector]] = [:]
    /// What each peer said it holds in its last offer (to know when more is to come).
    var offeredVectors: [PublicKey: [DocumentID: VersionVector]] = [:]
    /// Documents whose whole log this daemon pulled from a peer in the current session
    /// (once each: equivocation recovery, `Replicator+Ingest`).
    var fullPulls: [PublicKey: Set<DocumentID>] = [:]
    /// Ops of a peer refused because they came before ops they follow (a push that overtook
    /// a round): asked for again once those arrive (`Replicator+Ingest`). One vector per peer
    /// and document, gone with the peer's last session.
    var refusedAhead: [PublicKey: [DocumentID: VersionVector]] = [:]
    /// The features each connected peer's `Hello` named that this build knows (`card/1`: it
    /// takes contact cards; `outbox/1`: outboxes; `blob/1`: photos; `published/1`: published
    /// trips and their likes; `device/1`: a person's devices, `Protocol/devices.md`), while
    /// connected.
    var peerFeatures: [PublicKey: Set<String>] = [:]
    /// The features this build sends in `Hello` and understands (`Protocol/sync.md` §7).
    public static let features = [
        "card/1", "outbox/1", BlobTransfer.feature, PublishedLike.feature, "device/1", OpeningSummary.feature,
        haveFeature,
    ]
    /// The op ids each connected peer told this daemon it holds (`OpsHave`): ops relayed
    /// later are not sent to it (`Replicator+Told`). At most `maxHeldIDsPerPeer` per peer.
    var peerHolds: [PublicKey: RecentIDs] = [:]
    /// The photos wanted and being fetched (`Replicator+Blobs`, sync.md §7.4).
    var blobWants = BlobWants()
    /// When each document was last searched for other holders of photos every holder
    /// refused (`Replicator.refuseBlob`); entries older than `holderSearchInterval` go.
    var holderSearches: [DocumentID: ContinuousClock.Instant] = [:]
    /// Peers' wants of photos this daemon is fetching itself, answered when that ends.
    var heldBlobWants = HeldBlobWants()
    /// What was sent to each peer of each document in answer to its offers: pipelined
    /// rounds (`Replicator+Rounds`). Reset when a session with the peer opens or closes.
    var sendWindows: [PublicKey: [DocumentID: SendWindow]] = [:]
    /// Offers of the newest session's opening still to send to a peer, and the nonce of the
    /// Ping that follows the slice sent before them (`openingOffers`). One per peer: a peer
    /// with two sessions gets the rest on the newer (its own opening offers are answered on
    /// either).
    var pendingOffers: [PublicKey: (ping: UInt64, docs: ArraySlice<DocumentID>)] = [:]
    /// This daemon's opening summary for each peer whose own summary has not arrived yet
    /// (`Replicator+Summary`). One per peer: the newer session's replaces the older's.
    var pendingSummaries: [PublicKey: OpeningSummary] = [:]
    /// Opening offers sent before a Ping waits for the peer to have handled them: a session
    /// opens with thousands of shared documents without passing either side's send queue
    /// (sync.md §5) with offers and their answers.
    static let openingSlice = 512

    private let outbound: AsyncStream<Outbound>
    private let outbox: AsyncStream<Outbound>.Continuation

    /// A replicator with no host yet (`attach` gives it one).
    public init(logger: Logger) {
        self.logger = logger
        (outbound, outbox) = AsyncStream<Outbound>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Sets the daemon side (held weakly: the daemon owns the replicator).
    public func attach(_ host: any ReplicationHost) { self.host = host }

    // MARK: What the daemon hands over

    /// After a local commit: the new ops go to the document's connected participants.
    public nonisolated func committed(_ commit: LocalCommit) {
        outbox.yield(.local(commit))
    }

    /// Ops sent as they are to `recipients` (a removal, to the members it removes).
    public nonisolated func send(_ ops: [SignedOp], of doc: DocumentID, to recipients: [PublicKey]) {
        outbox.yield(.direct(ops: ops, doc: doc, recipients: recipients))
    }

    /// A fresh offer of `doc` to those of `peers` who are connected (the others get offers
    /// when they next connect). Called whenever this daemon starts holding a document, learns
    /// of new participants or of new key grants: what makes a share travel several hops at
    /// once (sync.md §7, "Propagation").
    public nonisolated func offer(_ doc: DocumentID, to peers: Set<PublicKey>) {
        outbox.yield(.offer(doc: doc, peers: peers))
    }

    /// Presents a share link to `peer` (a `JoinRequest`).
    public nonisolated func present(_ presentation: JoinPresentation, to peer: PublicKey) {
        outbox.yield(.present(presentation, peer: peer))
    }

    /// Forgets what was sent of `doc` (its ops were purged: send windows name log positions).
    public nonisolated func forget(_ doc: DocumentID) {
        outbox.yield(.forget(doc))
    }

    /// Sends a pairing message to `peer` (every live session with it).
    public nonisolated func sendPairing(_ message: PairingMessage, to peer: PublicKey) {
        outbox.yield(.send(doc: nil, messages: [message.wire], recipients: [peer]))
    }

    /// Sends a relay message to `peer` (every live session with it).
    public nonisolated func sendRelay(_ message: RelayMessage, to peer: PublicKey) {
        outbox.yield(.send(doc: nil, messages: [message.wire], recipients: [peer]))
    }

    /// Sends this identity's like (or unlike) of a published trip to its author, when
    /// connected and taking published trips (otherwise it goes when they next connect).
    public nonisolated func sendLike(_ like: PublishedLike, to author: PublicKey) {
        outbox.yield(.like(like, author: author))
    }

    /// The vectors `peer` offered in its current sessions, by document.
    public func peerVectors(of peer: PublicKey) -> [DocumentID: VersionVector] { peerVectors[peer] ?? [:] }

    // MARK: The one outbound path

    /// Queues messages for `recipients` (sent in order by `run`).
    func enqueue(_ messages: [SyncMessage], doc: DocumentID?, to recipients: [PublicKey]) {
        guard !messages.isEmpty, !recipients.isEmpty else { return }
        outbox.yield(.send(doc: doc, messages: messages, recipients: recipients))
    }

    /// Sends what is queued over `sync`, until cancelled.
    public func run(over sync: SyncService) async {
        await run(send: { messages, peer in await sync.send(messages, to: peer) })
    }

    /// Drains the outbound stream: messages go to `send`, hand-overs become messages.
    func run(send: @Sendable ([SyncMessage], PublicKey) async -> Void) async {
        for await item in outbound {
            switch item {
            case .send(_, let messages, let recipients):
                for recipient in recipients { await send(messages, recipient) }
            case .local(let commit): await pushLocal(commit)
            case .direct(let ops, let doc, let recipients):
                enqueue(batches(of: ops.map(\.encoded), doc: doc), doc: doc, to: recipients)
            case .offer(let doc, let peers): await offerToConnected(doc, newcomers: peers)
            case .present(let presentation, let peer): enqueue([Self.joinRequest(presentation)], doc: nil, to: [peer])
            case .forget(let doc):
                for peer in sendWindows.keys { sendWindows[peer]?[doc] = nil }
            case .like(let like, let author):
                guard sessions[author] != nil, takes(.published, author) else { continue }
                enqueue([Replicator.tripLike(like)], doc: nil, to: [author])
            }
        }
    }
}

extension Replicator: SyncDelegate {
    func syncIdentity() async -> SigningKeyPair? { await host?.replicaIdentity() }

    func syncDisplayName() async -> String { await host?.profileName() ?? "" }

    func deviceCredentials() async -> (certificate: [UInt8], revocations: [[UInt8]]) {
        await host?.deviceCredentials() ?? ([], [])
    }

    /// The peer's device as its `Hello` says: a certificate counts only when valid and for
    /// the session's own key, revocations only when valid (`Protocol/devices.md` §6).
    static func device(of peer: PublicKey, hello: Places_Sync_V1_Hello, handshakeHash: [UInt8]) -> PeerDevice {
        let certificate = hello.deviceCert.isEmpty ? nil : try? DeviceCertificate(decoding: [UInt8](hello.deviceCert))
        let valid = certificate?.device == peer ? certificate : nil
        return PeerDevice(
            certificate: valid, badCertificate: !hello.deviceCert.isEmpty && valid == nil,
            revocations: hello.deviceRevocations.prefix(64).compactMap {
                try? DeviceRevocation(decoding: [UInt8]($0))
            }, handshakeHash: handshakeHash)
    }

    /// Whether a session with `peer` may stay open (asked when a new session's grace runs out).
    func keepSession(with peer: PublicKey) async -> Bool { await host?.knows(peer) ?? false }

    /// The profile name to tell `peer` in `Hello`: only people this daemon knows learn it.
    func helloName(for peer: PublicKey) async -> String {
        guard let host, await host.tellsName(to: peer) else { return "" }
        return await host.profileName() ?? ""
    }

    func sessionOpened(
        with peer: PublicKey, hello: Places_Sync_V1_Hello, address: String, handshakeHash: [UInt8] = []
    ) async -> [SyncMessage] {
        guard let host else { return [] }
        // The address peers reach it at: where the connection came from, with its listening port.
        let reachable =
            hello.listenPort > 0 ? (address.contains(":") ? "[\(address)]" : address) + ":\(hello.listenPort)" : address
        let name = String(hello.name.prefix(100))
        sessions[peer, default: 0] += 1
        if sessions[peer] == 1 { sendWindows[peer] = nil }
        peerFeatures[peer] = Set(hello.features.filter { Replicator.features.contains($0) })
        await host.peerDevice(peer, Self.device(of: peer, hello: hello, handshakeHash: handshakeHash))
        await host.peerConnected(peer, name: name, address: reachable)
        var out = await openingSummaryAndOffers(to: peer)
        out += (await host.joinPresentations(for: peer)).map(Self.joinRequest)
        // This identity's likes of the peer's published trips, until the peer has them.
        if takes(.published, peer) { out += (await host.publishedLikes(for: peer)).map(Self.tripLike) }
        // Photos named by what the peer owns and this daemon lacks (a fetch cut short by a
        // dropped connection resumes here).
        return out + (await blobsFollow(from: peer, in: nil))
    }

    /// The next slice of a session's opening offers of `docs` to `peer`, followed by a Ping
    /// when more remain: its Pong (`pong(_:from:)`) sends the next slice.
    func openingOffers(to peer: PublicKey, of docs: ArraySlice<DocumentID>) async -> [SyncMessage] {
        var out = [SyncMessage]()
        for doc in docs.prefix(Self.openingSlice) {
            if let offer = await makeOffer(for: doc, to: peer, reply: false) { out.append(offer) }
        }
        let rest = docs.dropFirst(Self.openingSlice)
        guard !rest.isEmpty, sessions[peer] != nil else { return out }
        var ping = SyncMessage()
        ping.ping.nonce = UInt64.random(in: .min ... .max)
        pendingOffers[peer] = (ping.ping.nonce, rest)
        return out + [ping]
    }

    func pong(_ nonce: UInt64, from peer: PublicKey) async -> [SyncMessage] {
        guard let pending = pendingOffers[peer], pending.ping == nonce else { return [] }
        pendingOffers[peer] = nil
        return await openingOffers(to: peer, of: pending.docs)
    }

    func received(_ message: SyncMessage, from peer: PublicKey) async -> [SyncMessage] {
        switch message.kind {
        case .offer(let offer): return await handleOffer(offer, from: peer)
        case .ops(let batch): return await handleOps(batch, from: peer)
        case .join(let request): return await handleJoinRequest(request, from: peer)
        case .joinRefused(let refused):
            await handleJoinRefused(refused, from: peer)
            return []
        case .blobWant(let want): return await handleBlobWant(want, from: peer)
        case .blobChunk(let chunk): return await handleBlobChunk(chunk, from: peer)
        case .blobMissing(let missing): return await handleBlobMissing(missing, from: peer)
        case .tripLike(let like): return await handleTripLike(like, from: peer)
        case .summary(let summary): return await handleSummary(summary, from: peer)
        case .opsHave(let have): return await handleOpsHave(have, from: peer)
        case .opsWant(let want): return await handleOpsWant(want, from: peer)
        case .pairRequest, .pairWaiting, .pairRefused, .pairAccepted:
            guard let pairing = PairingMessage(message) else {
                logger.warning("ignored a pairing message out of bounds", metadata: ["peer.id": "\(peer.logID)"])
                return []
            }
            return await host?.pairing(pairing, from: peer).map(\.wire) ?? []
        case .relayRedeem, .relayRedeemed, .relayRefused, .relayUsage, .relayBlobs:
            guard let relay = RelayMessage(message) else {
                logger.warning("ignored a relay message out of bounds", metadata: ["peer.id": "\(peer.logID)"])
                return []
            }
            let answers = await host?.relay(relay, from: peer).map(\.wire) ?? []
            // Photos a member gives at a relay (relay.md §8): wanted from it at once.
            guard case .blobs(let doc, _) = relay else { return answers }
            return answers + (await blobsFollow(from: peer, in: doc))
        default: return []
        }
    }

    func sessionClosed(with peer: PublicKey, reason: String) async {
        let left = (sessions[peer] ?? 1) - 1
        sessions[peer] = left > 0 ? left : nil
        if left <= 0 {
            // Everything kept per peer goes with its last session (sync.md §7, "Bounds").
            sendWindows[peer] = nil
            fullPulls[peer] = nil
            refusedAhead[peer] = nil
            peerFeatures[peer] = nil
            peerHolds[peer] = nil
            peerVectors[peer] = nil
            offeredVectors[peer] = nil
            pendingOffers[peer] = nil
            pendingSummaries[peer] = nil
            blobWants.peerGone(peer)
            heldBlobWants.peerGone(peer)
        }
        // Photos wanted only from that peer are given up: wants held for them are answered.
        if left <= 0 { await answerHeldBlobWants() }
        await host?.peerDisconnected(peer, lastSession: left <= 0)
        logger.info("peer disconnected", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "reason": "\(reason)"])
    }
}
