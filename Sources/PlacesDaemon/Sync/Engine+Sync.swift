import Foundation
import Logging
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// The daemon's side of replication: the engine is the `ReplicationHost` of its `Replicator`
/// (PlacesSync), adapting the store, the keyring and its decisions (who is known, consent,
/// joins) to it, and hands it local commits. The wire, offers, rounds, send windows and
/// relaying are the replicator's.
extension Engine: ReplicationHost {
    /// Gives the replicator this engine as its host; the transport is built on what it returns.
    public func startReplication() async -> Replicator {
        await replicator.attach(self)
        relays.known = Set(((try? store.relays()) ?? []).map(\.key))
        relays.named = (try? store.relayKeysNamed()) ?? []
        return replicator
    }

    /// This device's key; while joining a person as a new device (no identity yet), the key
    /// it is pairing with.
    public func replicaIdentity() async -> SigningKeyPair? { identity ?? devices.joining?.key }

    public func profileName() async -> String? { currentProfileName() }

    public func knows(_ peer: PublicKey) async -> Bool {
        isKnown(person(of: peer)) || keepsForDevices(peer) || relays.isRelay(peer)
    }

    public func peerConnected(_ peer: PublicKey, name: String, address: String) async {
        if devices.joining?.issuer == peer { devices.joining?.issuerAddress = address }
        relayPeerConnected(peer)
        if !relays.isRelay(peer) { await steerLearnedRelays() }
        syncComponent.peerConnected(peer, name: name)
        publishing.peerConnected(peer, address: address)
        publishedFollowConnection(peer)
        // Only people this daemon shares something with (or contacts) are remembered across
        // runs: a stream of strangers with new identities must not grow the database.
        if isKnown(person(of: peer)) || isSibling(peer) {
            try? store.rememberPeer(key: peer.bytes, name: name, address: address, timeMs: RFC3339.nowMs())
        }
        logger.info("peer connected", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        events.publish(
            Event(
                type: "peer", time: RFC3339.string(ms: RFC3339.nowMs()), author: peer.humanID,
                summary: "connected to \(displayName(of: peer))"))
    }

    public func peerDisconnected(_ peer: PublicKey, lastSession: Bool) async {
        if isKnown(person(of: peer)) || isSibling(peer) {
            try? store.rememberPeer(
                key: peer.bytes, name: syncComponent.peerNames[peer] ?? "", address: nil, timeMs: RFC3339.nowMs())
        }
        devices.peerDisconnected(peer, lastSession: lastSession, nowMs: RFC3339.nowMs())
        relayPeerDisconnected(peer, lastSession: lastSession)
        guard lastSession else { return }
        relayPhotosPeerGone(peer)
        syncComponent.peerDisconnected(peer)
        if !relays.isRelay(peer) { await steerLearnedRelays() }
        publishing.peerDisconnected(peer)
        joins.peerDisconnected(peer)
    }

    public func sharedDocumentIDs(with peer: PublicKey) async -> [DocumentID] {
        // A relay keeps the documents chosen for relays (relay.md §4).
        if relays.isRelay(peer) { return relayDocumentIDs(for: peer) }
        // Another device of this person holds everything this one does (devices.md §4.3).
        if isSibling(peer) { return siblingDocuments() }
        // A device is offered what its person shares with this daemon.
        let person = person(of: peer)
        // Published trips are not in `sharedDocuments`: a network trip is offered to anyone
        // who connects, and that must not make a stranger known.
        return (sharedDocuments(with: person) + publishedDocuments(with: person)).map(\.id)
    }

    /// The itineraries shared with a person's device, for the session's opening summary
    /// (sync.md §7): not with relays or this person's own devices, and never one with an
    /// equivocation held or a join in progress (those are offered).
    public func openingSummary(with peer: PublicKey) async -> [OpeningSummary.Entry]? {
        guard !relays.isRelay(peer), !isSibling(peer), let (facts, equivocated) = try? store.summaryFacts() else {
            return nil
        }
        let joining = Set(joins.joiningDocuments)
        return sharedDocuments(with: person(of: peer)).compactMap { record in
            guard record.kind == .itinerary, !equivocated.contains(record.id), !joining.contains(record.id),
                let vector = currentVector(record.id)
            else { return nil }
            let fact = facts[record.id]
            return OpeningSummary.Entry(
                doc: record.id, vector: vector, grantEpoch: fact?.grantEpoch ?? 0,
                grantMembers: fact?.grantMembers ?? [], access: fact?.access)
        }
    }

    public func document(_ doc: DocumentID) async -> ReplicaDocument? {
        guard let record = try? store.document(doc) else { return nil }
        return Engine.replica(record)
    }

    /// A stored document as replication sees it.
    static func replica(_ record: Store.DocumentRecord) -> ReplicaDocument {
        let kind: ReplicaDocument.Kind =
            switch record.kind {
            case .card: .card
            case .outbox: .outbox
            case .published: .published
            case .library: .library
            case .profile: .profile
            default: .itinerary
            }
        return ReplicaDocument(id: record.id, owner: record.owner, isShared: true, kind: kind)
    }

    /// The document's participants and their connected devices (devices.md §6).
    public func participants(in doc: DocumentID) async -> Set<PublicKey> {
        guard let record = try? store.document(doc) else { return [] }
        return withDevices(participants(of: record)).union(relayPeers(of: record))
    }

    public func isAdmitting(_ peer: PublicKey, to doc: DocumentID) async -> Bool {
        joins.isAdmitting(peer, to: doc)
    }

    public func versionVector(of doc: DocumentID) async -> VersionVector? { currentVector(doc) }

    public func offerContent(of doc: DocumentID, to peer: PublicKey, describe: Bool) async -> OfferContent? {
        guard let record = try? store.document(doc), let vector = currentVector(doc) else { return nil }
        if isSibling(peer) { return siblingOffer(record, vector: vector, to: peer) }
        if relays.isRelay(peer) { return relayOffer(record, vector: vector) }
        let receiver = peer
        let peer = person(of: peer)
        // Grants of members removed (or gone) in this daemon's view are held back (sync.md §7,
        // "Offers"); a grant may arrive before the op that makes its member one.
        if record.kind == .published {
            // A published trip goes only from its author; a private one's offer carries only
            // the receiver's grant, a network one's none (its key is derived from its id).
            let network = record.owner != me?.bytes || publicationsByDoc()[doc]?.audience == "network"
            let grant =
                record.owner == me?.bytes && !network && participants(of: record).contains(peer)
                ? ensureCardGrant(record, to: receiver) : nil
            var content = OfferContent(owner: record.owner, vector: vector, grants: grant.map { [$0] } ?? [])
            content.kind = .published
            if record.owner == me?.bytes {
                content.role = network ? "network" : "friends"
                content.salt = publicationsByDoc()[doc]?.salt ?? []
            }
            return content
        }
        if record.kind == .card || record.kind == .outbox {
            // A card's or outbox's offer carries only the receiver's grant: a contact learns
            // nothing of the owner's other contacts. The owner issues it the first time it
            // offers the document to them.
            let grant =
                record.owner == me?.bytes && participants(of: record).contains(peer)
                ? ensureCardGrant(record, to: receiver)
                : nil
            var content = OfferContent(owner: record.owner, vector: vector, grants: grant.map { [$0] } ?? [])
            content.kind = record.kind == .card ? .card : .outbox
            // A friend request shows who asks.
            if describe, record.kind == .outbox {
                content.fromName = currentProfileName() ?? ""
                if record.owner == me?.bytes, let token = friendLinkToken(for: peer) { content.friendToken = token }
            }
            return content
        }
        let gone = (try? store.formerMembers(of: doc)) ?? []
        // This daemon's own grants first (newest epoch first), then the others newest epoch
        // first: they vouch for this daemon, and the newest epoch's name the members, at a
        // receiver that holds no role events yet (sync.md §7, "Offers").
        let mine = me?.bytes
        let grants = ((try? store.grants(in: doc)) ?? []).filter { !gone.contains(HexCoding.encode($0.member)) }
            .sorted { a, b in
                let (aMine, bMine) = (a.member == mine, b.member == mine)
                return aMine != bMine ? aMine : a.epoch > b.epoch
            }
        var content = OfferContent(owner: record.owner, vector: vector, grants: grants)
        content.relayAccess = relayAccess(for: record)?.encoded ?? []
        if describe {
            content.fromName = currentProfileName() ?? ""
            content.name = entityName(in: doc, doc.hex)
            if let role = try? store.activeRole(of: peer.hex, in: doc, causalPast: vector) { content.role = role }
        }
        return content
    }

    public func ops(of doc: DocumentID, missingFrom: VersionVector, after: Int64, maxBytes: Int) async -> ReplicaRound?
    {
        guard
            let round = try? store.ops(
                of: doc, missingFrom: missingFrom, after: after, maxBytes: maxBytes, held: currentVector(doc))
        else {
            return nil
        }
        return ReplicaRound(ops: round.ops, stamps: round.stamps, readThrough: round.readThrough)
    }

    public func heldOps(_ ids: [[UInt8]], in doc: DocumentID) async -> Set<[UInt8]>? {
        try? store.heldOpIDs(ids, of: doc)
    }

    public func ops(withIDs ids: [[UInt8]], in doc: DocumentID, maxBytes: Int) async -> ReplicaRound? {
        guard let found = try? store.ops(withIDs: ids, of: doc, maxBytes: maxBytes) else { return nil }
        return ReplicaRound(ops: found.ops, stamps: found.stamps, readThrough: found.readThrough)
    }

    public func heldGrantSignatures(in doc: DocumentID) async -> Set<[UInt8]> {
        Set(((try? store.grants(in: doc)) ?? []).map(\.signature))
    }

    /// Grants of one document kept from peers (those to this daemon always are): a trip's
    /// owner who signs grants without end would otherwise make every offer slower to answer
    /// and every key they name a participant (sync.md §7, "Bounds").
    static let maxGrantsPerDocument = 4_096

    public func keepGrants(_ grants: [KeyGrant]) async -> Bool {
        guard let me else { return false }
        var kept = false
        var held = [DocumentID: Int](), full = Set<DocumentID>()
        for grant in grants {
            let count = held[grant.doc] ?? ((try? store.grantCount(in: grant.doc)) ?? 0)
            let toThisDevice = grant.member == me.bytes || grant.member == identity?.publicKey.bytes
            guard count < Engine.maxGrantsPerDocument || toThisDevice else {
                full.insert(grant.doc)
                continue
            }
            // Another device of this person hands on keys this one may lack; one it holds
            // already is not kept: on a person's first device (whose key is the person's) it
            // would replace the owner's grant to the person, to be replaced back at the next
            // offer, each time a new grant that is offered on.
            if toThisDevice, grant.issuer != (try? store.document(grant.doc))?.owner,
                keyringCopy().key(grant.doc, epoch: grant.epoch) != nil
            {
                continue
            }
            guard grant.isValid, mayIssue(grant) else { continue }
            held[grant.doc] = count + 1
            try? store.saveGrant(grant)
            kept = true
            // A grant names a member before its role event may have arrived (participants).
            didStore(.grant(grant.doc))
            if toThisDevice { openGrant(grant) }
        }
        for doc in full {
            logger.warning("ignored grants past the bound of one document", metadata: ["doc.id": "\(doc)"])
        }
        return kept
    }

    /// Takes the key of a new epoch (after a rotation) from the owner's grant to this daemon.
    private func openGrant(_ grant: KeyGrant) {
        guard let identity, keyringCopy().key(grant.doc, epoch: grant.epoch) == nil,
            let key = openSealed(grant)
        else { return }
        do {
            // Kept sealed to this device's own key (a grant to the person is sealed to another).
            try store.addDocumentKey(
                grant.doc, epoch: grant.epoch, sealed: try SealedBox.seal(key, to: identity.publicKey))
        } catch {
            logger.error("keeping a document key failed", metadata: ["doc.id": "\(grant.doc)", "error": "\(error)"])
            return
        }
        addKey(key, doc: grant.doc, epoch: grant.epoch)
        logger.info("received a new document key", metadata: ["doc.id": "\(grant.doc)", "epoch": "\(grant.epoch)"])
    }

    public func caughtUp(with peer: PublicKey, on doc: DocumentID, offered: VersionVector) async {
        completeJoinIfCaughtUp(doc, from: peer, offered: offered)
    }

    public func receiveShare(_ offer: ReceivedOffer, from peer: PublicKey) async -> ReplicaDocument? {
        if isSibling(peer) { return adoptFromSibling(offer, from: peer).map(Engine.replica) }
        // A relay hands on documents this daemon holds, never a new one.
        if relays.isRelay(peer) { return nil }
        let peer = person(of: peer)
        if offer.kind == .library || offer.kind == .profile { return nil }
        if offer.kind == .card { return receiveCard(offer, from: peer).map(Engine.replica) }
        if offer.kind == .outbox { return receiveOutbox(offer, from: peer).map(Engine.replica) }
        if offer.kind == .published { return receivePublished(offer, from: peer).map(Engine.replica) }
        guard let record = receiveShare(offer, doc: offer.doc, from: peer) else { return nil }
        return Engine.replica(record)
    }

    public func admitJoin(_ offer: ReceivedOffer, from peer: PublicKey) async -> Bool {
        guard !relays.isRelay(peer) else { return false }
        return admitJoin(offer, doc: offer.doc, from: peer)
    }

    public func joinPresentations(for peer: PublicKey) async -> [JoinPresentation] { joinRequests(for: peer) }

    public func answerJoin(_ presentation: JoinPresentation, from peer: PublicKey) async -> JoinAnswer? {
        handleJoinRequest(presentation, from: peer)
    }

    public func joinRefused(_ refusal: JoinRefusal, from peer: PublicKey) async {
        handleJoinRefused(refusal, from: peer)
    }

    // MARK: Documents and participants, cached

    /// Itinerary documents both this daemon and `peer` belong to, in this daemon's view, and
    /// the contact cards exchanged with `peer` (this identity's, when `peer` is in its
    /// audience; `peer`'s own).
    func sharedDocuments(with peer: PublicKey) -> [Store.DocumentRecord] {
        guard let me else { return [] }
        let docs = syncComponent.itineraryRecords(store)
        var shared = docs.filter { doc in
            let participants = participants(of: doc)
            return participants.contains(peer) && participants.contains(me)
        }
        for card in (try? store.documents(kind: .card)) ?? [] {
            if card.owner == peer.bytes || (card.owner == me.bytes && cardAudience().contains(peer)) {
                shared.append(card)
            }
        }
        return shared + outboxes(with: peer)
    }

    /// Owner and current members of a document.
    /// An itinerary's are kept (`SyncComponent`) until ops that may change membership are stored.
    func participants(of doc: Store.DocumentRecord) -> Set<PublicKey> {
        if doc.kind == .card {
            // A card's: its owner and, for this identity's own card, its audience; for
            // another's card, its owner and this identity (cards are never relayed).
            guard let owner = try? PublicKey(bytes: doc.owner), let me else { return [] }
            return owner == me ? cardAudience().union([me]) : [owner, me]
        }
        if doc.kind == .outbox { return outboxParticipants(doc) }
        if doc.kind == .published { return publishedParticipants(doc) }
        return syncComponent.members(of: doc, store)
    }

    /// Every itinerary's participants and every document's version vector, read into
    /// `SyncComponent` at the unlock in one read (`Store.syncStates`): the first session with
    /// a peer sharing thousands of trips (its opening summary, sync.md §7) then finds them
    /// kept instead of reading each on the spot (about 0.1 ms a trip, 1 s at 10,000).
    func readSyncState() {
        guard let (vectors, participants) = try? store.syncStates() else { return }
        syncComponent.prime(vectors: vectors, participants: participants)
    }

    /// The version vector of a document, kept between writes (`SyncComponent`).
    func currentVector(_ doc: DocumentID) -> VersionVector? { syncComponent.vector(of: doc, store) }

    /// The documents of `ops` whose participants may have changed with them.
    static func membershipDocuments(_ ops: [SignedOp], bodies: [OpBody]) -> Set<DocumentID> {
        var out = Set<DocumentID>()
        for (op, body) in zip(ops, bodies)
        where body.changes.contains(where: { $0.kind == .member || $0.kind == .link }) {
            out.insert(op.header.doc)
        }
        return out
    }

    // MARK: Handing work to the replicator

    /// Queues a fresh offer of `doc` to those of `newcomers` that are connected.
    func offerToConnected(_ doc: Store.DocumentRecord, newcomers: Set<PublicKey>) {
        replicator.offer(doc.id, to: newcomers)
    }

    /// After a local commit: the replicator pushes the new ops to the document's participants.
    /// Who they go to and what this daemon held before are read here, in the commit's step
    /// (from the caches), so that the replicator never waits on the engine to send them — a
    /// long request (a 100,000-stop itinerary's answer) would otherwise hold the push up.
    func pushLocal(_ ops: [SignedOp], doc: DocumentID) {
        guard let record = try? store.document(doc),
            [.itinerary, .card, .outbox, .published, .library, .profile].contains(record.kind)
        else {
            return
        }
        guard let identity else { return }
        relayAfterCommit(record)
        relayPhotosAfterCommit(record)
        let recipients = withDevices(participants(of: record)).union(relayPeers(of: record))
        guard !recipients.isEmpty else { return }
        // What this daemon held before: its own ops of this commit taken out.
        var before = currentVector(doc)?.seqs
        if let first = ops.first(where: { $0.header.author == identity.publicKey.bytes }) {
            before?[identity.publicKey.hex] = first.header.seq - 1
        }
        replicator.committed(
            LocalCommit(ops: ops, doc: doc, recipients: Array(recipients), before: before.map { VersionVector($0) }))
    }

    /// A duration in milliseconds with two decimals, for debug logs.
    static func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", ms)
    }

    // MARK: Names and grants

    /// The `name` of an entity, if it has one (nil for an entity not held).
    func entityName(in doc: DocumentID, _ entity: String) -> String? {
        guard let record = try? store.entity(in: doc, id: entity) else { return nil }
        return Views.fields(record)["name"]?.stringValue
    }

    func displayName(of key: PublicKey) -> String {
        if key == me { return currentProfileName() ?? "you" }
        if let name = syncComponent.peerNames[key], !name.isEmpty { return name }
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
}
