import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Redeeming share links over sync (`Protocol/sync.md` §8.2, `capabilities.md` §4): the
/// joiner's side (presenting the token without its key, taking only a proven holder's
/// answer) and the holder's (checking the token, writing the admission).
extension Engine {
    // MARK: Joining

    /// `POST /v1/join`: redeems a share link. Presents the token to every connected peer and
    /// to the link's address hints; a peer holding the itinerary checks it and sends the
    /// itinerary; this daemon then writes its `join` op. Waits up to `waitSeconds`.
    func join(_ request: JoinRequest) async throws -> Itinerary {
        guard let me else { throw ServiceError.loggedOut }
        let link: ShareLink
        do { link = try ShareLink(parsing: request.link) } catch { throw ServiceError.link(error, field: "link") }
        let token = link.token
        do { try token.check(nowMs: RFC3339.nowMs(), presenter: me) } catch {
            throw ServiceError.link(error, field: "link")
        }
        let wait = request.waitSeconds ?? 15
        guard (1...120).contains(wait) else {
            throw ServiceError.invalid("waitSeconds", "waitSeconds must be 1 to 120")
        }
        if let doc = try? store.document(token.doc), doc.owner == me.bytes || Store.activeRoles.contains(role(in: doc))
        {
            throw ServiceError.conflict("already-member", "you are already the \(role(in: doc)) of this itinerary")
        }
        guard joins.join(token.doc) == nil else {
            throw ServiceError.conflict("join-in-progress", "this daemon is already joining that itinerary")
        }
        joins.keep(PendingJoin(token: token), for: token.doc)
        for hint in token.addressHints {
            guard let (host, port) = Engine.parseHostPort(hint), let sync, await sync.addPeer(host: host, port: port)
            else { continue }
            // Read again after the await: a join that ended meanwhile (a quick refusal) has
            // already forgotten its addresses, so this one is forgotten here.
            if !joins.dialled(token.doc, host: host, port: port) { await sync.forgetPeer(host: host, port: port) }
        }
        for peer in Set((await sync?.connectedPeers() ?? []).map(\.key)) { await presentToken(token, to: peer) }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<JoinOutcome, Never>) in
            guard var pending = joins.join(token.doc) else {
                continuation.resume(returning: .failed(Problem(ServiceError.internal("Join lost", ""))))
                return
            }
            if let decided = pending.state.wait() {
                // Already decided while the token was being presented.
                joins.end(token.doc)
                continuation.resume(returning: decided)
                return
            }
            pending.waiter = continuation
            joins.keep(pending, for: token.doc)
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(wait))
                await self?.finishJoin(
                    token.doc,
                    .failed(
                        Problem(
                            ServiceError(
                                .noMemberReachable,
                                "no daemon holding this itinerary let this one in within \(wait) s: the link's addresses "
                                    + "(\(token.addressHints.joined(separator: ", "))) and peers on this network did "
                                    + "not answer. Try again when a member's device is on, or add it with "
                                    + "`places peers add`"))))
            }
        }
        switch outcome {
        case .joined: return try itinerary(token.doc.hex)
        case .failed(let problem): throw problem
        }
    }

    /// Resolves a pending join (refusals and admissions from the sync side).
    func finishJoin(_ doc: DocumentID, _ outcome: Result<Void, Problem>) {
        finishJoin(doc, JoinOutcome(outcome))
    }

    /// Resolves a pending join once; a failure forgets a document fetched but not joined.
    func finishJoin(_ doc: DocumentID, _ outcome: JoinOutcome) {
        guard var pending = joins.join(doc) else { return }
        let admitted = pending.admittedBy
        guard let step = pending.state.finish(outcome) else { return }
        // Held: `join` has not started waiting yet and takes the outcome when it does.
        if step == .hold { joins.keep(pending, for: doc) } else { joins.end(doc) }
        if case .failed = outcome, admitted != nil, let me, let record = try? store.document(doc),
            record.owner != me.bytes, !Store.activeRoles.contains(role(in: record))
        {
            try? store.purgeDocument(doc)
            didStore(.documents)
            // Send windows remember positions in the log; a purged document's ops are gone.
            replicator.forget(doc)
        }
        if let sync {
            for (host, port) in pending.dialled { Task { await sync.forgetPeer(host: host, port: port) } }
        }
        if step == .resume { pending.waiter?.resume(returning: outcome) }
    }

    /// The join of `doc` still waiting for an outcome, if any.
    func openJoin(_ doc: DocumentID) -> PendingJoin? { joins.openJoin(doc) }

    /// Sends a JoinRequest for `token` to `peer` (once per peer).
    func presentToken(_ token: CapabilityToken, to peer: PublicKey) async {
        guard let presentation = askOnce(token.doc, peer) else { return }
        replicator.present(presentation, to: peer)
    }

    /// JoinRequests for every pending join, for a peer that just connected.
    func joinRequests(for peer: PublicKey) -> [JoinPresentation] {
        joins.joiningDocuments.compactMap { askOnce($0, peer) }
    }

    /// The JoinRequest of the pending join of `doc` for `peer`, once per peer (nil when it
    /// was already asked or the join is over).
    private func askOnce(_ doc: DocumentID, _ peer: PublicKey) -> JoinPresentation? {
        guard var pending = openJoin(doc), !pending.asked.contains(peer) else { return nil }
        pending.asked.insert(peer)
        joins.keep(pending, for: doc)
        // Never the document key: a peer that does not hold the itinerary must learn nothing
        // that lets it read it (capabilities.md §4.1).
        return JoinPresentation(token: pending.token.redacted.encoded, nonce: pending.nonce)
    }

    /// A holder's answer to a JoinRequest (`Protocol/sync.md` §8.2): nothing when it does not
    /// hold the document and the key of the token's epoch; a JoinRefused when the token does
    /// not let `peer` in; else an offer of the document whose grants carry every epoch key
    /// held, sealed to `peer`. Both carry a proof that this daemon holds the key.
    func handleJoinRequest(_ request: JoinPresentation, from peer: PublicKey) -> JoinAnswer? {
        guard let identity, request.nonce.count == JoinProof.nonceBytes,
            let presented = try? CapabilityToken(decoding: request.token),
            let record = try? store.document(presented.doc), record.kind == .itinerary,
            participants(of: record).contains(me ?? identity.publicKey),
            let key = keyringCopy().key(presented.doc, epoch: presented.epoch)
        else { return nil }
        // The joiner sends the token without its key; the holder's own key of that epoch
        // makes it whole again (a token with another key fails its signature check).
        let token = presented.withDocumentKey(key)
        let nonce = request.nonce
        let refusal: AccessError?
        do { refusal = try store.redemptionRefusal(token, joiner: peer, nowMs: RFC3339.nowMs()) } catch { return nil }
        if let refusal {
            logger.notice(
                "refused a share link",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(token.doc)",
                    "reason": "\(refusal.code.rawValue)",
                ])
            return .refused(
                JoinRefusal(
                    doc: token.doc, tokenID: token.tokenID, code: refusal.code.rawValue, reason: refusal.message,
                    proof: JoinProof.make(
                        .refuse, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: peer,
                        holder: identity.publicKey, owner: nil) ?? []))
        }
        // The membership is written here, by a member entitled to let the joiner in, in an op
        // checked at this daemon's causal point and on its clock (capabilities.md §4): the
        // joiner's own claims (its deps, its time) play no part. A viewer cannot admit
        // anyone; it sends nothing, so an owner's or editor's device can answer instead.
        let myRole = role(in: record)
        guard myRole == "owner" || (myRole == "editor" && token.role == .viewer) else { return nil }
        if !isActiveMember(peer, of: record) {
            do {
                try commit(
                    token.doc,
                    [
                        .create(entity: peer.hex, kind: .member),
                        .set(
                            entity: peer.hex, kind: .member, field: "role", value: .string(token.role.rawValue),
                            old: nil),
                        .set(
                            entity: peer.hex, kind: .member, field: "token", value: .string(token.base64url), old: nil),
                    ], summary: "admitted a share link's holder")
            } catch {
                logger.error(
                    "admitting a share link's holder failed",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(token.doc)", "error": "\(error)"])
                return nil
            }
        }
        joins.admitProvisionally(peer, to: token.doc)
        var grants = [KeyGrant]()
        // A relay's key never receives a document key (relay.md §1).
        for (epoch, key) in keyringCopy().all(token.doc) where !isRelayKey(peer) {
            guard let grant = try? KeyGrant.issue(key: key, doc: token.doc, epoch: epoch, to: peer, by: identity) else {
                continue
            }
            grants.append(grant)
        }
        let proof =
            JoinProof.make(
                .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: peer,
                holder: identity.publicKey, owner: record.owner) ?? []
        logger.info(
            "let a share link's holder fetch an itinerary",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(token.doc)", "role": "\(token.role)"])
        // The replicator sends it as an offer of the document carrying these grants.
        return .admitted(doc: token.doc, grants: grants, role: token.role.rawValue, proof: proof)
    }

    /// A refusal counts only from a peer that was asked and proves it holds the document: a
    /// stranger cannot cancel a join.
    func handleJoinRefused(_ refused: JoinRefusal, from peer: PublicKey) {
        let doc = refused.doc
        guard let me, let pending = openJoin(doc),
            pending.asked.contains(peer), pending.token.tokenID == refused.tokenID,
            JoinProof.verify(
                refused.proof, .refuse, key: pending.token.documentKey, doc: doc,
                tokenID: pending.token.tokenID, nonce: pending.nonce, joiner: me, holder: peer, owner: nil)
        else {
            logger.notice(
                "ignored a join refusal without a valid proof", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return
        }
        let code = AccessError.Code(rawValue: refused.code) ?? .notAllowed
        let reason = refused.reason  // at most 500 characters (the replicator bounds it)
        finishJoin(
            doc,
            .failure(
                Engine.problem(
                    AccessError(code, "\(displayName(of: peer)) refused the link: \(reason)"), field: "link")))
    }

    /// For an offer of a document this daemon is joining through a link from a peer it asked:
    /// registers the document with the token's key and the peer's grants. Returns whether
    /// the document is now held.
    func admitJoin(_ offer: ReceivedOffer, doc: DocumentID, from peer: PublicKey) -> Bool {
        guard let identity, var pending = openJoin(doc), pending.asked.contains(peer),
            pending.admittedBy == nil || pending.admittedBy == peer, offer.owner.count == 32
        else { return false }
        let token = pending.token
        // Only a holder that proves it holds the document key, and only with the owner the
        // link implies: an editor link's issuer is the owner (capabilities.md §4.1).
        guard
            JoinProof.verify(
                offer.joinProof, .admit, key: token.documentKey, doc: doc, tokenID: token.tokenID,
                nonce: pending.nonce, joiner: identity.publicKey, holder: peer, owner: offer.owner)
        else {
            logger.notice(
                "ignored an offer for a pending join without a valid proof",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)"])
            return false
        }
        guard token.role != .editor || offer.owner == token.issuer.bytes else {
            logger.notice(
                "ignored an offer naming another owner than the editor link's issuer",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)"])
            return false
        }
        do {
            didStore(.documents)
            try store.registerDocument(doc, kind: .itinerary, owner: offer.owner, timeMs: RFC3339.nowMs())
            var keys = [(token.epoch, token.documentKey)]
            // `offer.grants` are those among the offer's first `Replicator.maxGrantsPerOffer`.
            for grant in offer.grants
            where grant.doc == doc && grant.member == identity.publicKey.bytes && grant.issuer == peer.bytes
                && grant.isValid
            {
                if let key = try? SealedBox.open(grant.sealedKey, with: identity) { keys.append((grant.epoch, key)) }
            }
            for (epoch, key) in keys {
                try store.addDocumentKey(doc, epoch: epoch, sealed: try SealedBox.seal(key, to: identity.publicKey))
                addKey(key, doc: doc, epoch: epoch)
            }
        } catch {
            logger.error("registering a joined itinerary failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            return false
        }
        pending.admittedBy = peer
        joins.keep(pending, for: doc)
        return true
    }

    /// After ops of a document being joined are stored: once this daemon holds what the
    /// admitting peer offered — its admission op included — the join is complete. The
    /// joiner then writes its profile name on its own member entity, so that members who
    /// never meet its daemon can name it.
    func completeJoinIfCaughtUp(_ doc: DocumentID, from peer: PublicKey, offered: VersionVector) {
        guard let me, let pending = openJoin(doc), pending.admittedBy == peer, let mine = currentVector(doc),
            !offered.seqs.contains(where: { mine[$0.key] < $0.value }), let record = try? store.document(doc)
        else { return }
        guard isActiveMember(me, of: record) else {
            finishJoin(
                doc,
                .failure(
                    Problem(
                        status: 502, code: "not-admitted", title: "Not admitted",
                        detail: "\(displayName(of: peer)) sent the itinerary without your membership: try again")))
            return
        }
        if let name = currentProfileName(), !name.isEmpty {
            _ = try? commit(
                doc, [.set(MemberFields.name, of: me.hex, to: name)],
                summary: "named itself")
        }
        // Redeeming the link was consent to this itinerary: its owner becomes a contact.
        try? store.addContact(record.owner, name: "", timeMs: RFC3339.nowMs())
        logger.info("joined an itinerary through a share link", metadata: ["doc.id": "\(doc)"])
        finishJoin(doc, .success(()))
    }

    /// Whether `key` is an editor or viewer of `doc` as this daemon holds it.
    func isActiveMember(_ key: PublicKey, of doc: Store.DocumentRecord) -> Bool {
        ((try? store.members(of: doc.id)) ?? []).contains { $0.key == key.hex }
    }
}
