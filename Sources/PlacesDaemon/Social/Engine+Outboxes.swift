import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Outboxes (`Protocol/sync.md` §7.3): this person's outbox to each friend, made and reopened
/// here; another's outbox taken when it is offered (a friend's, or a friend request); and an
/// itinerary squatting an outbox's or card's id dropped.
extension Engine {
    /// This person's outbox to `reader`, created on first use.
    @discardableResult
    func ensureOutbox(to reader: PublicKey, identity: SigningKeyPair) throws -> Store.DocumentRecord {
        let id = Outboxes.documentID(author: (me ?? identity.publicKey).bytes, reader: reader.bytes)
        if let held = try? store.document(id) { return held }
        do {
            let key = try SecretBox.randomKey()
            try store.createDocument(
                id, kind: .outbox, owner: me ?? identity.publicKey,
                sealedKey: try SealedBox.seal(key, to: identity.publicKey),
                timeMs: RFC3339.nowMs())
            account.keyring.insert(key, doc: id, epoch: 0)
        } catch {
            throw ServiceError.store("Could not create your outbox", "\(error)", cause: error)
        }
        didStore(.documents)
        guard let record = try? store.document(id) else {
            throw ServiceError.internal("Could not create your outbox", "not found after creating it")
        }
        return record
    }

    /// Writes the outbox's root with `ended` false (a friendship that starts, or starts again).
    /// With `asking`, it is written even when it already says so: a request after an ended
    /// friendship is a new op the other daemon sees (`friendshipFollows`).
    func reopenOutbox(_ outbox: Store.DocumentRecord, asking: Bool = false) throws {
        let root = try storeCall { () throws(StoreError) in try store.entity(in: outbox.id, id: outbox.id.hex) }
        let ended = root.map(Views.fields)?[OutboxFields.ended.name]
        guard asking || root == nil || ended != .bool(false) else { return }
        var write = root == nil ? EntityWrite<OutboxFields>.create(outbox.id.hex) : .update(outbox.id.hex)
        write.set(OutboxFields.ended.name, to: .bool(false), old: root == nil ? nil : ended)
        try commit(outbox.id, write.changes, summary: "outbox opened")
    }

    /// An outbox offered by `peer` that this daemon does not hold: taken when `peer` is its
    /// author, its id is `peer`'s outbox to this person, and it carries `peer`'s valid grant.
    /// From a friend, or someone this person asked, it is taken (and the friendship starts);
    /// from anyone else it waits as a friend request.
    func receiveOutbox(_ offer: ReceivedOffer, from peer: PublicKey) -> Store.DocumentRecord? {
        guard let me, let identity, offer.owner == peer.bytes, peer != me else { return nil }
        guard offer.doc == Outboxes.documentID(author: peer.bytes, reader: me.bytes) else {
            logger.warning(
                "ignored an outbox whose id is not its author's outbox to this person",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return nil
        }
        guard
            let grant = offer.grants.first(where: {
                $0.doc == offer.doc && $0.member == me.bytes && $0.issuer == peer.bytes && $0.isValid
            }), let key = try? SealedBox.open(grant.sealedKey, with: identity)
        else { return nil }
        switch friendState(peer) {
        case .friend?, .requested?:
            return takeOutbox(grant, key: key, from: peer, name: offer.fromName)
        case .ended?, nil:
            // Redeeming this person's friend link: accepted without a prompt while it is valid.
            if !offer.joinProof.isEmpty, let link = try? FriendLink(token: offer.joinProof), link.owner == me,
                (try? link.check(nowMs: RFC3339.nowMs())) != nil
            {
                guard let taken = takeOutbox(grant, key: key, from: peer, name: offer.fromName) else { return nil }
                logger.info("a friend link was redeemed", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
                notify("friend-accepted", actor: peer, subject: peer.humanID, dedup: "friend-link:\(offer.doc.hex)")
                return taken
            }
            let invitation = Store.InvitationRecord(
                grant: grant, owner: peer.bytes, via: peer.bytes,
                ownerName: offer.fromName.isEmpty ? nil : offer.fromName, name: nil, role: nil,
                receivedMs: RFC3339.nowMs(), declined: false, kind: "friend")
            switch (try? store.recordInvitation(invitation)) ?? .full {
            case .recorded:
                logger.info("received a friend request", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
                notify("friend-request", actor: peer, subject: peer.humanID, dedup: "friend-request:\(offer.doc.hex)")
                events.publish(
                    Event(
                        type: "invited", time: RFC3339.string(ms: RFC3339.nowMs()), doc: offer.doc.hex,
                        docKind: "outbox", author: peer.humanID,
                        summary: "\(invitation.ownerName ?? displayName(of: peer)) wants to be your friend"))
            case .known: break
            case .full:
                logger.warning(
                    "dropped a friend request: too many are waiting", metadata: ["peer.id": "\(peer.humanID.prefix(7))"]
                )
            }
            return nil
        }
    }

    /// Keeps `peer`'s outbox to this person (the friendship is on): they become a friend and a
    /// contact, and this person's outbox to them is created and offered.
    func takeOutbox(_ grant: KeyGrant, key: [UInt8], from peer: PublicKey, name: String) -> Store.DocumentRecord? {
        guard let identity else { return nil }
        let wasRequested = friendState(peer) == .requested
        do {
            // Checked before anything is kept: nothing of a friendship past the bound stays.
            try requireFriendRoom(for: peer)
        } catch {
            logger.warning(
                "refused a friendship: this person has the most friends and requests there can be",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "friends.max": "\(Self.maxFriends)"])
            return nil
        }
        do {
            didStore(.documents)
            try store.joinDocument(grant, kind: .outbox, owner: peer.bytes, timeMs: RFC3339.nowMs())
            try store.addContact(peer.bytes, name: name, timeMs: RFC3339.nowMs())
            try admitFriend(peer, as: .friend, name: name)
        } catch {
            logger.error("keeping a friend's outbox failed", metadata: ["error": "\(error)"])
            return nil
        }
        addKey(key, doc: grant.doc, epoch: grant.epoch)
        if let mine = try? ensureOutbox(to: peer, identity: identity) {
            try? reopenOutbox(mine)
            offerToConnected(mine, newcomers: [peer])
        }
        offerMyCard()
        if wasRequested {
            notify("friend-accepted", actor: peer, subject: peer.humanID, dedup: "friend-accepted:\(grant.doc.hex)")
            events.publish(
                Event(
                    type: "friend", time: RFC3339.string(ms: RFC3339.nowMs()), doc: grant.doc.hex, docKind: "outbox",
                    author: peer.humanID, summary: "\(displayName(of: peer)) accepted your friend request"))
        }
        logger.info("a friendship started", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        return try? store.document(grant.doc)
    }
}

extension Engine {
    /// An itinerary held under an id that is provably `peer`'s outbox to this person or
    /// `peer`'s card was planted there by someone else (a contact can offer an itinerary under
    /// any id): it is dropped, so the real document can be taken (`Protocol/sync.md` §7.3).
    public func releaseSquatted(_ doc: DocumentID, as kind: ReplicaDocument.Kind, from peer: PublicKey) async -> Bool {
        guard let me, let held = try? store.document(doc), held.kind == .itinerary, held.owner != peer.bytes else {
            return false
        }
        let provable =
            switch kind {
            case .outbox: doc == Outboxes.documentID(author: peer.bytes, reader: me.bytes)
            case .card: doc == CardService.documentID(owner: peer.bytes)
            // A published trip's id needs its salt, which only its offer carries.
            case .itinerary, .published, .library, .profile: false
            }
        guard provable else { return false }
        do { try store.purgeDocument(doc) } catch {
            logger.error("dropping a planted itinerary failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            return false
        }
        didStore(.documents)
        logger.warning(
            "dropped an itinerary planted under someone's outbox or card id",
            metadata: ["doc.id": "\(doc)", "peer.id": "\(peer.humanID.prefix(7))"])
        return true
    }
}
