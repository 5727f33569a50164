import Foundation
import Logging
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

public typealias SyncMessage = Places_Sync_V1_SyncMessage

extension Store.Rejection {
    /// Whether the op was refused only because something it follows is not held yet.
    var isOutOfOrder: Bool {
        switch self {
        case .missingDependency, .sequenceGap: true
        default: false
        }
    }
}

/// Ops to push to peers: produced by local commits and by ops received from one peer
/// (relayed to the others); consumed by `SyncBridge`, which owns the sending.
struct Outgoing: Sendable {
    var doc: DocumentID
    var messages: [SyncMessage]
    var recipients: [PublicKey]
}

/// The document side of sync (`Protocol/sync.md` §7): offers with version vectors and key
/// grants, sending what a peer lacks in causal order, verifying and storing what arrives,
/// and relaying it to the other members.
extension Engine: SyncDelegate {
    /// Largest batch of ops per `OpsBatch` message (bytes of encoded ops).
    static let maxBatchBytes = 1 << 20
    /// Most ops (in bytes) sent in answer to one offer. A peer still behind after ingesting
    /// them offers again, which pulls the next round: a large history flows in rounds
    /// instead of filling the session's send queue.
    static let maxRoundBytes = 4 << 20
    /// Most ops (in bytes) sent to a peer and not yet acknowledged by one of its offers. A
    /// peer pulls the next round after every batch it stores, so with room for two rounds
    /// the next one is already on its way while the peer ingests the current one.
    static let maxInFlightBytes = 2 * maxRoundBytes
    /// Most key grants sent in one offer, and verified from one received offer
    /// (`Protocol/sync.md` §7, "Bounds"). Grants beyond it are skipped, unverified.
    static let maxGrantsPerOffer = 64
    /// Most entries of a version vector accepted in an offer; an offer with more is ignored.
    static let maxVectorEntries = 1_024
    /// Largest `seq` an offered vector may name (op-format.md §1 bounds `seq`).
    static let maxOfferedSeq = UInt64(UInt32.max)

    public func syncIdentity() async -> SigningKeyPair? { identity }

    public func syncDisplayName() async -> String { currentProfileName() ?? "" }

    public func sessionOpened(with peer: PublicKey, hello: Places_Sync_V1_Hello, address: String) async -> [SyncMessage]
    {
        // The address peers reach it at: where the connection came from, with its listening port.
        let reachable =
            hello.listenPort > 0 ? (address.contains(":") ? "[\(address)]" : address) + ":\(hello.listenPort)" : address
        let name = String(hello.name.prefix(100))
        sessions[peer, default: 0] += 1
        peerNames[peer] = name
        if sessions[peer] == 1 { sendWindows[peer] = nil }
        // Only people this daemon shares something with (or contacts) are remembered across
        // runs: a stream of strangers with new identities must not grow the database.
        if isKnown(peer) {
            try? store.rememberPeer(key: peer.bytes, name: name, address: reachable, timeMs: RFC3339.nowMs())
        }
        logger.info("peer connected", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        events.publish(
            Event(
                type: "peer", time: RFC3339.string(ms: RFC3339.nowMs()), author: peer.humanID,
                summary: "connected to \(displayName(of: peer))"))
        return sharedDocuments(with: peer).compactMap { makeOffer(for: $0, to: peer, reply: false) }
            + joinRequests(for: peer)
    }

    public func received(_ message: SyncMessage, from peer: PublicKey) async -> [SyncMessage] {
        switch message.kind {
        case .offer(let offer): return handleOffer(offer, from: peer)
        case .ops(let batch):
            return handleOps(batch, from: peer)
        case .join(let request): return handleJoinRequest(request, from: peer)
        case .joinRefused(let refused):
            handleJoinRefused(refused, from: peer)
            return []
        default: return []
        }
    }

    public func sessionClosed(with peer: PublicKey, reason: String) async {
        let left = (sessions[peer] ?? 1) - 1
        sessions[peer] = left > 0 ? left : nil
        if isKnown(peer) {
            try? store.rememberPeer(key: peer.bytes, name: peerNames[peer] ?? "", address: nil, timeMs: RFC3339.nowMs())
        }
        if left <= 0 {
            // Everything kept per peer goes with its last session (sync.md §7, "Bounds").
            sendWindows[peer] = nil
            fullPulls[peer] = nil
            peerVectors[peer] = nil
            offeredVectors[peer] = nil
            peerNames[peer] = nil
            for doc in provisional.keys {
                provisional[doc]?.remove(peer)
                if provisional[doc]?.isEmpty == true { provisional[doc] = nil }
            }
        }
        logger.info("peer disconnected", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "reason": "\(reason)"])
    }

    /// Whether this daemon has anything to do with `peer`: a contact, a participant of a
    /// document it holds, or a peer in a join in progress (either side). Strangers are closed
    /// after a short grace and never remembered.
    func isKnown(_ peer: PublicKey) -> Bool {
        if (try? store.isContact(peer.bytes)) == true { return true }
        // Someone whose invitation waits for the user's answer (bounded: sync.md §7.1).
        if let waiting = try? store.invitations(),
            waiting.contains(where: { $0.owner == peer.bytes || $0.via == peer.bytes })
        {
            return true
        }
        if provisional.values.contains(where: { $0.contains(peer) }) { return true }
        if pendingJoins.values.contains(where: { $0.asked.contains(peer) && $0.outcome == nil }) { return true }
        return !sharedDocuments(with: peer).isEmpty
    }

    /// Whether a session with `peer` may stay open (asked by the transport when a new
    /// session's grace runs out).
    public func keepSession(with peer: PublicKey) async -> Bool { isKnown(peer) }

    /// The profile name to tell `peer` in `Hello`: only people this daemon knows learn it.
    public func helloName(for peer: PublicKey) async -> String { isKnown(peer) ? currentProfileName() ?? "" : "" }

    // MARK: Offers

    /// Itinerary documents both this daemon and `peer` belong to, in this daemon's view.
    func sharedDocuments(with peer: PublicKey) -> [Store.DocumentRecord] {
        guard let me else { return [] }
        let docs = (try? store.documents(kind: .itinerary)) ?? []
        return docs.filter { doc in
            let participants = participants(of: doc)
            return participants.contains(peer) && participants.contains(me)
        }
    }

    /// Owner and current members of a document.
    /// Kept in `participantsCache` until ops that may change membership are stored.
    func participants(of doc: Store.DocumentRecord) -> Set<PublicKey> {
        if let cached = participantsCache[doc.id] { return cached }
        var out = Set<PublicKey>()
        if let owner = try? PublicKey(bytes: doc.owner) { out.insert(owner) }
        guard let members = try? store.members(of: doc.id) else { return out }
        for member in members {
            if let key = Engine.publicKey(hex: member.key) { out.insert(key) }
        }
        participantsCache[doc.id] = out
        return out
    }

    /// The version vector of a document, from `vectorCache` when it is there.
    func currentVector(_ doc: DocumentID) -> VersionVector? {
        if let cached = vectorCache[doc] { return cached }
        guard let vector = try? store.versionVector(of: doc) else { return nil }
        vectorCache[doc] = vector
        return vector
    }

    /// Keeps the caches current after ops were stored: the vectors of their documents, and
    /// the participants of `membership` (documents whose ops wrote `member` or `link`
    /// entities: roles, joins, leaves, link revocations).
    func noteStored(_ ops: [SignedOp], membership: Set<DocumentID>) {
        for op in ops { vectorCache[op.header.doc]?.include(op.header.authorKey, op.header.seq) }
        for doc in membership { participantsCache[doc] = nil }
    }

    /// The documents of `ops` whose participants may have changed with them.
    static func membershipDocuments(_ ops: [SignedOp], bodies: [OpBody]) -> Set<DocumentID> {
        var out = Set<DocumentID>()
        for (op, body) in zip(ops, bodies)
        where body.changes.contains(where: { $0.kind == .member || $0.kind == .link }) {
            out.insert(op.header.doc)
        }
        return out
    }

    /// Forgets cached vectors and participants (after writes that bypass `noteStored`).
    func forgetDocumentState() {
        vectorCache.removeAll()
        participantsCache.removeAll()
    }

    func makeOffer(for doc: Store.DocumentRecord, to peer: PublicKey, reply: Bool) -> SyncMessage? {
        guard let vector = currentVector(doc.id) else { return nil }
        var offer = Places_Sync_V1_DocOffer()
        offer.doc = Data(doc.id.bytes)
        offer.owner = Data(doc.owner)
        offer.vector = vector.seqs.keys.sorted().compactMap { author in
            guard let raw = HexCoding.decode(author) else { return nil }
            var entry = Places_Sync_V1_VersionEntry()
            entry.author = Data(raw)
            entry.seq = vector[author]
            return entry
        }
        // The receiver's own grants, then those of the other members, so that any participant
        // can hand a newcomer its key (only the newcomer can open its grant). A grant may
        // arrive before the op that makes its member one, so only grants of members removed
        // (or gone) in this daemon's view are held back (sync.md §7, "Offers").
        let gone = (try? store.formerMembers(of: doc.id)) ?? []
        let grants = ((try? store.grants(in: doc.id)) ?? []).filter { !gone.contains(HexCoding.encode($0.member)) }
        let forReceiver = grants.filter { $0.member == peer.bytes }
        let forOthers = grants.filter { $0.member != peer.bytes }
        offer.grants = (forReceiver + forOthers).prefix(Engine.maxGrantsPerOffer).map(Engine.wire)
        offer.reply = reply
        // What an invitation shows, only for a peer that has not shown it holds the document
        // in this session (pulls during a long sync skip the member scan).
        if peerVectors[peer]?[doc.id] == nil {
            offer.fromName = String((currentProfileName() ?? "").prefix(100))
            if let name = entityName(in: doc.id, doc.id.hex) { offer.name = String(name.prefix(200)) }
            if let member = ((try? store.members(of: doc.id)) ?? []).first(where: { $0.key == peer.hex }),
                Store.activeRoles.contains(member.role)
            {
                offer.role = member.role
            }
        }
        var message = SyncMessage()
        message.offer = offer
        return message
    }

    private func handleOffer(_ offer: Places_Sync_V1_DocOffer, from peer: PublicKey) -> [SyncMessage] {
        guard let me, let docID = DocumentID(bytes: [UInt8](offer.doc)) else { return [] }
        guard offer.owner.count == 32, offer.vector.count <= Engine.maxVectorEntries,
            offer.vector.allSatisfy({ $0.author.count == 32 && $0.seq <= Engine.maxOfferedSeq })
        else {
            logger.warning(
                "ignored a malformed offer",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "entries": "\(offer.vector.count)",
                ])
            return []
        }
        var record = try? store.document(docID)
        // The peer that just handed this daemon the document is answered even before the ops
        // that make it a participant here have arrived.
        let handedOver = record == nil
        if record == nil, admitJoin(offer, doc: docID, from: peer) {
            record = try? store.document(docID)
        } else if record == nil {
            // A document this daemon does not hold: it is added only with the user's consent
            // (sync.md §7.1) — directly when the owner is a contact, else as an invitation.
            record = receiveShare(offer, doc: docID, from: peer)
            guard let joined = record else { return [] }
            offerToConnected(joined, newcomers: participants(of: joined).subtracting([peer]))
        }
        guard let record else { return [] }
        // Keep the owner-signed grants of other members, to hand them on — whoever brings them:
        // only the owner can sign one, and a participant this daemon does not know of yet (its
        // role write has not arrived) may bring the grant before the op. Grants already held
        // are skipped before any signature is checked, and at most `maxGrantsPerOffer` are
        // verified per offer.
        let newGrants = keepGrants(offer, record: record)
        // New grants travel on at once to every connected participant (a member several hops
        // away gets its key without waiting for a reconnect).
        if newGrants { offerToConnected(record, newcomers: participants(of: record).subtracting([peer])) }
        guard
            handedOver || participants(of: record).contains(peer) || provisional[docID]?.contains(peer) == true
                || pendingJoins[docID]?.admittedBy == peer
        else {
            // The peer is not a member in this daemon's view: it learns nothing.
            return []
        }
        var theirs = VersionVector()

        for entry in offer.vector { theirs.include(HexCoding.encode(entry.author), entry.seq) }
        peerVectors[peer, default: [:]][docID] = theirs
        offeredVectors[peer, default: [:]][docID] = theirs
        var out = nextRound(to: peer, doc: docID, theirs: theirs, fresh: !offer.reply)
        if !offer.reply, let mine = makeOffer(for: record, to: peer, reply: true) { out.insert(mine, at: 0) }
        completeJoinIfCaughtUp(docID, from: peer)
        return out
    }

    /// Stores the offer's valid owner-signed grants not held yet (opening the one to this
    /// daemon); returns whether there were any.
    private func keepGrants(_ offer: Places_Sync_V1_DocOffer, record: Store.DocumentRecord) -> Bool {
        guard let me else { return false }
        let held = Set(((try? store.grants(in: record.id)) ?? []).map(\.signature))
        var newGrants = false
        var verified = 0
        for grant in offer.grants.lazy.compactMap(Engine.keyGrant)
        where grant.doc == record.id && grant.issuer == record.owner && !held.contains(grant.signature) {
            guard verified < Engine.maxGrantsPerOffer else { break }
            verified += 1
            guard grant.isValid else { continue }
            try? store.saveGrant(grant)
            newGrants = true
            if grant.member == me.bytes { openGrant(grant) }
        }
        return newGrants
    }

    /// An offer of a document this daemon does not hold, with no join pending: joins it when
    /// it carries a valid grant to this identity signed by the owner it names and that owner
    /// is a contact; records an invitation when the owner is anyone else. Returns the
    /// document when it is now held.
    private func receiveShare(_ offer: Places_Sync_V1_DocOffer, doc docID: DocumentID, from peer: PublicKey)
        -> Store.DocumentRecord?
    {
        guard let me, let identity else { return nil }
        let owner = [UInt8](offer.owner)
        guard
            let grant = offer.grants.prefix(Engine.maxGrantsPerOffer).lazy.compactMap(Engine.keyGrant).first(where: {
                $0.doc == docID && $0.member == me.bytes && $0.issuer == owner && $0.isValid
            }), let ownerKey = try? PublicKey(bytes: owner), ownerKey != me
        else {
            logger.debug(
                "an offer of a document not held carries no grant to this daemon",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            return nil
        }
        guard (try? store.isContact(owner)) == true else {
            let name = offer.name.isEmpty ? nil : String(offer.name.prefix(200))
            let role = ["editor", "viewer"].contains(offer.role) ? offer.role : nil
            let invitation = Store.InvitationRecord(
                grant: grant, owner: owner, via: peer.bytes,
                ownerName: peer == ownerKey && !offer.fromName.isEmpty ? String(offer.fromName.prefix(100)) : nil,
                name: name, role: role, receivedMs: RFC3339.nowMs(), declined: false)
            switch (try? store.recordInvitation(invitation)) ?? .full {
            case .recorded:
                logger.info(
                    "an itinerary was shared by someone who is not a contact: kept as an invitation",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
                events.publish(
                    Event(
                        type: "invited", time: RFC3339.string(ms: RFC3339.nowMs()), doc: docID.hex,
                        docKind: "itinerary", author: ownerKey.humanID,
                        summary: "\(invitation.ownerName ?? displayName(of: ownerKey)) invites you to "
                            + "“\(name ?? "an itinerary")”"))
            case .known: break
            case .full:
                logger.warning(
                    "dropped an invitation: too many are waiting",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            }
            return nil
        }
        guard let key = try? SealedBox.open(grant.sealedKey, with: identity) else { return nil }
        return addSharedDocument(grant, key: key, owner: ownerKey, from: peer)
    }

    /// Adds a document shared with this identity (a contact's share, or an accepted
    /// invitation) with the key of `grant`.
    func addSharedDocument(_ grant: KeyGrant, key: [UInt8], owner: PublicKey, from peer: PublicKey?)
        -> Store.DocumentRecord?
    {
        do {
            forgetDocumentState()
            try store.joinDocument(grant, kind: .itinerary, owner: owner.bytes, timeMs: RFC3339.nowMs())
        } catch {
            logger.error("joining a shared document failed", metadata: ["doc.id": "\(grant.doc)", "error": "\(error)"])
            return nil
        }
        var ring = keyringCopy()
        ring.insert(key, doc: grant.doc, epoch: grant.epoch)
        setKeyring(ring)
        logger.info(
            "joined a shared itinerary",
            metadata: ["doc.id": "\(grant.doc)", "peer.id": "\(peer.map { String($0.humanID.prefix(7)) } ?? "-")"])
        events.publish(
            Event(
                type: "shared", time: RFC3339.string(ms: RFC3339.nowMs()), doc: grant.doc.hex, docKind: "itinerary",
                author: owner.humanID, summary: "an itinerary was shared with you"))
        return try? store.document(grant.doc)
    }

    /// Takes the key of a new epoch (after a rotation) from the owner's grant to this daemon.
    private func openGrant(_ grant: KeyGrant) {
        guard let identity, keyringCopy().key(grant.doc, epoch: grant.epoch) == nil,
            let key = try? SealedBox.open(grant.sealedKey, with: identity)
        else { return }
        do {
            try store.addDocumentKey(grant.doc, epoch: grant.epoch, sealed: grant.sealedKey)
        } catch {
            logger.error("keeping a document key failed", metadata: ["doc.id": "\(grant.doc)", "error": "\(error)"])
            return
        }
        var ring = keyringCopy()
        ring.insert(key, doc: grant.doc, epoch: grant.epoch)
        setKeyring(ring)
        logger.info("received a new document key", metadata: ["doc.id": "\(grant.doc)", "epoch": "\(grant.epoch)"])
    }

    // MARK: Rounds

    /// Answers an offer of `peer` (which holds `theirs`): the next round of ops it lacks,
    /// after those already sent to it and not yet acknowledged, as long as fewer than
    /// `maxInFlightBytes` are in flight. An offer with `reply = false` (a new exchange)
    /// starts from its vector alone.
    func nextRound(to peer: PublicKey, doc: DocumentID, theirs: VersionVector, fresh: Bool) -> [SyncMessage] {
        var window = (fresh ? nil : sendWindows[peer]?[doc]) ?? SendWindow(frontier: theirs)
        if !window.acknowledge(theirs) {
            // The peer stored less than was sent (it refused an op): start again from what it holds.
            window = SendWindow(frontier: theirs)
        }
        let out = fillWindow(&window, doc: doc)
        sendWindows[peer, default: [:]][doc] = window
        return out
    }

    /// One more round for `window` if it has room, in batches, each recorded as in flight.
    private func fillWindow(_ window: inout SendWindow, doc: DocumentID) -> [SyncMessage] {
        guard window.inFlightBytes + Engine.maxRoundBytes <= Engine.maxInFlightBytes,
            let round = try? store.ops(
                of: doc, missingFrom: window.frontier, after: window.readThrough, maxBytes: Engine.maxRoundBytes),
            !round.ops.isEmpty
        else { return [] }
        let started = ContinuousClock.now
        var frontier = window.frontier
        var sizes = [Int]()
        var index = 0
        let messages = batches(of: round.ops, doc: doc) { _ in
            frontier.include(round.stamps[index].author, round.stamps[index].seq)
            index += 1
        } onBatch: { bytes in
            window.inFlight.append((through: frontier, bytes: bytes))
            sizes.append(bytes)
        }
        window.readThrough = round.readThrough
        window.frontier = frontier
        logger.debug(
            "sending a round of ops",
            metadata: [
                "doc.id": "\(doc)", "ops": "\(round.ops.count)", "batches": "\(sizes.count)",
                "in.flight.bytes": "\(window.inFlightBytes)",
                "ms": "\(Engine.milliseconds(ContinuousClock.now - started))",
            ])
        return messages
    }

    /// Sends new ops (a local commit, or ops from one peer relayed to the others) to each of
    /// `recipients`. A recipient still being sent older ops in rounds would get these before
    /// ops they depend on and refuse them: it gets a fresh offer instead (so it keeps pulling
    /// until it holds them) and the next round if there is room. `before` is what this
    /// daemon held before the ops.
    func push(_ ops: [SignedOp], doc: DocumentID, to recipients: [PublicKey], before: VersionVector?) {
        guard !ops.isEmpty, !recipients.isEmpty else { return }
        var direct = [PublicKey]()
        var toOffer = Set<PublicKey>()
        for recipient in recipients where sessions[recipient] != nil {
            // A peer that has not offered this document in this session may not hold it yet (a
            // new member): ops it cannot place would be dropped. It gets an offer, and pulls.
            guard peerVectors[recipient]?[doc] != nil else {
                toOffer.insert(recipient)
                continue
            }
            guard var window = sendWindows[recipient]?[doc] else {
                direct.append(recipient)
                continue
            }
            if let before, window.frontier.includes(before) {
                for op in ops { window.frontier.include(op.header.authorKey, op.header.seq) }
                sendWindows[recipient]?[doc] = window
                direct.append(recipient)
                continue
            }
            var messages = [SyncMessage]()
            if let record = try? store.document(doc), let offer = makeOffer(for: record, to: recipient, reply: true) {
                messages.append(offer)
            }
            messages += fillWindow(&window, doc: doc)
            sendWindows[recipient]?[doc] = window
            outbox.yield(Outgoing(doc: doc, messages: messages, recipients: [recipient]))
        }
        if !toOffer.isEmpty, let record = try? store.document(doc) { offerToConnected(record, newcomers: toOffer) }
        guard !direct.isEmpty else { return }
        outbox.yield(Outgoing(doc: doc, messages: batches(of: ops.map(\.encoded), doc: doc), recipients: direct))
    }

    // MARK: Ops

    /// `ops` in `OpsBatch` messages of at most `maxBatchBytes`; `onOp` sees each op as it
    /// is added, `onBatch` each batch's bytes once it is complete.
    func batches(
        of ops: [[UInt8]], doc: DocumentID, onOp: ([UInt8]) -> Void = { _ in }, onBatch: (Int) -> Void = { _ in }
    ) -> [SyncMessage] {
        var out = [SyncMessage]()
        var current = [Data]()
        var size = 0
        func flush() {
            guard !current.isEmpty else { return }
            var batch = Places_Sync_V1_OpsBatch()
            batch.doc = Data(doc.bytes)
            batch.ops = current
            var message = SyncMessage()
            message.ops = batch
            out.append(message)
            onBatch(size)
            current = []
            size = 0
        }
        for op in ops {
            if size + op.count > Engine.maxBatchBytes { flush() }
            current.append(Data(op))
            size += op.count
            onOp(op)
        }
        flush()
        return out
    }

    /// Stores a batch; returns a new offer to the sender when this daemon is still behind
    /// the sender's last offer (pulling the next round).
    private func handleOps(_ batch: Places_Sync_V1_OpsBatch, from peer: PublicKey) -> [SyncMessage] {
        let started = ContinuousClock.now
        logger.debug("ops received", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "ops": "\(batch.ops.count)"])
        guard let docID = DocumentID(bytes: [UInt8](batch.doc)), let record = try? store.document(docID) else {
            return []
        }
        let participantsBefore = participants(of: record)
        guard
            participantsBefore.contains(peer) || provisional[docID]?.contains(peer) == true
                || pendingJoins[docID]?.admittedBy == peer
                // A peer whose offer was accepted (it handed this daemon the document before
                // this daemon holds the ops that make it a member).
                || offeredVectors[peer]?[docID] != nil
        else {
            // A removed member (or a stranger) sending ops: ignored, as its offers are.
            logger.warning(
                "ignored ops from a peer that is not a member of the itinerary",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "ops": "\(batch.ops.count)"])
            return []
        }
        let before = currentVector(docID)
        let ingestStarted = ContinuousClock.now
        let result: Store.IngestResult
        do {
            result = try store.ingest(batch.ops.map { [UInt8]($0) }, doc: docID, keyring: keyringCopy())
        } catch {
            // Part of the batch may be stored: read the vector again.
            forgetDocumentState()
            logger.error("storing received ops failed", metadata: ["doc.id": "\(docID)", "error": "\(error)"])
            return []
        }
        let ingested = ContinuousClock.now
        noteStored(result.stored, membership: Engine.membershipDocuments(result.stored, bodies: result.bodies))
        defer {
            // Where a batch's time goes (the live-latency and bulk-sync figures).
            let done = ContinuousClock.now
            logger.debug(
                "ops handled",
                metadata: [
                    "doc.id": "\(docID)", "ops": "\(result.stored.count)",
                    "before.ms": "\(Engine.milliseconds(ingestStarted - started))",
                    "ingest.ms": "\(Engine.milliseconds(ingested - ingestStarted))",
                    "after.ms": "\(Engine.milliseconds(done - ingested))",
                ])
        }
        if let rejected = result.rejected {
            logger.warning(
                "rejected an op from a peer",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "reason": "\(rejected.reason)",
                ])
        }
        // An op that came before what it depends on (a live push that overtook a round): this
        // daemon is behind the sender. A fresh offer tells it what is held, and it sends again
        // from there (sync.md §7, "Rounds"). One offer per such batch, whatever the sender does.
        var pull = [SyncMessage]()
        if let rejected = result.rejected?.reason, rejected.isOutOfOrder,
            var again = makeOffer(for: record, to: peer, reply: true)
        {
            // A push that overtook a round is fixed by the fresh offer alone: the round brings
            // what the sender offered. A dependency missing when everything the sender offered
            // is held or in this very batch is the other branch of an equivocation neither side
            // knew of: an empty vector pulls the sender's whole log, once per document and
            // session (sync.md §7, "Equivocation").
            if rejected == .missingDependency, fullPulls[peer]?.contains(docID) != true,
                let offered = offeredVectors[peer]?[docID], var covered = currentVector(docID)
            {
                for bytes in batch.ops {
                    if let op = try? SignedOp(decoding: [UInt8](bytes)) {
                        covered.include(op.header.authorKey, op.header.seq)
                    }
                }
                if offered.seqs.allSatisfy({ covered[$0.key] >= $0.value }) {
                    fullPulls[peer, default: []].insert(docID)
                    again.offer.vector = []
                    logger.notice(
                        "a dependency is missing though nothing offered is: pulling the peer's whole log once",
                        metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
                }
            }
            pull = [again]
        }
        guard !result.stored.isEmpty else { return pull }
        if result.equivocations > 0 {
            logger.warning(
                "stored ops of a member who signed two different ops at one position (equivocation)",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "ops": "\(result.equivocations)",
                ])
        }
        if result.excluded > 0 {
            logger.notice(
                "stored ops made concurrently with their author's removal; they are not applied",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "ops": "\(result.excluded)"])
        }
        responseCache.removeAll()
        defer { completeJoinIfCaughtUp(docID, from: peer) }
        if var theirs = peerVectors[peer]?[docID] {
            for op in result.stored { theirs.include(op.header.authorKey, op.header.seq) }
            peerVectors[peer]?[docID] = theirs
        }
        let name = entityName(in: docID, docID.hex) ?? "an itinerary"
        for author in Set(result.stored.map(\.header.author)) {
            guard let key = try? PublicKey(bytes: author) else { continue }
            events.publish(
                Event(
                    type: "changed", time: RFC3339.string(ms: RFC3339.nowMs()), doc: docID.hex, docKind: "itinerary",
                    author: key.humanID, summary: "\(displayName(of: key)) changed “\(name)”"))
        }
        // The owner hears when someone opens the itinerary (the stories' "receiver has viewed").
        if record.owner == me?.bytes {
            for (op, body) in zip(result.stored, result.bodies)
            where body.changes.contains(where: { $0.kind == .view && $0.entity == op.header.authorKey }) {
                guard let key = try? PublicKey(bytes: op.header.author) else { continue }
                events.publish(
                    Event(
                        type: "viewed", time: RFC3339.string(ms: body.timeMs), doc: docID.hex, docKind: "itinerary",
                        author: key.humanID, summary: "\(displayName(of: key)) viewed “\(name)”"))
            }
        }
        // Relay to the other participants (a box in the van keeps everyone in sync).
        let participantsNow = participants(of: record)
        push(result.stored, doc: docID, to: participantsNow.filter { $0 != peer && $0 != me }, before: before)
        // Members added by these ops: offer them the itinerary if they are connected here, and
        // offer it again to the other connected participants, whose next offers then carry
        // the newcomers' key grants on (a share travels several hops without a reconnect).
        if !participantsNow.subtracting(participantsBefore).isEmpty {
            offerToConnected(record, newcomers: participantsNow.subtracting([peer]))
        }
        // Still behind what the sender offered? Ask for the next round.
        if let offered = offeredVectors[peer]?[docID], let mine = currentVector(docID),
            offered.seqs.contains(where: { mine[$0.key] < $0.value }),
            let again = makeOffer(for: record, to: peer, reply: true)
        {
            return [again]
        }
        return pull
    }

    /// A duration in milliseconds with two decimals, for debug logs.
    static func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", ms)
    }

    /// Queues a fresh offer of `doc` to the given participants (those not connected are
    /// skipped by the transport; they get offers when they next connect). Called whenever this
    /// daemon starts holding a document, learns of new participants or of new key grants:
    /// what makes a share travel several hops at once (sync.md §7, "Propagation").
    func offerToConnected(_ doc: Store.DocumentRecord, newcomers: Set<PublicKey>) {
        for newcomer in newcomers where newcomer != me && sessions[newcomer] != nil {
            guard let message = makeOffer(for: doc, to: newcomer, reply: false) else { continue }
            logger.debug(
                "offering a document",
                metadata: [
                    "peer.id": "\(newcomer.humanID.prefix(7))", "doc.id": "\(doc.id)",
                    "grants": "\(message.offer.grants.count)",
                ])
            outbox.yield(Outgoing(doc: doc.id, messages: [message], recipients: [newcomer]))
        }
    }

    /// After a local commit to a shared itinerary: push the new ops to its participants.
    func pushLocal(_ ops: [SignedOp], doc: DocumentID) {
        guard let record = try? store.document(doc), record.kind == .itinerary, let me else { return }
        let recipients = participants(of: record).filter { $0 != me }
        logger.debug(
            "pushing local ops",
            metadata: ["doc.id": "\(doc)", "ops": "\(ops.count)", "recipients": "\(recipients.count)"])
        guard !recipients.isEmpty else { return }
        // What this daemon held before: its own ops of this commit taken out.
        var before = currentVector(doc)?.seqs
        if let first = ops.first(where: { $0.header.author == me.bytes }) {
            before?[me.hex] = first.header.seq - 1
        }
        push(ops, doc: doc, to: Array(recipients), before: before.map { VersionVector($0) })
    }

    /// The `name` of an entity, if it has one (nil for an entity not held).
    func entityName(in doc: DocumentID, _ entity: String) -> String? {
        guard let record = try? store.entity(in: doc, id: entity) else { return nil }
        return Views.fields(record)["name"]?.stringValue
    }

    func displayName(of key: PublicKey) -> String {
        if key == me { return currentProfileName() ?? "you" }
        if let name = peerNames[key], !name.isEmpty { return name }
        if let stored = (try? store.peers())?.first(where: { $0.key == key.bytes }), !stored.name.isEmpty {
            return stored.name
        }
        if let contact = (try? store.contacts())?.first(where: { $0.key == key.bytes }), !contact.name.isEmpty {
            return contact.name
        }
        // The name a member gave when it joined through a link (it may never have connected here).
        if let joined = try? store.memberName(key.hex), !joined.isEmpty { return joined }
        return String(key.humanID.prefix(7))
    }

    /// A received grant; nil when its document id is not 16 bytes.
    static func keyGrant(_ g: Places_Sync_V1_KeyGrant) -> KeyGrant? {
        guard let doc = DocumentID(bytes: [UInt8](g.doc)) else { return nil }
        return KeyGrant(
            doc: doc,
            epoch: g.epoch,
            member: [UInt8](g.member), sealedKey: [UInt8](g.sealedKey), issuer: [UInt8](g.issuer),
            signature: [UInt8](g.signature))
    }
}
