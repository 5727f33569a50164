import Foundation
import Logging
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

public typealias SyncMessage = Places_Sync_V1_SyncMessage

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
