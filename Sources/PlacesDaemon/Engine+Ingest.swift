import Foundation
import Logging
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

extension Store.Rejection {
    /// Whether the op was refused only because something it follows is not held yet.
    var isOutOfOrder: Bool {
        switch self {
        case .missingDependency, .sequenceGap: true
        default: false
        }
    }
}

/// Ops received from a peer (`Protocol/sync.md` §7, "Ops"): stored through the store's checks,
/// then relayed, announced, and followed by a pull when this daemon is still behind.
extension Engine {
    /// Stores a batch; returns a new offer to the sender when this daemon is still behind
    /// the sender's last offer (pulling the next round).
    func handleOps(_ batch: Places_Sync_V1_OpsBatch, from peer: PublicKey) -> [SyncMessage] {
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
}
