import PlacesCrypto
import PlacesModel

/// Rounds of a document exchange (`Protocol/sync.md` §7, "Rounds"): what is sent to a peer
/// in answer to its offers, in send windows, and how new ops are pushed.
extension Replicator {
    /// Answers an offer of `peer` (which holds `theirs`): the next round of ops it lacks,
    /// after those already sent to it and not yet acknowledged, as long as fewer than
    /// `maxInFlightBytes` are in flight. An offer with `reply = false` (a new exchange)
    /// starts from its vector alone.
    func nextRound(to peer: PublicKey, doc: DocumentID, theirs: VersionVector, fresh: Bool) async -> [SyncMessage] {
        var window = (fresh ? nil : sendWindows[peer]?[doc]) ?? SendWindow(frontier: theirs)
        if !window.acknowledge(theirs) {
            // The peer stored less than was sent (it refused an op): start again from what it holds.
            window = SendWindow(frontier: theirs)
        }
        sendWindows[peer, default: [:]][doc] = window
        return await fillWindow(peer: peer, doc: doc)
    }

    /// One more round for the window of `peer` and `doc` if it has room, in batches, each
    /// recorded as in flight.
    private func fillWindow(peer: PublicKey, doc: DocumentID) async -> [SyncMessage] {
        // The window may move while the ops are read (an offer on the peer's other session, a
        // push, a disconnect): a round read for an older state is read again for the window
        // as it is now. Dropping it instead could lose the only answer to a pull — the
        // whole-log round that carries the other branch of an equivocation is asked for once
        // per session (sync.md §7, "Equivocation").
        for _ in 0..<Replicator.maxRoundRereads {
            guard let window = sendWindows[peer]?[doc],
                window.inFlightBytes + Replicator.maxRoundBytes <= Replicator.maxInFlightBytes, let host,
                let round = await host.ops(
                    of: doc, missingFrom: window.frontier, after: window.readThrough,
                    maxBytes: Replicator.maxRoundBytes),
                !round.ops.isEmpty
            else { return [] }
            guard let current = sendWindows[peer]?[doc], current.frontier == window.frontier,
                current.readThrough == window.readThrough
            else { continue }
            return send(round, to: peer, doc: doc)
        }
        logger.notice(
            "the send window kept moving while a round was read: the peer's next offer pulls it",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)"])
        return []
    }

    /// Records `round` (read for the window as it is) as in flight to `peer`, in batches.
    private func send(_ round: ReplicaRound, to peer: PublicKey, doc: DocumentID) -> [SyncMessage] {
        guard var current = sendWindows[peer]?[doc],
            current.inFlightBytes + Replicator.maxRoundBytes <= Replicator.maxInFlightBytes
        else { return [] }
        let started = ContinuousClock.now
        var frontier = current.frontier
        var inFlight = current.inFlight
        var sizes = [Int]()
        var index = 0
        let messages = batches(of: round.ops, doc: doc) { _ in
            frontier.include(round.stamps[index].author, round.stamps[index].seq)
            index += 1
        } onBatch: { bytes in
            inFlight.append((through: frontier, bytes: bytes))
            sizes.append(bytes)
        }
        current.inFlight = inFlight
        current.readThrough = round.readThrough
        current.frontier = frontier
        sendWindows[peer]?[doc] = current
        noteSent(frontier, to: peer, doc: doc)
        logger.debug(
            "sending a round of ops",
            metadata: [
                "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "ops": "\(round.ops.count)",
                "batches": "\(sizes.count)",
                "in.flight.bytes": "\(current.inFlightBytes)",
                "ms": "\(Replicator.milliseconds(ContinuousClock.now - started))",
            ])
        return messages
    }

    /// After a local commit to a shared document: push the new ops to its participants.
    func pushLocal(_ commit: LocalCommit) async {
        logger.debug(
            "pushing local ops",
            metadata: [
                "doc.id": "\(commit.doc)", "ops": "\(commit.ops.count)", "recipients": "\(commit.recipients.count)",
            ])
        guard !commit.recipients.isEmpty else { return }
        await push(commit.ops, doc: commit.doc, to: commit.recipients, before: commit.before)
    }

    /// Sends new ops (a local commit, or ops from one peer relayed to the others) to each of
    /// `recipients`. A recipient still being sent older ops in rounds would get these before
    /// ops they depend on and refuse them: it gets a fresh offer instead (so it keeps pulling
    /// until it holds them) and the next round if there is room. `before` is what this
    /// daemon held before the ops. `relayedBy` is this daemon's key when the ops came from a
    /// peer: then a recipient whose key sorts first is told their ids instead
    /// (`Replicator+Told`).
    func push(
        _ ops: [SignedOp], doc: DocumentID, to recipients: [PublicKey], before: VersionVector?,
        relayedBy me: PublicKey? = nil
    ) async {
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
            if let offer = await makeOffer(for: doc, to: recipient, reply: true) { messages.append(offer) }
            messages += await fillWindow(peer: recipient, doc: doc)
            enqueue(messages, doc: doc, to: [recipient])
        }
        if !toOffer.isEmpty { await offerToConnected(doc, newcomers: toOffer) }
        guard !direct.isEmpty else { return }
        var sent = VersionVector()
        for op in ops { sent.include(op.header.authorKey, op.header.seq) }
        for recipient in direct { noteSent(sent, to: recipient, doc: doc) }
        // Not sent to a recipient: ops it told this daemon it holds, and, when relaying, its
        // own ops (it wrote them). Relayed ops go to a recipient whose key sorts first as ids.
        let tells = me.map { me in Set(direct.filter { tellsRather($0, me: me) }) } ?? []
        let ids =
            tells.isEmpty && !direct.contains(where: { peerHolds[$0] != nil })
            ? [] : ops.map { Blake2b.hash256($0.signedBytes) }
        var everything = [PublicKey]()
        for recipient in direct {
            let held = peerHolds[recipient]
            let lacking = ops.indices.filter { i in
                !(me != nil && ops[i].header.author == recipient.bytes) && !(held?.contains(ids[i]) ?? false)
            }
            if tells.contains(recipient) {
                if !lacking.isEmpty { enqueue(told(lacking.map { ids[$0] }, doc: doc), doc: doc, to: [recipient]) }
            } else if lacking.count == ops.count {
                everything.append(recipient)
            } else if !lacking.isEmpty {
                enqueue(batches(of: lacking.map { ops[$0].encoded }, doc: doc), doc: doc, to: [recipient])
            }
        }
        if !everything.isEmpty { enqueue(batches(of: ops.map(\.encoded), doc: doc), doc: doc, to: everything) }
    }

    /// What `peer` holds, as this daemon knows it (`peerVectors`), grows with the ops sent to
    /// it: a peer that stores them says nothing more, and one that refuses some offers again,
    /// which replaces this with what it holds. Without it, a trip would stay listed `syncing`
    /// after every edit sent until the next reconnect (`GET /v1/peers`).
    func noteSent(_ sent: VersionVector, to peer: PublicKey, doc: DocumentID) {
        guard var known = peerVectors[peer]?[doc] else { return }
        known.merge(sent)
        peerVectors[peer]?[doc] = known
    }
}
