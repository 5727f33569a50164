import PlacesCrypto
import PlacesModel

/// Ops received from a peer (`Protocol/sync.md` §7, "Ops"): handed to the host, which stores
/// them through the store's checks; then relayed, and followed by a pull when this daemon is
/// still behind.
extension Replicator {
    /// Stores a batch; returns a new offer to the sender when this daemon is still behind
    /// the sender's last offer (pulling the next round).
    func handleOps(_ batch: Places_Sync_V1_OpsBatch, from peer: PublicKey) async -> [SyncMessage] {
        let started = ContinuousClock.now
        logger.debug("ops received", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "ops": "\(batch.ops.count)"])
        guard let host, let docID = DocumentID(bytes: [UInt8](batch.doc)), await host.document(docID) != nil else {
            return []
        }
        // A participant, a peer whose offer was accepted (it handed this daemon the document
        // before this daemon holds the ops that make it a member), or one being admitted.
        var allowed = (await host.participants(in: docID)).contains(peer) || offeredVectors[peer]?[docID] != nil
        if !allowed { allowed = await host.isAdmitting(peer, to: docID) }
        guard allowed else {
            // A removed member (or a stranger) sending ops: ignored, as its offers are.
            logger.warning(
                "ignored ops from a peer that is not a member of the itinerary",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "ops": "\(batch.ops.count)"])
            return []
        }
        let ingestStarted = ContinuousClock.now
        guard let result = await host.ingest(batch.ops.map { [UInt8]($0) }, into: docID, from: peer) else { return [] }
        let ingested = ContinuousClock.now
        defer {
            // Where a batch's time goes (the live-latency and bulk-sync figures).
            let done = ContinuousClock.now
            logger.debug(
                "ops handled",
                metadata: [
                    "doc.id": "\(docID)", "ops": "\(result.stored.count)",
                    "before.ms": "\(Replicator.milliseconds(ingestStarted - started))",
                    "ingest.ms": "\(Replicator.milliseconds(ingested - ingestStarted))",
                    "after.ms": "\(Replicator.milliseconds(done - ingested))",
                ])
        }
        // An op that came before what it depends on (a live push that overtook a round): this
        // daemon is behind the sender. A fresh offer tells it what is held, and it sends again
        // from there (sync.md §7, "Rounds"). One offer per such batch, whatever the sender does.
        var pull = [SyncMessage]()
        if let refusal = result.refusal, refusal != .other {
            // Remember what was refused: once the ops before it arrive, it is asked for again.
            var refused = refusedAhead[peer]?[docID] ?? VersionVector()
            for bytes in batch.ops {
                if let op = try? SignedOp(decoding: [UInt8](bytes)) {
                    refused.include(op.header.authorKey, op.header.seq)
                }
            }
            refusedAhead[peer, default: [:]][docID] = refused
        }
        if let refusal = result.refusal, refusal != .other,
            var again = await makeOffer(for: docID, to: peer, reply: true)
        {
            // A push that overtook a round is fixed by the fresh offer alone: the round brings
            // what the sender offered. A dependency missing when everything the sender offered
            // is held or in this very batch is the other branch of an equivocation neither side
            // knew of: an empty vector pulls the sender's whole log, once per document and
            // session (sync.md §7, "Equivocation").
            if refusal == .missingDependency, fullPulls[peer]?.contains(docID) != true,
                let offered = offeredVectors[peer]?[docID], var covered = await host.versionVector(of: docID)
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
        if var theirs = peerVectors[peer]?[docID] {
            for op in result.stored { theirs.include(op.header.authorKey, op.header.seq) }
            peerVectors[peer]?[docID] = theirs
        }
        // The sender holds what it sent: the send window to it counts these ops as held, so a
        // round never sends them back (ops written by members further along a line of daemons).
        if var window = sendWindows[peer]?[docID] {
            for op in result.stored { window.frontier.include(op.header.authorKey, op.header.seq) }
            sendWindows[peer]?[docID] = window
        }
        // Relay to the other participants (a box in the van keeps everyone in sync).
        let me = await host.replicaIdentity()?.publicKey
        let participantsNow = result.participantsAfter
        await push(
            result.stored, doc: docID, to: participantsNow.filter { $0 != peer && $0 != me }, before: result.before,
            relayedBy: me)
        // Members added by these ops: offer them the itinerary if they are connected here, and
        // offer it again to the other connected participants, whose next offers then carry
        // the newcomers' key grants on (a share travels several hops without a reconnect).
        if !participantsNow.subtracting(result.participantsBefore).isEmpty {
            await offerToConnected(docID, newcomers: participantsNow.subtracting([peer]))
        }
        var out = pull
        // Still behind what the sender offered? Ask for the next round — unless the refusal
        // above already asked (its offer pulls the round too, and may be the once-per-session
        // whole-log pull, which a plain offer must not replace).
        if pull.isEmpty, let mine = await host.versionVector(of: docID) {
            let offered = offeredVectors[peer]?[docID] ?? VersionVector()
            let refused = refusedAhead[peer]?[docID] ?? VersionVector()
            if mine.includes(refused) { refusedAhead[peer]?[docID] = nil }
            if offered.seqs.contains(where: { mine[$0.key] < $0.value }) || !mine.includes(refused),
                let again = await makeOffer(for: docID, to: peer, reply: true)
            {
                out = [again]
            }
        }
        if let offered = offeredVectors[peer]?[docID] { await host.caughtUp(with: peer, on: docID, offered: offered) }
        // Photos the new ops name (a post's, a card's picture), fetched lazily from the sender:
        // of the entities these ops change, not the whole document again per batch.
        return out + (await blobsFollow(from: peer, in: docID, among: result.entities))
    }
}
