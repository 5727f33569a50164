import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// Offers (`Protocol/sync.md` §7, "Offers"): what this daemon holds of a document and the
/// key grants it hands on; what a peer's offer means (a share, a join, new grants, a pull).
extension Replicator {
    func makeOffer(for doc: DocumentID, to peer: PublicKey, reply: Bool) async -> SyncMessage? {
        // What an invitation shows, only for a peer that has not shown it holds the document
        // in this session (pulls during a long sync skip the member scan).
        let describe = peerVectors[peer]?[doc] == nil
        guard let content = await host?.offerContent(of: doc, to: peer, describe: describe) else { return nil }
        // A contact card goes only to a peer that takes cards (an older daemon would take it
        // for an itinerary).
        if !takes(content.kind, peer) { return nil }
        var offer = Places_Sync_V1_DocOffer()
        if content.kind != .itinerary { offer.kind = content.kind.rawValue }
        offer.doc = Data(doc.bytes)
        offer.owner = Data(content.owner)
        offer.vector = content.vector.seqs.keys.sorted().compactMap { author in
            guard let raw = HexCoding.decode(author) else { return nil }
            var entry = Places_Sync_V1_VersionEntry()
            entry.author = Data(raw)
            entry.seq = content.vector[author]
            return entry
        }
        // The receiver's own grants, then those of the other members, so that any participant
        // can hand a newcomer its key (only the newcomer can open its grant). A grant may
        // arrive before the op that makes its member one, so only grants of members removed
        // (or gone) in this daemon's view are held back (the host leaves those out).
        // The host lists the sender's own grants next, then the others newest epoch first: a
        // receiver that holds no role events yet (it accepted an invitation through this
        // sender) takes ops from the members the owner's grants of the newest epoch name
        // (sync.md §7, "Who is told about what").
        let forReceiver = content.grants.filter { $0.member == peer.bytes }
        let forOthers = content.grants.filter { $0.member != peer.bytes }
        offer.grants = (forReceiver + forOthers).prefix(Replicator.maxGrantsPerOffer).map(Replicator.wire)
        offer.reply = reply
        if content.kind == .published, content.salt.count == 16 { offer.salt = Data(content.salt) }
        if !content.relayAccess.isEmpty, content.relayAccess.count <= RelayAccess.maxSize {
            offer.relayAccess = Data(content.relayAccess)
        }
        if content.kind == .outbox, !content.friendToken.isEmpty, content.friendToken.count <= 4_096 {
            offer.joinProof = Data(content.friendToken)
        }
        if describe {
            offer.fromName = String((content.fromName ?? "").prefix(100))
            if let name = content.name { offer.name = String(name.prefix(200)) }
            if let role = content.role { offer.role = role }
        }
        var message = SyncMessage()
        message.offer = offer
        return message
    }

    /// Whether `peer` said (in its `Hello`) that it takes documents of `kind`.
    func takes(_ kind: ReplicaDocument.Kind, _ peer: PublicKey) -> Bool {
        guard let feature = kind.feature else { return true }
        return peerFeatures[peer]?.contains(feature) == true
    }

    func handleOffer(_ offer: Places_Sync_V1_DocOffer, from peer: PublicKey) async -> [SyncMessage] {
        guard let host, await host.replicaIdentity() != nil, let docID = DocumentID(bytes: [UInt8](offer.doc)) else {
            return []
        }
        guard offer.owner.count == 32, offer.vector.count <= Replicator.maxVectorEntries,
            offer.vector.allSatisfy({ $0.author.count == 32 && $0.seq <= Replicator.maxOfferedSeq })
        else {
            logger.warning(
                "ignored a malformed offer",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "entries": "\(offer.vector.count)",
                ])
            return []
        }
        guard let offeredKind = Replicator.kind(of: offer) else {
            logger.warning(
                "ignored an offer of an unknown document kind",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            return []
        }
        // A signed access list (relay.md §4.1) goes to the host first: on a relay it is what
        // makes the document one it keeps; on a member it is kept to hand on. One per offer,
        // in bounds; the host checks the signature.
        if !offer.relayAccess.isEmpty {
            if offer.relayAccess.count <= RelayAccess.maxSize {
                await host.receiveRelayAccess([UInt8](offer.relayAccess), kind: offeredKind, from: peer)
            } else {
                logger.warning(
                    "ignored an access list out of bounds",
                    metadata: ["peer.id": "\(peer.logID)", "doc.id": "\(docID)"])
            }
        }
        var record = await host.document(docID)
        // A document is offered as what it is: an itinerary offered as a card (or the other
        // way round) is a lie, and a card is taken only from a peer that said it takes them.
        if let held = record, held.kind != offeredKind {
            // An itinerary planted under an id that is provably this peer's outbox to this
            // daemon (or its card) must not keep the real one out: the host drops it.
            if offeredKind.isDirect, held.kind == .itinerary, takes(offeredKind, peer),
                await host.releaseSquatted(docID, as: offeredKind, from: peer)
            {
                record = nil
            } else {
                logger.warning(
                    "ignored an offer that names the wrong kind for a document held",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
                return []
            }
        }
        if offeredKind.isDirect {
            guard takes(offeredKind, peer) else { return [] }
            // A card or outbox not held: the host takes it only from its owner, when the rules
            // of its kind allow (a card from a contact or co-member; an outbox from a friend,
            // or as a friend request).
            if record == nil {
                guard let card = await host.receiveShare(Replicator.received(offer, doc: docID), from: peer) else {
                    return []
                }
                record = card
            }
        }
        // The peer that just handed this daemon the document is answered even before the ops
        // that make it a participant here have arrived.
        let handedOver = record == nil
        if record == nil, await host.admitJoin(Replicator.received(offer, doc: docID), from: peer) {
            record = await host.document(docID)
        } else if record == nil {
            // A document this daemon does not hold: it is added only with the user's consent
            // (sync.md §7.1) — directly when the owner is a contact, else as an invitation.
            record = await host.receiveShare(Replicator.received(offer, doc: docID), from: peer)
            guard let joined = record else { return [] }
            await offerToConnected(joined.id, newcomers: (await host.participants(in: joined.id)).subtracting([peer]))
        }
        guard let record else { return [] }
        // Keep the owner-signed grants of other members, to hand them on — whoever brings them:
        // only the owner can sign one, and a participant this daemon does not know of yet (its
        // role write has not arrived) may bring the grant before the op. Grants already held
        // are skipped before any signature is checked, and at most `maxGrantsPerOffer` are
        // verified per offer.
        let newGrants = await keepGrants(offer, record: record, from: peer)
        // New grants travel on at once to every connected participant (a member several hops
        // away gets its key without waiting for a reconnect).
        let participants = await host.participants(in: docID)
        if newGrants { await offerToConnected(record.id, newcomers: participants.subtracting([peer])) }
        var allowed = handedOver || participants.contains(peer)
        if !allowed { allowed = await host.isAdmitting(peer, to: docID) }
        guard allowed else {
            // The peer is not a member in this daemon's view: it learns nothing.
            return []
        }
        var theirs = VersionVector()
        for entry in offer.vector { theirs.include(HexCoding.encode(entry.author), entry.seq) }
        peerVectors[peer, default: [:]][docID] = theirs
        offeredVectors[peer, default: [:]][docID] = theirs
        var out = await nextRound(to: peer, doc: docID, theirs: theirs, fresh: !offer.reply)
        // Ops already on their way to the peer count as its own (an offer it made before they
        // arrived says less; one made after it refused some has just reset the window).
        if let sent = sendWindows[peer]?[docID]?.frontier { noteSent(sent, to: peer, doc: docID) }
        if !offer.reply, let mine = await makeOffer(for: docID, to: peer, reply: true) { out.insert(mine, at: 0) }
        await host.caughtUp(with: peer, on: docID, offered: theirs)
        // A post's or card's photos this daemon still lacks are asked of every peer that
        // offers the document fresh, not only of the one its ops came from: that one (another
        // device of this person) may not have had them yet.
        if offeredKind.isDirect, !offer.reply { out += await blobsFollow(from: peer, in: docID) }
        return out
    }

    /// Keeps the offer's owner-signed grants not held yet (the host verifies each and opens
    /// the one to this daemon), and those the sender signed itself for this daemon's key (a
    /// sibling device handing on what it holds, `Protocol/devices.md` §4.3: the host takes
    /// them only from its person's devices); returns whether there were any.
    private func keepGrants(_ offer: Places_Sync_V1_DocOffer, record: ReplicaDocument, from peer: PublicKey) async
        -> Bool
    {
        guard let host else { return false }
        let held = await host.heldGrantSignatures(in: record.id)
        let mine = await host.replicaIdentity()?.publicKey.bytes
        var candidates = [KeyGrant]()
        for grant in offer.grants.lazy.compactMap(Replicator.grant)
        where grant.doc == record.id
            && (grant.issuer == record.owner || (grant.issuer == peer.bytes && grant.member == mine))
            && !held.contains(grant.signature)
        {
            guard candidates.count < Replicator.maxGrantsPerOffer else { break }
            candidates.append(grant)
        }
        guard !candidates.isEmpty else { return false }
        return await host.keepGrants(candidates)
    }

    /// Queues a fresh offer of `doc` to the given participants that are connected.
    func offerToConnected(_ doc: DocumentID, newcomers: Set<PublicKey>) async {
        let me = await host?.replicaIdentity()?.publicKey
        for newcomer in newcomers where newcomer != me && sessions[newcomer] != nil {
            guard let message = await makeOffer(for: doc, to: newcomer, reply: false) else { continue }
            logger.debug(
                "offering a document",
                metadata: [
                    "peer.id": "\(newcomer.humanID.prefix(7))", "doc.id": "\(doc)",
                    "grants": "\(message.offer.grants.count)",
                ])
            enqueue([message], doc: doc, to: [newcomer])
        }
    }
}
