import Foundation
import Logging
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Consent (`Protocol/sync.md` §7.1): invitations from people who are not contacts yet,
/// and the contacts whose shares arrive directly.
extension Engine {
    /// The consent rules and tables.
    func consentService() -> ConsentService { ConsentService(store: store, me: me) }

    /// `GET /v1/invitations`.
    func invitations() throws -> InvitationList {
        try consentService().invitations(displayName: { displayName(of: $0) })
    }

    /// `POST /v1/invitations/{id}/accept`: adds the itinerary, makes its owner a contact, and
    /// offers it to the connected participants so that its ops arrive.
    func acceptInvitation(_ reference: String) throws -> Invitation {
        guard let identity else { throw ServiceError.loggedOut }
        let invitation = try consentService().findInvitation(reference)
        if invitation.kind == "friend" { return try acceptFriendInvitation(invitation) }
        guard let owner = try? PublicKey(bytes: invitation.owner) else {
            throw ServiceError.internal("Invitation unreadable", "bad owner key")
        }
        // An invitation's grant is sealed to the person: its first device or an admin one opens it.
        let holder = account.personKey ?? identity
        var grant = invitation.grant
        grant.member = holder.publicKey.bytes
        guard grant.isValid, let key = try? SealedBox.open(grant.sealedKey, with: holder) else {
            try? store.deleteInvitation(invitation.doc)
            throw ServiceError(
                .invitationInvalid,
                "the invitation's key does not open with this identity; ask the owner to share again")
        }
        try storeCall { () throws(StoreError) in
            try store.addContact(invitation.owner, name: invitation.ownerName ?? "", timeMs: RFC3339.nowMs())
        }
        let via = try? PublicKey(bytes: invitation.via)
        guard let record = addSharedDocument(grant, key: key, owner: owner, from: via) else {
            throw ServiceError.internal("Could not add the itinerary", "see the log")
        }
        try? store.deleteInvitation(invitation.doc)
        var people = participants(of: record)
        if let via { people.insert(via) }
        offerToConnected(record, newcomers: people)
        return consentService().invitationView(invitation, status: "accepted", displayName: { displayName(of: $0) })
    }

    /// `POST /v1/invitations/{id}/decline`: the share is not added and not asked again.
    func declineInvitation(_ reference: String) throws -> Invitation {
        try consentService().decline(reference, displayName: { displayName(of: $0) })
    }

    /// `POST /v1/contacts`: shares from this person arrive directly from now on; a pending
    /// invitation of theirs is accepted.
    func addContact(_ request: AddContactRequest) throws -> ContactList {
        for invitation in try consentService().addContact(request) { _ = try? acceptInvitation(invitation.doc.hex) }
        offerMyCard()
        return try contactList()
    }

    /// `DELETE /v1/contacts/{id}`: later shares from them arrive as invitations again.
    func removeContact(_ reference: String) throws -> ContactList {
        try consentService().removeContact(reference)
        return try contactList()
    }

    // MARK: Sessions and shares from the network

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
        if joins.involves(peer) { return true }
        return !sharedDocuments(with: peer).isEmpty
    }

    /// An offer of a document this daemon does not hold, with no join pending: joins it when
    /// it carries a valid grant to this identity signed by the owner it names and that owner
    /// is a contact; records an invitation when the owner is anyone else. Returns the
    /// document when it is now held.
    func receiveShare(_ offer: ReceivedOffer, doc docID: DocumentID, from peer: PublicKey) -> Store.DocumentRecord? {
        guard let me, let identity else { return nil }
        let owner = offer.owner
        // `offer.grants` are those among the offer's first `Replicator.maxGrantsPerOffer`.
        // The newest epoch's grant is the one kept (an invitation keeps one): holding only an
        // older one, this daemon would take that epoch for the newest and count a member
        // removed since (whose grant of it they keep) as vouched for (sync.md §7).
        guard
            let grant = offer.grants.filter({ $0.doc == docID && $0.member == me.bytes && $0.issuerPerson == owner })
                .sorted(by: { $0.epoch > $1.epoch }).first(where: { $0.isValid }),
            let ownerKey = try? PublicKey(bytes: owner), ownerKey != me
        else {
            logger.debug(
                "an offer of a document not held carries no grant to this daemon",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            return nil
        }
        // A person's card id is never an itinerary (an owner offering their card as an
        // itinerary would otherwise keep their real card out).
        guard docID != CardService.documentID(owner: owner) else {
            logger.warning(
                "ignored an itinerary offered under its owner's card id",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            return nil
        }
        guard (try? store.isContact(owner)) == true else {
            let name = offer.name.isEmpty ? nil : offer.name
            let role = ["editor", "viewer"].contains(offer.role) ? offer.role : nil
            let invitation = Store.InvitationRecord(
                grant: grant, owner: owner, via: peer.bytes,
                ownerName: peer == ownerKey && !offer.fromName.isEmpty ? offer.fromName : nil,
                name: name, role: role, receivedMs: RFC3339.nowMs(), declined: false)
            switch (try? store.recordInvitation(invitation)) ?? .full {
            case .recorded:
                notify("invitation", actor: ownerKey, subject: docID.hex, dedup: "invitation:\(docID.hex)")
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
            didStore(.documents)
            try store.joinDocument(grant, kind: .itinerary, owner: owner.bytes, timeMs: RFC3339.nowMs())
        } catch {
            logger.error("joining a shared document failed", metadata: ["doc.id": "\(grant.doc)", "error": "\(error)"])
            return nil
        }
        addKey(key, doc: grant.doc, epoch: grant.epoch)
        logger.info(
            "joined a shared itinerary",
            metadata: ["doc.id": "\(grant.doc)", "peer.id": "\(peer.map { String($0.humanID.prefix(7)) } ?? "-")"])
        events.publish(
            Event(
                type: "shared", time: RFC3339.string(ms: RFC3339.nowMs()), doc: grant.doc.hex, docKind: "itinerary",
                author: owner.humanID, summary: "an itinerary was shared with you"))
        return try? store.document(grant.doc)
    }
}
